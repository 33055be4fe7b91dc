import { generateKeyPairSync, type KeyObject } from 'node:crypto'

import { Kms } from '@credo-ts/core'

import { rememberFingerprints } from './fingerprint-memo'

/** Credo's class as shipped, and a prototype inheriting from it that carries the memo: the same keys through both. */
const rememberingPrototype = Object.create(Kms.PublicJwk.prototype) as object
rememberFingerprints(rememberingPrototype)

function publicJwk(type: 'ed25519' | 'x25519' | 'ec' | 'rsa'): Record<string, unknown> {
  const options = type === 'ec' ? { namedCurve: 'P-256' } : type === 'rsa' ? { modulusLength: 2048 } : {}
  const { publicKey } = generateKeyPairSync(type as 'ed25519', options as never) as unknown as { publicKey: KeyObject }
  return publicKey.export({ format: 'jwk' }) as Record<string, unknown>
}

function both(jwk: Record<string, unknown>) {
  const stock = Kms.PublicJwk.fromUnknown(jwk)
  // The same typed key inside the subclass: the memo reads `this.jwk` as Credo's getter does.
  const remembering = Object.setPrototypeOf(Kms.PublicJwk.fromUnknown(jwk), rememberingPrototype) as Kms.PublicJwk
  return { stock, remembering }
}

describe('rememberFingerprints', () => {
  it.each(['ed25519', 'x25519', 'ec'] as const)('gives the fingerprint Credo gives, every time (%s)', (type) => {
    const jwk = publicJwk(type)
    const { stock, remembering } = both(jwk)
    for (let round = 0; round < 3; round++) expect(remembering.fingerprint).toBe(stock.fingerprint)
    expect(stock.fingerprint).toMatch(/^z/)
  })

  it('refuses as Credo does where Credo has no fingerprint (RSA), every time', () => {
    const { stock, remembering } = both(publicJwk('rsa'))
    expect(() => stock.fingerprint).toThrow(/multicodec not supported/)
    for (let round = 0; round < 2; round++) expect(() => remembering.fingerprint).toThrow(/multicodec not supported/)
  })

  it("keeps each key's own fingerprint: another key of the same type, or the same bytes as another type, differ", () => {
    const first = both(publicJwk('ed25519'))
    const second = both(publicJwk('ed25519'))
    expect(first.remembering.fingerprint).toBe(first.stock.fingerprint)
    expect(second.remembering.fingerprint).toBe(second.stock.fingerprint)
    expect(second.remembering.fingerprint).not.toBe(first.remembering.fingerprint)
    // An X25519 key with the Ed25519 key's bytes: same material, another type, another multicodec prefix.
    const ed = publicJwk('ed25519')
    const x = both({ ...ed, crv: 'X25519' })
    const e = both(ed)
    expect(e.remembering.fingerprint).toBe(e.stock.fingerprint)
    expect(x.remembering.fingerprint).toBe(x.stock.fingerprint)
    expect(x.remembering.fingerprint).not.toBe(e.remembering.fingerprint)
  })

  it("computes a key's fingerprint once", () => {
    const jwk = publicJwk('ed25519')
    const { remembering } = both(jwk)
    const expected = remembering.fingerprint
    // A new instance of the same key whose key bytes can no longer be read: answered from what was kept.
    const again = both(jwk).remembering as unknown as { jwk: object; fingerprint: string }
    Object.defineProperty(again.jwk, 'multicodec', {
      get: () => {
        throw new Error('computed again')
      },
    })
    expect(again.fingerprint).toBe(expected)
  })

  it('is installed once', () => {
    const getter = Object.getOwnPropertyDescriptor(rememberingPrototype, 'fingerprint')?.get
    rememberFingerprints(rememberingPrototype)
    expect(Object.getOwnPropertyDescriptor(rememberingPrototype, 'fingerprint')?.get).toBe(getter)
  })
})
