import {
  AnonCredsDidCommCredentialFormatService,
  AnonCredsDidCommProofFormatService,
  LegacyIndyDidCommCredentialFormatService,
  LegacyIndyDidCommProofFormatService,
} from '@credo-ts/anoncreds'

import { IdplaneJsonLdCredentialFormatService } from '../formats/jsonld/idplane-jsonld-credential-format.service'
import { FormatEnforcingPresentationExchangeProofFormatService } from '../formats/presentation-exchange/format-enforcing-proof-format.service'

/**
 * The credential and proof formats the v2 protocols carry: W3C JSON-LD / DIF Presentation Exchange (with the
 * definition's `format` enforced on verification, format-conformance.ts), and AnonCreds in its `anoncreds` and
 * `indy` attachment formats (Credo's format services over our AnonCreds services, agent/src/formats/anoncreds).
 * The v1 protocols carry `indy` only (their wire format).
 */
export function credentialFormats() {
  return [
    new IdplaneJsonLdCredentialFormatService(),
    new AnonCredsDidCommCredentialFormatService(),
    new LegacyIndyDidCommCredentialFormatService(),
  ] as [
    IdplaneJsonLdCredentialFormatService,
    AnonCredsDidCommCredentialFormatService,
    LegacyIndyDidCommCredentialFormatService,
  ]
}

export function proofFormats() {
  return [
    new FormatEnforcingPresentationExchangeProofFormatService(),
    new AnonCredsDidCommProofFormatService(),
    new LegacyIndyDidCommProofFormatService(),
  ] as [
    FormatEnforcingPresentationExchangeProofFormatService,
    AnonCredsDidCommProofFormatService,
    LegacyIndyDidCommProofFormatService,
  ]
}

export function indyCredentialFormat() {
  return new LegacyIndyDidCommCredentialFormatService()
}

export function indyProofFormat() {
  return new LegacyIndyDidCommProofFormatService()
}
