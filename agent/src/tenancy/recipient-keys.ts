import { JsonEncoder, Kms, TypedArrayEncoder } from '@credo-ts/core'
import { isValidJweStructure } from '@credo-ts/didcomm'

/**
 * The fingerprints of the recipient keys named in a DIDComm v1 envelope (`recipients[].header.kid`, base58 Ed25519
 * public keys, in the protected header). Anything else, or an envelope that does not parse, names none.
 */
export function recipientKeyFingerprints(message: unknown): string[] {
  if (!isValidJweStructure(message)) return []
  let header: unknown
  try {
    header = JsonEncoder.fromBase64(message.protected)
  } catch {
    return []
  }
  const recipients = (header as { recipients?: unknown } | null)?.recipients
  if (!Array.isArray(recipients)) return []
  const fingerprints: string[] = []
  for (const recipient of recipients) {
    const kid = (recipient as { header?: { kid?: unknown } } | null)?.header?.kid
    if (typeof kid !== 'string') continue
    try {
      const publicKey = TypedArrayEncoder.fromBase58(kid)
      fingerprints.push(Kms.PublicJwk.fromPublicKey({ kty: 'OKP', crv: 'Ed25519', publicKey }).fingerprint)
    } catch {
      // not a base58 Ed25519 key: it cannot be one of ours
    }
  }
  return fingerprints
}
