import type { CREDENTIAL_OPERATIONS } from '@idplane/common/agent-contract/operations/credentials'

import type { AdminController } from './admin-routes'
import { CREDENTIAL_RECORDS, type CredentialsService } from './credentials.service'
import { AcceptOfferDto, CredentialQueryDto, OfferCredentialDto, OobOfferCredentialDto } from './dto/exchanges.dto'

export function credentialsController(credentials: CredentialsService): AdminController<typeof CREDENTIAL_OPERATIONS> {
  return {
    offerCredential: { body: OfferCredentialDto, handle: ({ scope, body }) => credentials.offer(scope, body) },
    offerCredentialOutOfBand: {
      body: OobOfferCredentialDto,
      handle: ({ scope, body }) => credentials.offerOutOfBand(scope, body),
    },
    acceptCredentialOffer: { body: AcceptOfferDto, handle: ({ scope, body }) => credentials.acceptOffer(scope, body) },
    listCredentials: {
      query: CredentialQueryDto,
      handle: ({ scope, query }) => CREDENTIAL_RECORDS.list(scope, query),
    },
    getCredential: { handle: ({ scope, params }) => CREDENTIAL_RECORDS.get(scope, params.credentialRecordId) },
    deleteCredential: {
      handle: ({ scope, params }) => CREDENTIAL_RECORDS.remove(scope, params.credentialRecordId),
    },
    getCredentialFormData: {
      handle: ({ scope, params }) => credentials.formData(scope, params.credentialRecordId),
    },
  }
}
