import { createRequire } from 'node:module'

import sodium from 'libsodium-wrappers'

import { openAnonymous, randomNonce, sealAnonymous, sodiumReady, x25519FromEd25519Seed } from './didcomm-v1-box'

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
