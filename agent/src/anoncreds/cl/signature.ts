/**
 * The CL signature on a credential: A = (Z / (U * S^v'' * Rctxt^m2 * prod R_i^m_i))^(1/e) mod n, with the
 * issuer's signature correctness proof (knowledge of 1/e, Fiat-Shamir over Q, A, A^r and the request's nonce),
 * and the holder's side: v = v' + v'' and the full check of A against the known attributes and link secret.
 */
import { createHash } from 'node:crypto'

import {
  bigintFromBytes,
  bigintToBytes,
  gcd,
  hashToBigint,
  isProbablePrime,
  modInverse,
  modPowCrt,
  modPow,
  modPowConstantTime,
  modPowFixedBase,
  modPowSecret,
  mod,
  randomBelow,
  randomBits,
  MathError,
} from '../math'
import { LARGE_VPRIME_PRIME } from './constants'
import { entry, privateModulus, type PrimaryPrivateKey, type PrimaryPublicKey } from './primary-key'
import { signaturePrimes } from './signature-primes'

export interface PrimarySignature {
  m2: bigint
  a: bigint
  e: bigint
  v: bigint
}

export interface SignatureCorrectness {
  se: bigint
  c: bigint
}

/**
 * The credential context m2 that binds a credential to its request: SHA-256 over the byte encodings of the
 * entropy (prover DID) and the revocation index (-1 without revocation), each hashed and read little-endian.
 */
export function credentialContext(entropy: string, revocationIndex = -1): bigint {
  return hashToBigint([
    bigintToBytes(littleEndianHash(entropy)),
    bigintToBytes(littleEndianHash(String(revocationIndex))),
  ])
}

function littleEndianHash(text: string): bigint {
  return bigintFromBytes(createHash('sha256').update(text, 'utf8').digest().reverse())
}

function signatureChallenge(q: bigint, a: bigint, aCap: bigint, nonce: bigint): bigint {
  return hashToBigint([q, a, aCap, nonce].map(bigintToBytes))
}

/**
 * R_x = S^v * Rctxt^m2 * prod R_i^m_i mod n over the given attribute values (hidden ones included); `power`
 * is modPow, or the issuer's CRT exponentiation.
 */
function attributeProduct(
  publicKey: PrimaryPublicKey,
  v: bigint,
  m2: bigint,
  values: Map<string, bigint>,
  power: (base: bigint, exponent: bigint) => bigint,
  blindedU?: bigint,
): bigint {
  const { n } = publicKey
  let rx = (power(publicKey.s, v) * power(publicKey.rctxt, m2)) % n
  if (blindedU !== undefined && blindedU !== 0n) rx = (rx * blindedU) % n
  for (const [name, value] of values) rx = (rx * power(entry(publicKey.r, name), value)) % n
  return rx
}

export function signPrimary(
  publicKey: PrimaryPublicKey,
  privateKey: PrimaryPrivateKey,
  blindedU: bigint,
  m2: bigint,
  knownValues: Map<string, bigint>,
  requestNonce: bigint,
): { signature: PrimarySignature; correctness: SignatureCorrectness } {
  const { n } = publicKey
  const crt = privateModulus(privateKey)
  // The exponents here are the credential's own values (the holder receives them): CRT, not constant-time.
  const power = (base: bigint, exponent: bigint) => modPowCrt(base, exponent, crt)
  const order = privateKey.p * privateKey.q
  // lcm(p - 1, q - 1) of the safe primes: exponent pairs modulo it are RSA key pairs (modPowSecret).
  const lambda = 2n * order
  const v = randomBits(LARGE_VPRIME_PRIME) | (1n << BigInt(LARGE_VPRIME_PRIME - 1))
  const e = signaturePrimes.take()
  const rx = attributeProduct(publicKey, v, m2, knownValues, power, blindedU)
  // q carries the holder's U: the two powers of it below have secret exponents (1/e, or the nonce r, would each
  // give away p'q' and so the key), so they run in constant time, blinded.
  const q = (publicKey.z * modInverse(rx, n)) % n
  const eInverse = modInverse(e, lambda)
  const a = modPowSecret(q, eInverse, e, crt)

  const r = randomUnit(lambda)
  const aCap = modPowSecret(q, r, modInverse(r, lambda), crt)
  const c = signatureChallenge(q, a, aCap, requestNonce)
  const se = mod(r - c * eInverse, order)
  return { signature: { m2, a, e, v }, correctness: { se, c } }
}

/** A uniform random unit modulo `lambda` = 2p'q': odd, and (all but certainly) prime to p' and q'. */
function randomUnit(lambda: bigint): bigint {
  for (;;) {
    const candidate = randomBelow(lambda) | 1n
    if (gcd(candidate, lambda) === 1n) return candidate
  }
}

/**
 * The holder's check after unblinding: e is prime, A^e = Z / R_x over every attribute plus the link secret,
 * and the correctness proof's challenge recomputes. `values` must hold a value for every R of the key.
 */
export function verifyPrimarySignature(
  publicKey: PrimaryPublicKey,
  signature: PrimarySignature,
  correctness: SignatureCorrectness,
  values: Map<string, bigint>,
  requestNonce: bigint,
): boolean {
  const { n } = publicKey
  if (values.size !== publicKey.r.size) return false
  for (const name of publicKey.r.keys()) if (!values.has(name)) return false
  if (signature.a <= 1n || signature.a >= n) return false
  if (!isProbablePrime(signature.e)) return false
  try {
    // The key's bases recur for every credential of the definition (S with v's 2,700 bits).
    const rx = attributeProduct(publicKey, signature.v, signature.m2, values, (base, exponent) =>
      modPowFixedBase(base, exponent, n),
    )
    const q = (publicKey.z * modInverse(rx, n)) % n
    // e identifies the credential (a verifier learning it could link its presentations): raised in constant time.
    if (modPowConstantTime(signature.a, signature.e, n) !== q) return false
    // A^(c + se*e) = A^c * (A^e)^se = A^c * q^se: two exponentiations narrower than the modulus instead of one
    // of 2,600 bits, which modPow would split in three.
    const aCap = (modPow(signature.a, correctness.c, n) * modPow(q, correctness.se, n)) % n
    return signatureChallenge(q, signature.a, aCap, requestNonce) === correctness.c
  } catch (error) {
    // Only crafted values lack an inverse: such input does not verify.
    if (error instanceof MathError) return false
    throw error
  }
}
