import { injectable } from 'inversify'
import type { BasicMessageRecordJson } from '@idplane/common/agent-contract/admin-api'
import type { Principal } from '../../../infra/auth/token.service'
import { WalletAccess } from '../wallet-access'
import { WalletRecordsRepository } from '../wallet-records.repository'

/** Basic messages over the cloud wallet's connections (docs/decisions.md, "Cloud wallet"). */
@injectable()
export class WalletMessagesService {
  public constructor(
    private readonly access: WalletAccess,
    private readonly records: WalletRecordsRepository,
  ) {}

  public async send(principal: Principal, connectionId: string, content: string): Promise<BasicMessageRecordJson> {
    const owner = await this.access.walletOf(principal)
    await owner.agent.getConnection(connectionId)
    const sent = await owner.agent.sendBasicMessage(connectionId, { content })
    await this.access.remember(owner, 'basic-message', sent)
    return sent
  }

  /** Every basic message of one of the wallet's connections, from its holder records, oldest first. */
  public async list(principal: Principal, connectionId: string): Promise<BasicMessageRecordJson[]> {
    const owner = await this.access.walletOf(principal)
    // The connection is read first: another wallet's connection id is a 404, never an empty list.
    await this.access.readThrough(owner, 'connection', connectionId, () => owner.agent.getConnection(connectionId))
    const rows = await this.records.list(owner.wallet.id, 'basic-message', { connectionId })
    return rows.map((row) => row.record as BasicMessageRecordJson)
  }
}
