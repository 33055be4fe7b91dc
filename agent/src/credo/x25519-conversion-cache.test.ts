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
})
