import type { PROOF_OPERATIONS } from '@idplane/common/agent-contract/operations/proofs'

import type { AdminController } from './admin-routes'
import { AcceptProofRequestDto, OobRequestProofDto, ProofQueryDto, RequestProofDto } from './dto/exchanges.dto'
import { PROOF_RECORDS, type ProofsService } from './proofs.service'

export function proofsController(proofs: ProofsService): AdminController<typeof PROOF_OPERATIONS> {
  return {
    requestProof: { body: RequestProofDto, handle: ({ scope, body }) => proofs.request(scope, body) },
    requestProofOutOfBand: {
      body: OobRequestProofDto,
      handle: ({ scope, body }) => proofs.requestOutOfBand(scope, body),
    },
    acceptProofRequest: { body: AcceptProofRequestDto, handle: ({ scope, body }) => proofs.acceptRequest(scope, body) },
    verifyProof: { handle: ({ scope, params }) => proofs.verify(scope, params.proofRecordId) },
    listProofs: { query: ProofQueryDto, handle: ({ scope, query }) => PROOF_RECORDS.list(scope, query) },
    getProof: { handle: ({ scope, params }) => PROOF_RECORDS.get(scope, params.proofRecordId) },
    deleteProof: { handle: ({ scope, params }) => PROOF_RECORDS.remove(scope, params.proofRecordId) },
    getProofFormData: { handle: ({ scope, params }) => proofs.formData(scope, params.proofRecordId) },
  }
}
