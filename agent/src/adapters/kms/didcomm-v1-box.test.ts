import { createRequire } from 'node:module'

import sodium from 'libsodium-wrappers'

import {
  openAnonymous,
  openAuthenticated,
  randomNonce,
  sealAnonymous,
  sealAuthenticated,
  sodiumReady,
  x25519FromEd25519Seed,
  type X25519KeyPair,
} from './didcomm-v1-box'

// The libsodium module libsodium-wrappers draws its randomness through.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by path, as the module under test does
const libsodium = require(createRequire(require.resolve('libsodium-wrappers')).resolve('libsodium')) as {
  getRandomValue: (() => number) & Record<symbol, unknown>
}

describe('libsodium randomness drawn in bulk', () => {
  beforeAll(() => sodiumReady())

  it('serves libsodium from a buffer of Node randomness, each word once', () => {
    expect(libsodium.getRandomValue[Symbol.for('idplane.libsodiumBulkRandomness')]).toBe(true)
    const words = Array.from({ length: 3000 }, () => libsodium.getRandomValue())
    // Across refills (1,024 words each), no word repeats (a repeat among 3,000 random 32-bit words: p < 0.001).
    expect(new Set(words).size).toBe(words.length)
    expect(words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffffffff)).toBe(true)
  })

  it('gives nonces and sealed boxes that differ every time and still open', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => Buffer.from(randomNonce()).toString('hex')))
    expect(nonces.size).toBe(200)
    const recipient = x25519FromEd25519Seed(new Uint8Array(32).fill(7))
    const message = new TextEncoder().encode('a DIDComm v1 content key')
    const first = sealAnonymous(message, recipient.publicKey)
    const second = sealAnonymous(message, recipient.publicKey)
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false)
    expect(new TextDecoder().decode(openAnonymous(second, recipient))).toBe('a DIDComm v1 content key')
  })

  it('spreads the bytes libsodium keeps over every value', () => {
    const bytes = sodium.randombytes_buf(65_536)
    const counts = new Array<number>(256).fill(0)
    for (const byte of bytes) counts[byte] += 1
    // 256 expected per value; a chi-square bound far beyond chance (p < 1e-9 for 255 degrees of freedom).
    const chiSquare = counts.reduce((sum, count) => sum + (count - 256) ** 2 / 256, 0)
    expect(chiSquare).toBeLessThan(420)
  })
})

describe('authcrypt with the derived key kept per pair', () => {
  let alice: X25519KeyPair
  let bob: X25519KeyPair
  let carol: X25519KeyPair
  beforeAll(async () => {
    await sodiumReady()
    ;[alice, bob, carol] = [1, 2, 3].map((fill) => x25519FromEd25519Seed(new Uint8Array(32).fill(fill)))
  })

  const message = new TextEncoder().encode('a DIDComm v1 content key')

  it("gives libsodium's own crypto_box, every time, and opens what libsodium boxed", () => {
    for (let round = 0; round < 3; round++) {
      const nonce = randomNonce()
      const sealed = sealAuthenticated(message, nonce, bob.publicKey, alice)
      expect(Buffer.from(sealed)).toEqual(
        Buffer.from(sodium.crypto_box_easy(message, nonce, bob.publicKey, alice.privateKey)),
      )
      expect(Buffer.from(openAuthenticated(sealed, nonce, alice.publicKey, bob))).toEqual(Buffer.from(message))
      const fromLibsodium = sodium.crypto_box_easy(message, nonce, alice.publicKey, bob.privateKey)
      expect(Buffer.from(openAuthenticated(fromLibsodium, nonce, bob.publicKey, alice))).toEqual(Buffer.from(message))
    }
  })

  it('keeps pairs apart: a box for one pair opens for no other', () => {
    const nonce = randomNonce()
    const toBob = sealAuthenticated(message, nonce, bob.publicKey, alice)
    const toCarol = sealAuthenticated(message, nonce, carol.publicKey, alice)
    expect(Buffer.from(toBob)).not.toEqual(Buffer.from(toCarol))
    expect(() => openAuthenticated(toBob, nonce, alice.publicKey, carol)).toThrow()
    expect(() => openAuthenticated(toBob, nonce, carol.publicKey, bob)).toThrow()
    expect(Buffer.from(openAuthenticated(toCarol, nonce, alice.publicKey, carol))).toEqual(Buffer.from(message))
  })
})
