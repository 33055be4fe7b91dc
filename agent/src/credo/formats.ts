import { DidCommJsonLdCredentialFormatService } from '@credo-ts/didcomm'

import { FormatEnforcingPresentationExchangeProofFormatService } from '../formats/presentation-exchange/format-enforcing-proof-format.service'

/**
 * The credential and proof formats the protocols carry. Protocol handling (v2 issue-credential and
 * present-proof) is format-agnostic, so AnonCreds plugs in later by adding its format services here
 * (and its registries to the agent), without touching the protocol set-up or the admin controllers.
 */
export function credentialFormats() {
  return [new DidCommJsonLdCredentialFormatService()] as [DidCommJsonLdCredentialFormatService]
}

/** Presentation Exchange with the definition's `format` enforced on verification (format-conformance.ts). */
export function proofFormats() {
  return [new FormatEnforcingPresentationExchangeProofFormatService()] as [
    FormatEnforcingPresentationExchangeProofFormatService,
  ]
}
