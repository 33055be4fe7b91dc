import { injectable } from 'inversify'
import type { ProofRecordJson } from '@idplane/common/agent-contract/admin-api'
import type { Principal } from '../../../infra/auth/token.service'
import type { AcceptProofRequestDto, WalletProofsQuery } from '../dto/wallet.dto'
import { WalletAccess, definedFields } from '../wallet-access'
import { WalletRecordsRepository } from '../wallet-records.repository'

/** The cloud wallet's proof records and the proof requests it answers. */
@injectable()
export class WalletProofsService {
  public constructor(
    private readonly access: WalletAccess,
    private readonly records: WalletRecordsRepository,
  ) {}

  /** The wallet's proof records from its holder records, filtered by `threadId`. */
  public async list(principal: Principal, query: WalletProofsQuery): Promise<ProofRecordJson[]> {
    const { wallet } = await this.access.walletOf(principal)
    const rows = await this.records.list(wallet.id, 'proof', definedFields(query))
    return rows.map((row) => row.record as ProofRecordJson)
  }

  public async get(principal: Principal, proofRecordId: string): Promise<ProofRecordJson> {
    const owner = await this.access.walletOf(principal)
    return this.access.readThrough(owner, 'proof', proofRecordId, () => owner.agent.getProof(proofRecordId))
  }

  /** What the proof request asks for (and, once answered, what was presented), by format. */
  public async formatData(principal: Principal, proofRecordId: string): Promise<Record<string, unknown>> {
    return (await (await this.access.tenantOf(principal)).getProofFormData(proofRecordId)).formData
  }

  public async acceptRequest(principal: Principal, body: AcceptProofRequestDto): Promise<ProofRecordJson> {
    const owner = await this.access.walletOf(principal)
    await owner.agent.getProof(body.proofRecordId)
    const accepted = await owner.agent.acceptProofRequest({
      proofRecordId: body.proofRecordId,
      filterByPresentationPreview: body.filterByPresentationPreview ?? false,
      filterByNonRevocationRequirements: body.filterByNonRevocationRequirements ?? false,
      ...(body.comment === undefined ? {} : { comment: body.comment }),
    })
    await this.access.remember(owner, 'proof', accepted)
    return accepted
  }
}
