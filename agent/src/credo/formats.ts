import { DidCommDifPresentationExchangeProofFormatService } from '@credo-ts/didcomm'

import { IdplaneJsonLdCredentialFormatService } from '../formats/jsonld/idplane-jsonld-credential-format.service'

/**
 * The credential and proof formats the protocols carry. Protocol handling (v2 issue-credential and
 * present-proof) is format-agnostic, so AnonCreds plugs in later by adding its format services here
 * (and its registries to the agent), without touching the protocol set-up or the admin controllers.
 */
export function credentialFormats() {
  return [new IdplaneJsonLdCredentialFormatService()] as [IdplaneJsonLdCredentialFormatService]
}

export function proofFormats() {
  return [new DidCommDifPresentationExchangeProofFormatService()] as [DidCommDifPresentationExchangeProofFormatService]
}
