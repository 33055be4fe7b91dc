import {
  AnonCredsDidCommCredentialFormatService,
  AnonCredsDidCommProofFormatService,
  LegacyIndyDidCommCredentialFormatService,
  LegacyIndyDidCommProofFormatService,
} from '@credo-ts/anoncreds'
import {
  DidCommDifPresentationExchangeProofFormatService,
  DidCommJsonLdCredentialFormatService,
} from '@credo-ts/didcomm'

/**
 * The credential and proof formats the v2 protocols carry: W3C JSON-LD / DIF Presentation Exchange, and
 * AnonCreds in its `anoncreds` and `indy` attachment formats (Credo's format services over our AnonCreds
 * services, agent/src/formats/anoncreds). The v1 protocols carry `indy` only (their wire format).
 */
export function credentialFormats() {
  return [
    new DidCommJsonLdCredentialFormatService(),
    new AnonCredsDidCommCredentialFormatService(),
    new LegacyIndyDidCommCredentialFormatService(),
  ] as [
    DidCommJsonLdCredentialFormatService,
    AnonCredsDidCommCredentialFormatService,
    LegacyIndyDidCommCredentialFormatService,
  ]
}

export function proofFormats() {
  return [
    new DidCommDifPresentationExchangeProofFormatService(),
    new AnonCredsDidCommProofFormatService(),
    new LegacyIndyDidCommProofFormatService(),
  ] as [
    DidCommDifPresentationExchangeProofFormatService,
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
