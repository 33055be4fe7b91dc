/**
 * The CL primary key: n = p*q with safe primes p = 2p'+1, q = 2q'+1; S a generator of the quadratic residues;
 * Z, Rctxt and one R per attribute all powers of S with secret exponents; and the key correctness proof that
 * those exponents exist (Fiat-Shamir over Z, the R's and their commitments).
 */
import { createHash } from 'node:crypto'
import { BoundedMap } from '@idplane/common'
import {
  bigintToBytes,
  generateSafePrimes,
  hashToBigint,
  modInverse,
  modPow,
  randomBelow,
  MathError,
  crtModulus,
  modPowCrt,
  randomQuadraticResidue,
  type CrtModulus,
} from '../math'
import { LARGE_PRIME } from './constants'

export interface PrimaryPublicKey {
  n: bigint
  s: bigint
  /** Insertion order is the order of the public JSON. */
  r: Map<string, bigint>
  rctxt: bigint
  z: bigint
}

export interface PrimaryPrivateKey {
  /** p' and q', the halves of the safe primes (what anoncreds-rs stores as p and q). */
  p: bigint
  q: bigint
}

export interface KeyCorrectness {
  c: bigint
  xzCap: bigint
  xrCap: Array<[string, bigint]>
}

/** ursa's gen_x: a random exponent in [2, p'q' - 1). */
function randomExponent(key: PrimaryPrivateKey): bigint {
  return randomBelow(key.p * key.q - 3n) + 2n
}

/** True when s generates the whole group of quadratic residues mod n (order p'q'). */
function generatesQuadraticResidues(s: bigint, key: PrimaryPrivateKey, crt: CrtModulus): boolean {
  return s !== 1n && modPowCrt(s, key.p, crt) !== 1n && modPowCrt(s, key.q, crt) !== 1n
}

/** The CRT form of the key's modulus, for the issuer's own exponentiations. */
export function privateModulus(key: PrimaryPrivateKey): CrtModulus {
  return crtModulus(2n * key.p + 1n, 2n * key.q + 1n)
}

export async function generatePrimaryKey(
  attributeNames: readonly string[],
): Promise<{ publicKey: PrimaryPublicKey; privateKey: PrimaryPrivateKey; correctness: KeyCorrectness }> {
  const [pSafe, qSafe] = await generateSafePrimes(2, LARGE_PRIME)
  const privateKey: PrimaryPrivateKey = { p: pSafe >> 1n, q: qSafe >> 1n }
  const crt = crtModulus(pSafe, qSafe)
  const n = crt.n
  let s = randomQuadraticResidue(n)
  while (!generatesQuadraticResidues(s, privateKey, crt)) s = randomQuadraticResidue(n)

  const xz = randomExponent(privateKey)
  const xr = new Map<string, bigint>()
  for (const name of attributeNames) xr.set(name, randomExponent(privateKey))
  const r = new Map<string, bigint>()
  for (const [name, x] of xr) r.set(name, modPowCrt(s, x, crt))
  const z = modPowCrt(s, xz, crt)
  const rctxt = modPowCrt(s, randomExponent(privateKey), crt)
  const publicKey: PrimaryPublicKey = { n, s, r, rctxt, z }
  return { publicKey, privateKey, correctness: proveKeyCorrectness(publicKey, privateKey, crt, xz, xr) }
}

function keyCorrectnessChallenge(z: bigint, rValues: bigint[], zCap: bigint, rCaps: bigint[]): bigint {
  return hashToBigint([z, ...rValues, zCap, ...rCaps].map(bigintToBytes))
}

function proveKeyCorrectness(
  publicKey: PrimaryPublicKey,
  privateKey: PrimaryPrivateKey,
  crt: CrtModulus,
  xz: bigint,
  xr: Map<string, bigint>,
): KeyCorrectness {
  const { s } = publicKey
  const names = [...publicKey.r.keys()]
  const xzTilde = randomExponent(privateKey)
  const xrTilde = names.map(() => randomExponent(privateKey))
  const zTilde = modPowCrt(s, xzTilde, crt)
  const rTilde = xrTilde.map((x) => modPowCrt(s, x, crt))
  const c = keyCorrectnessChallenge(
    publicKey.z,
    names.map((name) => entry(publicKey.r, name)),
    zTilde,
    rTilde,
  )
  return {
    c,
    xzCap: c * xz + xzTilde,
    xrCap: names.map((name, i) => [name, c * entry(xr, name) + xrTilde[i]]),
  }
}

/** Digests of (key, proof) pairs that verified; see verifyKeyCorrectness. */
const verifiedKeys = new BoundedMap<string, true>(256)

/**
 * Checks the issuer's key correctness proof. Every R of the key must be covered except master_secret, which
 * proofs made by old Indy issuers left out (anoncreds-rs accepts that too); an extra name is refused.
 *
 * A holder checks it on every credential request, with the same key and proof for every credential of one
 * definition, and it is most of a request's CPU (2 exponentiations per attribute, about 16 ms for 2 attributes).
 * The answer depends only on what is digested here, so a pair that verified once is remembered (the 256 most
 * recently used); a pair that failed is checked again each time.
 */
export function verifyKeyCorrectness(publicKey: PrimaryPublicKey, proof: KeyCorrectness): boolean {
  const digest = keyCorrectnessDigest(publicKey, proof)
  if (verifiedKeys.get(digest)) return true
  const verified = checkKeyCorrectness(publicKey, proof)
  if (verified) verifiedKeys.set(digest, true)
  return verified
}

/** Every input of checkKeyCorrectness, each value with its name and in order, hashed. */
function keyCorrectnessDigest(publicKey: PrimaryPublicKey, proof: KeyCorrectness): string {
  const hash = createHash('sha256')
  for (const value of [publicKey.n, publicKey.s, publicKey.z, proof.c, proof.xzCap])
    hash.update(`${value.toString(16)};`)
  for (const [name, value] of publicKey.r) hash.update(`r:${name.length}:${name}=${value.toString(16)};`)
  for (const [name, value] of proof.xrCap) hash.update(`x:${name.length}:${name}=${value.toString(16)};`)
  return hash.digest('base64')
}

function checkKeyCorrectness(publicKey: PrimaryPublicKey, proof: KeyCorrectness): boolean {
  const { n, s, z } = publicKey
  const covered = new Set(proof.xrCap.map(([name]) => name))
  if (covered.size !== proof.xrCap.length) return false
  for (const name of publicKey.r.keys()) if (!covered.has(name) && name !== 'master_secret') return false
  for (const name of covered) if (!publicKey.r.has(name)) return false
  try {
    const zCap = (modPow(modInverse(z, n), proof.c, n) * modPow(s, proof.xzCap, n)) % n
    const rValues = proof.xrCap.map(([name]) => entry(publicKey.r, name))
    const rCaps = proof.xrCap.map(
      ([, xrCap], i) => (modPow(modInverse(rValues[i], n), proof.c, n) * modPow(s, xrCap, n)) % n,
    )
    return keyCorrectnessChallenge(z, rValues, zCap, rCaps) === proof.c
  } catch (error) {
    // A value sharing a factor with n has no inverse: not a key anyone could prove.
    if (error instanceof MathError) return false
    throw error
  }
}

/** The value under `name`, or a MathError (callers check names first; this keeps the types honest). */
export function entry<T>(map: ReadonlyMap<string, T>, name: string): T {
  const value = map.get(name)
  if (value === undefined) throw new MathError(`no value for '${name}'`)
  return value
}
