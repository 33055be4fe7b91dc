import type { DID_OPERATIONS } from '@idplane/common/agent-contract/operations/dids'

import type { AdminController } from './admin-routes'
import type { DidsService } from './dids.service'
import { CreateDidDto, SignCredentialDto, VerifyCredentialDto } from './dto/dids.dto'

export function didsController(dids: DidsService): AdminController<typeof DID_OPERATIONS> {
  return {
    createDid: { body: CreateDidDto, handle: ({ scope, body }) => dids.create(scope, body) },
    listDids: { handle: ({ scope }) => dids.list(scope) },
    signCredential: { body: SignCredentialDto, handle: ({ scope, body }) => dids.sign(scope, body) },
    verifyCredential: { body: VerifyCredentialDto, handle: ({ scope, body }) => dids.verify(scope, body) },
  }
}
