import { injectable } from 'inversify'
import type { CredentialRecordJson } from '@idplane/common/agent-contract/admin-api'
import type { Principal } from '../../../infra/auth/token.service'
import type { AcceptOfferDto, WalletCredentialsQuery } from '../dto/wallet.dto'
import { WalletAccess, definedFields } from '../wallet-access'
import { WalletRecordsRepository } from '../wallet-records.repository'

/** The cloud wallet's credential records and the offers it accepts. */
@injectable()
export class WalletCredentialsService {
  public constructor(
    private readonly access: WalletAccess,
    private readonly records: WalletRecordsRepository,
  ) {}

  /** The wallet's credential records from its holder records, filtered by `threadId`, `connectionId`, `state`. */
  public async list(principal: Principal, query: WalletCredentialsQuery): Promise<CredentialRecordJson[]> {
    const { wallet } = await this.access.walletOf(principal)
    const rows = await this.records.list(wallet.id, 'credential', definedFields(query))
    return rows.map((row) => row.record as CredentialRecordJson)
  }

  public async get(principal: Principal, credentialRecordId: string): Promise<CredentialRecordJson> {
    const owner = await this.access.walletOf(principal)
    return this.access.readThrough(owner, 'credential', credentialRecordId, () =>
      owner.agent.getCredential(credentialRecordId),
    )
  }

  /** What the offer (or the issued credential) holds, by format; read from the wallet's agent. */
  public async formatData(principal: Principal, credentialRecordId: string): Promise<Record<string, unknown>> {
    return (await this.access.tenantOf(principal)).getCredentialFormData(credentialRecordId)
  }

  public async acceptOffer(principal: Principal, body: AcceptOfferDto): Promise<CredentialRecordJson> {
    const owner = await this.access.walletOf(principal)
    // Read first: another wallet's record id is a 404 here, before anything is attempted on it.
    await owner.agent.getCredential(body.credentialRecordId)
    const accepted = await owner.agent.acceptCredentialOffer({
      credentialRecordId: body.credentialRecordId,
      autoAcceptCredential: body.autoAcceptCredential,
      credentialFormats: body.credentialFormats,
      ...(body.comment === undefined ? {} : { comment: body.comment }),
    })
    await this.access.remember(owner, 'credential', accepted)
    return accepted
  }
}
