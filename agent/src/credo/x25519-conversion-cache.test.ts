import { Kms, TypedArrayEncoder } from '@credo-ts/core'
import sodium from 'libsodium-wrappers'

import { cacheX25519Conversions } from './x25519-conversion-cache'

describe('cacheX25519Conversions', () => {
  it('answers as the conversion itself, with a copy per call', async () => {
    await sodium.ready
    cacheX25519Conversions()
    cacheX25519Conversions() // installing twice changes nothing
    const { publicKey } = sodium.crypto_sign_keypair()
    const ed25519 = Kms.Ed25519PublicJwk.fromPublicKey(publicKey)
    const first = ed25519.toX25519PublicJwk()
    const second = Kms.Ed25519PublicJwk.fromPublicKey(publicKey).toX25519PublicJwk()
    expect(second).toEqual(first)
    expect(second).not.toBe(first)
    // libsodium's conversion, an implementation independent of Credo's
    const expected = TypedArrayEncoder.toBase64URL(sodium.crypto_sign_ed25519_pk_to_curve25519(publicKey))
    expect(first).toEqual({ kty: 'OKP', crv: 'X25519', x: expected })
    first.x = 'changed'
    expect(ed25519.toX25519PublicJwk().x).toBe(expected)
  })

  it("converts new keys as the birational map gives (Credo's conversion computes it), and leaves a key libsodium refuses to Credo", async () => {
    await sodium.ready
    cacheX25519Conversions()
    const credoConversion = (publicKey: Uint8Array) => Kms.X25519PublicJwk.fromPublicKey(montgomeryU(publicKey)).jwk
    for (let key = 0; key < 50; key++) {
      const { publicKey } = sodium.crypto_sign_keypair()
      expect(Kms.Ed25519PublicJwk.fromPublicKey(publicKey).toX25519PublicJwk()).toEqual(credoConversion(publicKey))
    }
    // A y coordinate with no point on the curve: libsodium refuses it, Credo converts it anyway.
    const notAPoint = new Uint8Array(32).fill(0xff)
    notAPoint[31] = 0x7f
    expect(() => sodium.crypto_sign_ed25519_pk_to_curve25519(notAPoint)).toThrow()
    expect(Kms.Ed25519PublicJwk.fromPublicKey(notAPoint).toX25519PublicJwk()).toEqual(credoConversion(notAPoint))
  })
})

/** The Montgomery u of an Edwards y, u = (1 + y) / (1 - y) mod 2^255 - 19, as Credo's conversion computes it. */
function montgomeryU(publicKey: Uint8Array): Uint8Array {
  const p = 2n ** 255n - 19n
  const bytes = Uint8Array.from(publicKey)
  bytes[31] &= 0x7f
  const y = BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`)
  const power = (base: bigint, exponent: bigint): bigint => {
    let result = 1n
    for (let b = ((base % p) + p) % p, e = exponent; e > 0n; e >>= 1n, b = (b * b) % p)
      if (e & 1n) result = (result * b) % p
    return result
  }
  const u = ((1n + y) * power(1n - y, p - 2n)) % p
  return Uint8Array.from(Buffer.from(u.toString(16).padStart(64, '0'), 'hex').reverse())
}
