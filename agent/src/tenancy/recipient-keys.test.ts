import { JsonEncoder, Kms, TypedArrayEncoder } from '@credo-ts/core'

import { recipientKeyFingerprints } from './recipient-keys'

const publicKey = new Uint8Array(32).fill(7)
const kid = TypedArrayEncoder.toBase58(publicKey)

function envelope(header: unknown) {
  return { protected: JsonEncoder.toBase64(header), iv: 'aXY', ciphertext: 'Y3Q', tag: 'dGFn' }
}

describe('recipientKeyFingerprints', () => {
  it('reads the Ed25519 recipient keys of a DIDComm v1 envelope as fingerprints', () => {
    const expected = Kms.PublicJwk.fromPublicKey({ kty: 'OKP', crv: 'Ed25519', publicKey }).fingerprint
    const header = {
      enc: 'xchacha20poly1305_ietf',
      typ: 'JWM/1.0',
      alg: 'Authcrypt',
      recipients: [{ header: { kid } }],
    }
    expect(recipientKeyFingerprints(envelope(header))).toEqual([expected])
    expect(expected.startsWith('z6Mk')).toBe(true)
  })

  it('names no key for plaintext, a broken header or kids that are not base58 keys', () => {
    expect(recipientKeyFingerprints({ '@type': 'https://didcomm.org/trust_ping/1.0/ping' })).toEqual([])
    expect(recipientKeyFingerprints({ protected: '!!!', iv: 'a', ciphertext: 'b', tag: 'c' })).toEqual([])
    expect(recipientKeyFingerprints(envelope({ recipients: [{ header: { kid: '0OIl' } }, { header: {} }] }))).toEqual(
      [],
    )
    expect(recipientKeyFingerprints(envelope({ recipients: 'none' }))).toEqual([])
  })
})
