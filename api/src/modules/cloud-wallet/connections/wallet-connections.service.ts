import { injectable } from 'inversify'
import type {
  ConnectionRecordJson,
  CreatedInvitation,
  ReceivedInvitation,
} from '@idplane/common/agent-contract/admin-api'
import type { Principal } from '../../../infra/auth/token.service'
import { toAgentReceiveOptions, type ReceiveInvitationUrlDto } from '../../connections/dto/receive-invitation.dto'
import type { WalletConnectionsQuery, WalletInvitationDto } from '../dto/wallet.dto'
import { WalletAccess } from '../wallet-access'
import { WalletRecordsRepository } from '../wallet-records.repository'

/** The cloud wallet's connections: invitations it creates or receives, and its connection records. */
@injectable()
export class WalletConnectionsService {
  public constructor(
    private readonly access: WalletAccess,
    private readonly records: WalletRecordsRepository,
  ) {}

  public async createInvitation(principal: Principal, body: WalletInvitationDto): Promise<CreatedInvitation> {
    return (await this.access.tenantOf(principal)).createInvitation({
      ...body,
      autoAcceptConnection: body.autoAcceptConnection ?? true,
    })
  }

  /**
   * The wallet's connections from its holder records (kept from the base agent's events), filtered; every filter
   * is an exact match on the record (`myDid` is the record's `did`).
   */
  public async list(principal: Principal, query: WalletConnectionsQuery): Promise<ConnectionRecordJson[]> {
    const { wallet } = await this.access.walletOf(principal)
    const rows = await this.records.list(wallet.id, 'connection')
    const wanted: [keyof WalletConnectionsQuery, string][] = [
      ['outOfBandId', 'outOfBandId'],
      ['alias', 'alias'],
      ['myDid', 'did'],
      ['theirDid', 'theirDid'],
      ['theirLabel', 'theirLabel'],
    ]
    return rows
      .map((row) => row.record as ConnectionRecordJson)
      .filter((record) =>
        wanted.every(([filter, field]) => query[filter] === undefined || record[field] === query[filter]),
      )
  }

  public async get(principal: Principal, connectionId: string): Promise<ConnectionRecordJson> {
    const owner = await this.access.walletOf(principal)
    return this.access.readThrough(owner, 'connection', connectionId, () => owner.agent.getConnection(connectionId))
  }

  public async receiveInvitationUrl(principal: Principal, body: ReceiveInvitationUrlDto): Promise<ReceivedInvitation> {
    const owner = await this.access.walletOf(principal)
    const received = await owner.agent.receiveInvitationUrl({
      invitationUrl: body.invitationUrl,
      ...toAgentReceiveOptions(body),
    })
    if (received.connectionRecord) await this.access.remember(owner, 'connection', received.connectionRecord)
    return received
  }
}
