import { AnonCredsDidCommCredentialFormatService, AnonCredsDidCommProofFormatService } from '@credo-ts/anoncreds'

import { ReasonGivingLegacyIndyProofFormatService } from '../formats/anoncreds/reason-giving-proof-formats'
import { RevocableLegacyIndyCredentialFormatService } from '../formats/anoncreds/revocable-indy-credential-format.service'
import { IdplaneJsonLdCredentialFormatService } from '../formats/jsonld/idplane-jsonld-credential-format.service'
import { FormatEnforcingPresentationExchangeProofFormatService } from '../formats/presentation-exchange/format-enforcing-proof-format.service'

/**
 * The credential and proof formats the v2 protocols carry: W3C JSON-LD / DIF Presentation Exchange (with the
 * definition's `format` enforced on verification, format-conformance.ts), and AnonCreds in its `anoncreds` and
 * `indy` attachment formats (Credo's format services over our AnonCreds services, agent/src/formats/anoncreds;
 * `indy` issuing into revocation registries as `anoncreds` does; why an AnonCreds presentation fails is on the record:
 * reason-giving-proof-formats.ts). The v1 protocols carry `indy` only (their wire format).
 */
export function credentialFormats() {
  return [
    new IdplaneJsonLdCredentialFormatService(),
    new AnonCredsDidCommCredentialFormatService(),
    new RevocableLegacyIndyCredentialFormatService(),
  ] as [
    IdplaneJsonLdCredentialFormatService,
    AnonCredsDidCommCredentialFormatService,
    RevocableLegacyIndyCredentialFormatService,
  ]
}

export function proofFormats() {
  return [
    new FormatEnforcingPresentationExchangeProofFormatService(),
    new AnonCredsDidCommProofFormatService(),
    new ReasonGivingLegacyIndyProofFormatService(),
  ] as [
    FormatEnforcingPresentationExchangeProofFormatService,
    AnonCredsDidCommProofFormatService,
    ReasonGivingLegacyIndyProofFormatService,
  ]
}

export function indyCredentialFormat() {
  return new RevocableLegacyIndyCredentialFormatService()
}

export function indyProofFormat() {
  return new ReasonGivingLegacyIndyProofFormatService()
}
