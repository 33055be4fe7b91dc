/**
 * Big-integer primitives for the CL signatures behind AnonCreds. Values are native `bigint`s; every random
 * number comes from `crypto.randomBytes`, primes from OpenSSL (`crypto.generatePrime`/`checkPrime`).
 *
 * Modular exponentiation is the hot spot (2048-bit modulus, exponents of 600 to 3000 bits), done by OpenSSL in one of
 * three ways (docs/benchmarks.md, "AnonCreds"; square-and-multiply on JS BigInt is 6-8x slower, GMP compiled to WASM
 * 4-6x): modPow, for public exponents, poses the exponent as an RSA public exponent (`publicEncrypt` without
 * padding: OpenSSL's sliding window, the fastest below the modulus's width); modPowConstantTime and modPowFixedBase,
 * for the holder's secret exponents, raise through a Diffie-Hellman object kept per modulus (constant time, and
 * faster than splitting an exponent wider than the modulus, so modPow uses it for those too); modPowSecret, for the
 * issuer's secret exponents, is an RSA private operation of a key made of the issuer's primes (constant time,
 * blinded).
 */
import {
  checkPrime,
  checkPrimeSync,
  constants,
  createDiffieHellman,
  createHash,
  createPrivateKey,
  createPublicKey,
  generatePrime,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  type DiffieHellman,
} from 'node:crypto'
import { Worker } from 'node:worker_threads'

import { BoundedMap } from '@idplane/common'

export class MathError extends Error {
  public constructor(message: string) {
    super(message)
    this.name = 'MathError'
  }
}

/** a mod m, always in [0, m). */
export function mod(a: bigint, m: bigint): bigint {
  const r = a % m
  return r < 0n ? r + m : r
}

export function bitLength(a: bigint): number {
  if (a < 0n) a = -a
  return a === 0n ? 0 : a.toString(2).length
}

export function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a
  b = b < 0n ? -b : b
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

/** a^-1 mod m (extended Euclid); throws MathError when a and m share a factor. */
export function modInverse(a: bigint, m: bigint): bigint {
  if (m <= 0n) throw new MathError('modulus must be positive')
  let [oldR, r] = [mod(a, m), m]
  let [oldS, s] = [1n, 0n]
  while (r !== 0n) {
    const q = oldR / r
    ;[oldR, r] = [r, oldR - q * r]
    ;[oldS, s] = [s, oldS - q * s]
  }
  if (oldR !== 1n) throw new MathError('value is not invertible modulo m')
  return mod(oldS, m)
}

// Below this exponent size the cost of building an OpenSSL key exceeds the BigInt loop.
const NATIVE_MIN_EXPONENT_BITS = 16

/** base^exponent mod modulus; a negative exponent means the inverse's power. */
export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (modulus <= 0n) throw new MathError('modulus must be positive')
  if (modulus === 1n) return 0n
  if (exponent < 0n) return modPow(modInverse(base, modulus), -exponent, modulus)
  const b = mod(base, modulus)
  if (exponent === 0n) return 1n
  if (b === 0n) return 0n
  if (b === 1n) return 1n
  if ((modulus & 1n) === 0n || bitLength(exponent) < NATIVE_MIN_EXPONENT_BITS) return modPowJs(b, exponent, modulus)
  return modPowOpenSsl(b, exponent, modulus)
}

/** Plain square-and-multiply; used for small exponents, even moduli and as the reference in tests. */
export function modPowJs(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n
  let b = mod(base, modulus)
  let e = exponent
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus
    b = (b * b) % modulus
    e >>= 1n
  }
  return result
}

function modPowOpenSsl(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (exponent >= modulus) {
    // Faster than the split below (one exponentiation, the Montgomery context kept), and the same result.
    if (bitLength(modulus) >= DH_MIN_MODULUS_BITS) return modPowConstantTime(base, exponent, modulus)
    // Split in halves: b^(h*2^k + l) = (b^(2^k))^h * b^l, three exponentiations of k bits each.
    const k = Math.ceil(bitLength(exponent) / 2)
    const high = exponent >> BigInt(k)
    const low = exponent & ((1n << BigInt(k)) - 1n)
    const lifted = modPow(base, 1n << BigInt(k), modulus)
    const highPart = modPow(lifted, high, modulus)
    return low === 0n ? highPart : (highPart * modPow(base, low, modulus)) % modulus
  }
  return rsaPublicOp(base, exponent, modulus)
}

/** Per modulus and base: the base's inverse, computed on first use (a credential definition's key's Z and S). */
const fixedInverses = new BoundedMap<string, bigint>(256)

/** base^-1 mod modulus, remembered for a base that recurs (a key's Z); throws MathError like modInverse. */
export function fixedBaseInverse(base: bigint, modulus: bigint): bigint {
  const key = `${modulus.toString(32)}:${mod(base, modulus).toString(32)}`
  let inverse = fixedInverses.get(key)
  if (inverse === undefined) {
    inverse = modInverse(base, modulus)
    fixedInverses.set(key, inverse)
  }
  return inverse
}

/**
 * modPowConstantTime for a base that recurs (a credential definition's key: S, Z, R_i, Rctxt), whose inverse is
 * remembered. An exponent that may be 0 (a predicate's four squares) is raised by one more and the result divided by
 * the base, so a 0 takes the same path as any other value.
 */
export function modPowFixedBase(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (exponent < 0n) return modPowConstantTime(fixedBaseInverse(base, modulus), -exponent, modulus)
  const b = mod(base, modulus)
  // 0, 1 and modulus - 1 have no inverse to divide by, or need none (modPowConstantTime answers them itself).
  if (b <= 1n || b === modulus - 1n) return modPowConstantTime(b, exponent, modulus)
  return (modPowConstantTime(b, exponent + 1n, modulus) * fixedBaseInverse(b, modulus)) % modulus
}

/** modPow for a public exponent of a base that recurs (a verifier's responses), its inverse remembered. */
export function modPowPublicFixedBase(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (exponent < 0n) return modPow(fixedBaseInverse(base, modulus), -exponent, modulus)
  return modPow(base, exponent, modulus)
}

/** One Diffie-Hellman object per modulus in use (about 2 KB with OpenSSL's numbers and Montgomery context). */
const constantTimePowers = new BoundedMap<bigint, DiffieHellman>(64)
/** OpenSSL's Diffie-Hellman takes moduli of 512 bits and more (the CL modulus has 2,048). */
const DH_MIN_MODULUS_BITS = 512
/** Left in a Diffie-Hellman object between uses instead of the last exponent (a secret, often). */
const CLEARED_EXPONENT = Buffer.from([1])

/**
 * base^exponent mod modulus (exponent >= 0) **in constant time**, for the holder's secret exponents (the link secret,
 * the attributes a proof hides, the blinding values), whose modulus's factors it does not know (the issuer, who
 * knows them, has modPowSecret). OpenSSL's Diffie-Hellman computes a shared secret, the peer's public key raised to
 * its private key, with `BN_mod_exp_mont_consttime`: with the modulus as the group's "prime", the base as the peer's
 * key and the exponent as the private key, neither the time taken nor the memory touched depends on the exponent's
 * bits (only on its count of 64-bit words). The object is kept per modulus with its Montgomery context, so a call
 * costs no key parsing, and it takes exponents of any width: 8-18 % slower than modPow's RSA operation below the
 * modulus's width, faster above it (docs/benchmarks.md, "AnonCreds: the holder's powers in constant time"). A new
 * modulus costs about 2 ms once (Node checks the "prime", a composite here, which only sets the object's
 * `verifyError`). A base of 0, 1 or modulus - 1 (which OpenSSL refuses as a peer key, and which are nobody's secret)
 * is answered directly; moduli under 512 bits go to modPow. The modulus is checked once, when its object is made.
 */
export function modPowConstantTime(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (exponent < 0n) throw new MathError('constant-time power: negative exponent')
  // OpenSSL refuses a private key of 0; its power is 1 whatever the base (modPowFixedBase never asks for it).
  if (exponent === 0n) return 1n % modulus
  const b = mod(base, modulus)
  // Bases OpenSSL refuses as a peer key, answered here (not by modPow, which comes back here for wide exponents).
  if (b <= 1n) return b
  if (b === modulus - 1n) return exponent % 2n === 0n ? 1n : b
  let power = constantTimePowers.get(modulus)
  if (!power) {
    if ((modulus & 1n) === 0n || bitLength(modulus) < DH_MIN_MODULUS_BITS) return modPow(b, exponent, modulus)
    power = createDiffieHellman(bigintToBytes(modulus), Buffer.from([2]))
    constantTimePowers.set(modulus, power)
  }
  try {
    power.setPrivateKey(bigintToBytes(exponent))
    return bigintFromBytes(power.computeSecret(bigintToBytes(b)))
  } finally {
    power.setPrivateKey(CLEARED_EXPONENT)
  }
}

/**
 * The inverses of all `values` mod m with one extended Euclid (Montgomery's trick: invert the product, then peel each
 * value off with multiplications); a verification inverts several proof values, each inversion about 0.4 ms.
 * @throws MathError when any value shares a factor with m
 */
export function modInverseAll(values: readonly bigint[], m: bigint): bigint[] {
  if (values.length === 0) return []
  // prefix[i] = values[0] * ... * values[i] mod m
  const prefix: bigint[] = []
  let product = 1n
  for (const value of values) {
    product = (product * mod(value, m)) % m
    prefix.push(product)
  }
  let inverse = modInverse(product, m)
  const inverses = new Array<bigint>(values.length)
  for (let i = values.length - 1; i > 0; i--) {
    inverses[i] = (inverse * prefix[i - 1]) % m
    inverse = (inverse * mod(values[i], m)) % m
  }
  inverses[0] = inverse
  return inverses
}

/** A modulus n = p*q whose prime factors are known (the issuer's own key): exponentiation by CRT. */
export interface CrtModulus {
  n: bigint
  p: bigint
  q: bigint
  /** q^-1 mod p */
  qInverse: bigint
}

export function crtModulus(p: bigint, q: bigint): CrtModulus {
  return { n: p * q, p, q, qInverse: modInverse(q, p) }
}

/**
 * base^exponent mod n from the two half-size exponentiations mod p and mod q (about 2x faster than modPow
 * on n as measured, per-call costs included). Only the key's owner can use it; results are identical to modPow.
 */
export function modPowCrt(base: bigint, exponent: bigint, modulus: CrtModulus): bigint {
  if (exponent < 0n) return modPowCrt(modInverse(base, modulus.n), -exponent, modulus)
  const { p, q, qInverse } = modulus
  const partial = (prime: bigint) => {
    const b = mod(base, prime)
    if (b === 0n) return exponent === 0n ? 1n : 0n
    // Fermat: exponents reduce modulo prime - 1 when the base is a unit.
    return modPow(b, exponent % (prime - 1n), prime)
  }
  const mp = partial(p)
  const mq = partial(q)
  return mq + q * mod((mp - mq) * qInverse, p)
}

/**
 * base^exponent mod n for a **secret** exponent, as OpenSSL's RSA private operation: the exponent is posed as an
 * RSA private exponent of the key (p, q), `publicExponent` as its public one. OpenSSL exponentiates in constant
 * time and blinds the base, so neither the time taken nor the memory touched depends on the exponent or the base;
 * modPowCrt (the public operation) may leak both, which is fine for public exponents only. (The JavaScript around it,
 * reducing the exponent and encoding the key, still handles the secret in variable time: a far weaker signal than a
 * window table indexed by its bits.) The pair must be an RSA key pair, publicExponent * exponent = 1 mod
 * lcm(p - 1, q - 1): OpenSSL's blinding relies on it (another pair gives a wrong result, which OpenSSL's own check of
 * its result does not mend).
 */
export function modPowSecret(base: bigint, exponent: bigint, publicExponent: bigint, modulus: CrtModulus): bigint {
  const { n, p, q, qInverse } = modulus
  const modulusBytes = bigintToBytes(n)
  // PKCS#1 RSAPrivateKey: version, n, e, d, p, q, d mod (p - 1), d mod (q - 1), q^-1 mod p.
  const rest = [publicExponent, exponent, p, q, exponent % (p - 1n), exponent % (q - 1n), qInverse]
  const fields = [bigintToBytes(0n), modulusBytes, ...rest.map(bigintToBytes)]
  const key = createPrivateKey({
    key: derSequence(fields.map(derInteger)),
    format: 'der',
    type: 'pkcs1',
  })
  const block = bigintToFixedBytes(mod(base, n), modulusBytes.length)
  return bigintFromBytes(privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, block))
}

function rsaPublicOp(base: bigint, exponent: bigint, modulus: bigint): bigint {
  const modulusBytes = bigintToBytes(modulus)
  // DER (PKCS#1 RSAPublicKey) parses about 40x faster than the same key as JWK (0.02 ms against 1 ms).
  const key = createPublicKey({
    key: derSequence([derInteger(modulusBytes), derInteger(bigintToBytes(exponent))]),
    format: 'der',
    type: 'pkcs1',
  })
  const block = bigintToFixedBytes(base, modulusBytes.length)
  return bigintFromBytes(
    // publicEncrypt without padding is exactly block^e mod n.
    publicEncrypt({ key, padding: constants.RSA_NO_PADDING }, block),
  )
}

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length])
  const bytes = bigintToBytes(BigInt(length))
  return Buffer.concat([Buffer.from([0x80 | bytes.length]), bytes])
}

/** A DER INTEGER of a non-negative big-endian magnitude (a 0x00 byte keeps a high first bit positive). */
function derInteger(magnitude: Buffer): Buffer {
  const body = magnitude[0] & 0x80 ? Buffer.concat([Buffer.from([0]), magnitude]) : magnitude
  return Buffer.concat([Buffer.from([0x02]), derLength(body.length), body])
}

function derSequence(items: Buffer[]): Buffer {
  const body = Buffer.concat(items)
  return Buffer.concat([Buffer.from([0x30]), derLength(body.length), body])
}

/** A uniform random integer in [0, 2^bits) (ursa's `BigNumber::rand(bits)`). */
export function randomBits(bits: number): bigint {
  if (!Number.isInteger(bits) || bits <= 0) throw new MathError('bit count must be a positive integer')
  const bytes = randomBytes(Math.ceil(bits / 8))
  const excess = bytes.length * 8 - bits
  return bigintFromBytes(bytes) >> BigInt(excess)
}

/** A uniform random integer in [0, upper) by rejection sampling (ursa's `rand_range`). */
export function randomBelow(upper: bigint): bigint {
  if (upper <= 0n) throw new MathError('upper bound must be positive')
  if (upper === 1n) return 0n
  const bits = bitLength(upper - 1n)
  for (;;) {
    const candidate = randomBits(bits)
    if (candidate < upper) return candidate
  }
}

/** A uniform random integer in [min, max). */
export function randomInRange(min: bigint, max: bigint): bigint {
  if (max <= min) throw new MathError('empty range')
  return min + randomBelow(max - min)
}

/**
 * Values OpenSSL found prime in isProbablePrimeOffLoop, so that the synchronous check that follows (a holder's in
 * processCredential) answers at once. Only primes are kept: the answer is a pure function of the value.
 */
const primesFoundOffLoop = new BoundedMap<bigint, true>(64)

export function isProbablePrime(candidate: bigint): boolean {
  if (candidate < 2n) return false
  if (primesFoundOffLoop.get(candidate)) return true
  return checkPrimeSync(candidate, { checks: 0 })
}

/** OpenSSL's test (the same as checkPrimeSync's) on libuv's thread pool. */
function checkPrimeOnPool(candidate: bigint): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) =>
    checkPrime(candidate, { checks: 0 }, (error, result) => (error ? reject(error) : resolve(result))),
  )
}

/**
 * isProbablePrime off the event loop; a prime is remembered, so isProbablePrime of the same value afterwards costs
 * nothing (a prime's 64 Miller-Rabin rounds are 4-9 ms of CPU at 600 bits).
 */
export async function isProbablePrimeOffLoop(candidate: bigint): Promise<boolean> {
  if (candidate < 2n) return false
  if (primesFoundOffLoop.get(candidate)) return true
  const prime = await checkPrimeOnPool(candidate)
  if (prime) primesFoundOffLoop.set(candidate, true)
  return prime
}

/** A random safe prime p = 2q + 1 of exactly `bits` bits (OpenSSL, asynchronous so the loop stays free). */
export function generateSafePrime(bits: number): Promise<bigint> {
  return new Promise((resolve, reject) => {
    generatePrime(bits, { safe: true, bigint: true }, (error, prime) => (error ? reject(error) : resolve(prime)))
  })
}

// One safe-prime search per worker thread; the code is tiny and has no imports of ours, hence eval.
const SAFE_PRIME_WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { generatePrimeSync } = require('node:crypto')
parentPort.postMessage(generatePrimeSync(workerData.bits, { safe: true, bigint: true }))
`

/**
 * `count` distinct safe primes of `bits` bits, searched by `searches` worker threads at once; the first
 * `count` found win and the other searches are terminated. A search's duration is close to memoryless, so
 * racing three or four searches for two primes cuts the expected wait by about a third on two cores and
 * trims the long tail; terminating the losers (which OpenSSL calls on the libuv pool could not do) leaves no
 * CPU burning afterwards, and the pool stays free for I/O.
 */
export function generateSafePrimes(count: number, bits: number, searches = Math.max(count + 1, 4)): Promise<bigint[]> {
  return new Promise((resolve, reject) => {
    const found: bigint[] = []
    const workers: Worker[] = []
    let settled = false
    const finish = (error?: unknown) => {
      if (settled) return
      settled = true
      for (const worker of workers) void worker.terminate()
      if (error) reject(error instanceof Error ? error : new MathError(String(error)))
      else resolve(found)
    }
    for (let i = 0; i < searches; i++) {
      const worker = new Worker(SAFE_PRIME_WORKER, { eval: true, workerData: { bits } })
      workers.push(worker)
      worker.once('message', (prime: bigint) => {
        if (settled || found.includes(prime)) return
        found.push(prime)
        if (found.length === count) finish()
      })
      worker.once('error', (error) => finish(error))
    }
  })
}

/**
 * A random prime in [2^sizeBits, 2^sizeBits + 2^rangeBits), as ursa's `generate_prime_in_range` (the
 * signature exponent e is one: 2^596 plus at most 119 random bits).
 */
export function generatePrimeInRange(sizeBits: number, rangeBits: number): bigint {
  if (rangeBits < 2 || rangeBits > sizeBits) throw new MathError('invalid prime range')
  const start = 1n << BigInt(sizeBits)
  for (;;) {
    const candidate = start + (randomBits(rangeBits) | 1n)
    if (isProbablePrime(candidate)) return candidate
  }
}

/** The odd primes below 2,000, multiplied into products below 2^52 so each reduces a candidate with one BigInt %. */
const SMALL_PRIME_GROUPS: { product: bigint; primes: number[] }[] = (() => {
  const primes: number[] = []
  for (let n = 3; n < 2000; n += 2) {
    let isPrime = true
    for (const p of primes) {
      if (p * p > n) break
      if (n % p === 0) {
        isPrime = false
        break
      }
    }
    if (isPrime) primes.push(n)
  }
  const groups: { product: bigint; primes: number[] }[] = []
  let group = { product: 1n, primes: [] as number[] }
  for (const p of primes) {
    if (group.product * BigInt(p) >= 1n << 52n) {
      groups.push(group)
      group = { product: 1n, primes: [] }
    }
    group.product *= BigInt(p)
    group.primes.push(p)
  }
  return [...groups, group]
})()

/** True when an odd prime below 2,000 divides `candidate` (which is larger than all of them). */
function hasSmallFactor(candidate: bigint): boolean {
  for (const { product, primes } of SMALL_PRIME_GROUPS) {
    const rest = Number(candidate % product)
    for (const p of primes) if (rest % p === 0) return true
  }
  return false
}

/**
 * generatePrimeInRange with OpenSSL's tests on libuv's thread pool, so the event loop stays free: about 85 % of the
 * candidates are dropped by trial division here first (each test is a round trip to the pool, which costs more than
 * refusing a composite itself). 15-25 % more CPU in all than the synchronous search, about a third of it on the
 * loop's thread (docs/decisions.md, "AnonCreds: the issuer's signature primes found ahead of need").
 */
export async function generatePrimeInRangeOffLoop(sizeBits: number, rangeBits: number): Promise<bigint> {
  if (rangeBits < 2 || rangeBits > sizeBits) throw new MathError('invalid prime range')
  const start = 1n << BigInt(sizeBits)
  for (;;) {
    const candidate = start + (randomBits(rangeBits) | 1n)
    if (start > 2000n && hasSmallFactor(candidate)) continue
    if (await checkPrimeOnPool(candidate)) return candidate
  }
}

/** A random quadratic residue modulo n: r^2 mod n with gcd(r, n) = 1 (ursa's `random_qr`). */
export function randomQuadraticResidue(n: bigint): bigint {
  for (;;) {
    const r = randomBelow(n)
    if (r !== 0n && gcd(r, n) === 1n) return (r * r) % n
  }
}

/**
 * Big-endian minimal bytes of a non-negative integer, as ursa's `to_bytes` feeds its hashes. Zero is one 0x00
 * byte as in num-bigint (the WASM build); OpenSSL's BN_bn2bin (native anoncreds-rs) gives no bytes. No value a
 * CL proof hashes is zero except with negligible probability, so the two never disagree in practice.
 */
export function bigintToBytes(value: bigint): Buffer {
  if (value < 0n) throw new MathError('negative values have no byte encoding here')
  let hex = value.toString(16)
  if (hex.length % 2) hex = '0' + hex
  return Buffer.from(hex, 'hex')
}

/** Big-endian bytes left-padded with zeros to `length`. */
export function bigintToFixedBytes(value: bigint, length: number): Buffer {
  const bytes = bigintToBytes(value)
  if (bytes.length > length) throw new MathError('value does not fit the requested length')
  if (bytes.length === length) return bytes
  return Buffer.concat([Buffer.alloc(length - bytes.length), bytes])
}

export function bigintFromBytes(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n
  return BigInt('0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex'))
}

const DECIMAL = /^-?(0|[1-9][0-9]*)$/

/** Parses a decimal string as anoncreds-rs serializes big numbers; null when it is not one. */
export function parseDecimal(text: unknown, maxDigits = 4096): bigint | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > maxDigits + 1) return null
  if (!DECIMAL.test(text) || text === '-0') return null
  return BigInt(text)
}

export function toDecimal(value: bigint): string {
  return value.toString(10)
}

/**
 * SHA-256 over the concatenation of the byte strings, read as a big-endian integer: ursa's
 * `hash_list_to_bignum`, which the CL proofs use as the Fiat-Shamir challenge (inputs are `to_bytes` of
 * big numbers and the nonce).
 */
export function hashToBigint(chunks: readonly Uint8Array[]): bigint {
  const hash = createHash('sha256')
  for (const chunk of chunks) hash.update(chunk)
  return bigintFromBytes(hash.digest())
}
