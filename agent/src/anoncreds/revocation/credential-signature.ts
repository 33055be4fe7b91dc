/**
 * The revocation half of a credential (anoncreds-clsignatures' non-revocation credential): the holder blinds a
 * random vr' as ur = h2^vr' in its request; the issuer signs the credential context m2 and the index i with a
 * BBS-style signature sigma = (h0 + h1 m2 + ur + g_i + h2 vr'')^(1/(x + c)), where g_i = g^(gamma^i), adds the
 * witness signature sigma_i = g'^(1/(sk + gamma^i)), u_i = u^(gamma^i), and the witness of i in the current
 * accumulator; the holder adds vr' to vr'' and checks the three pairing equations clsignatures checks.
 */
import { Fr, gtEquals, gtIsOne, pairingProduct, type G1Point, type G2Point, type Gt } from './bn254'
import {
  randomScalar,
  reduceToScalar,
  type NonRevocationCredential,
  type RevocationPrivateKey,
  type RevocationPublicKey,
} from './keys'
import { g1Msm, g1Mul, g2Mul } from './multiply'
import { tailExponent } from './registry'

export interface RevocationBlinding {
  /** h2^vr', sent in the request's `blinded_ms.ur`. */
  ur: G1Point
  /** Kept by the holder in the request metadata (`vr_prime`). */
  vrPrime: bigint
}

/** clsignatures' _generate_blinded_revocation_credential_secrets. */
export function blindRevocationSecret(key: RevocationPublicKey): RevocationBlinding {
  const vrPrime = randomScalar()
  return { ur: g1Mul(key.h2, vrPrime), vrPrime }
}

export interface SignNonRevocationOptions {
  key: RevocationPublicKey
  privateKey: RevocationPrivateKey
  /** The registry's secret gamma. */
  gamma: bigint
  maxCredNum: number
  /** The credential's index, 1 to maxCredNum. */
  index: number
  /** The status list's accumulator. */
  accumulator: G2Point
  /**
   * True when the index is already in the accumulator (its status list bit is 0: issuance by default); false
   * when issuing adds it (bit 1: issuance on demand), as anoncreds-rs decides from the status list.
   */
  inAccumulator: boolean
  /** The credential context (the primary signature's m2, before reduction modulo r). */
  m2: bigint
  /** The holder's blinded vr' from the request. */
  ur: G1Point
}

export interface SignedNonRevocation {
  credential: NonRevocationCredential
  /** The witness of the index in `accumulator` (omega). */
  witness: G2Point
  /** The accumulator the credential was issued against (moved by the index's tail when issued on demand). */
  accumulator: G2Point
}

function inverse(value: bigint, what: string): bigint {
  if (Fr.create(value) === 0n) throw new RangeError(`${what} has no inverse`)
  return Fr.inv(value)
}

/** clsignatures' _new_non_revocation_credential. Throws RangeError for an index outside 1..maxCredNum. */
export function signNonRevocation(options: SignNonRevocationOptions): SignedNonRevocation {
  const { key, privateKey, gamma, maxCredNum, index, accumulator } = options
  if (!Number.isInteger(index) || index < 1 || index > maxCredNum)
    throw new RangeError('the revocation index is outside the registry')
  const m2 = reduceToScalar(options.m2)
  const gammaI = Fr.pow(gamma, BigInt(index))
  const gI = g1Mul(key.g, gammaI)
  let c = randomScalar()
  // x + c = 0 would leave sigma undefined (probability 2^-254, but a retry costs nothing).
  while (Fr.add(privateKey.x, c) === 0n) c = randomScalar()
  const vrPrimePrime = randomScalar()
  const sigma = g1Mul(
    g1Msm([
      [key.h1, m2],
      [key.h2, vrPrimePrime],
    ])
      .add(key.h0)
      .add(options.ur)
      .add(gI),
    inverse(Fr.add(privateKey.x, c), 'x + c'),
  )
  const sigmaI = g2Mul(key.gDash, inverse(Fr.add(privateKey.sk, gammaI), 'sk + gamma^i'))
  const uI = g2Mul(key.u, gammaI)
  const indexTail = g2Mul(key.gDash, tailExponent(gamma, maxCredNum, index))
  const witness = g2Mul(options.inAccumulator ? accumulator.subtract(indexTail) : accumulator, gammaI)
  return {
    credential: { sigma, c, vrPrimePrime, sigmaI, uI, gI, i: index, m2 },
    witness,
    accumulator: options.inAccumulator ? accumulator : accumulator.add(indexTail),
  }
}

/**
 * The holder's check after adding vr' (clsignatures' _test_witness_signature, and u_i): the witness fits the
 * accumulator, e(g_i, acc) / e(g, omega) = z; the witness signature is the issuer's, e(pk g_i, sigma_i) = e(g, g');
 * u_i belongs to g_i, e(g_i, u) = e(g, u_i); and sigma signs m2, vr'' and g_i,
 * e(sigma, y h_cap^c) = e(h0 h1^m2 h2^vr'' g_i, h_cap).
 */
export function checkNonRevocationSignature(
  key: RevocationPublicKey,
  accumulatorKey: Gt,
  accumulator: G2Point,
  witness: G2Point,
  credential: NonRevocationCredential,
): boolean {
  const minusG = key.g.negate()
  const z = pairingProduct([
    [credential.gI, accumulator],
    [minusG, witness],
  ])
  if (!gtEquals(z, accumulatorKey)) return false
  const witnessSignature = pairingProduct([
    [key.pk.add(credential.gI), credential.sigmaI],
    [minusG, key.gDash],
  ])
  if (!gtIsOne(witnessSignature)) return false
  // u_i = u^(gamma^i), which the proofs use: e(g_i, u) = e(g, u_i). clsignatures leaves it unchecked (a wrong one
  // only shows when a presentation fails); it costs one more pairing product.
  const uI = pairingProduct([
    [credential.gI, key.u],
    [minusG, credential.uI],
  ])
  if (!gtIsOne(uI)) return false
  const signed = g1Msm([
    [key.h1, credential.m2],
    [key.h2, credential.vrPrimePrime],
  ])
    .add(key.h0)
    .add(credential.gI)
  const signature = pairingProduct([
    [credential.sigma, key.y.add(g2Mul(key.hCap, credential.c))],
    [signed.negate(), key.hCap],
  ])
  return gtIsOne(signature)
}

/** The credential's revocation part once the holder added its vr' (what anoncreds-rs stores after processing). */
export function withVrPrime(credential: NonRevocationCredential, vrPrime: bigint): NonRevocationCredential {
  return { ...credential, vrPrimePrime: Fr.add(credential.vrPrimePrime, vrPrime) }
}
