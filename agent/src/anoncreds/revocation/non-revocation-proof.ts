/**
 * The non-revocation sub proof of a presentation (anoncreds-clsignatures' NonRevocProof; the AnonCreds
 * specification's "non-revocation proof" section): a zero-knowledge proof that the holder's credential carries a
 * revocation index i whose tail is in the accumulator, through commitments E, D, A, G, W, S, U (the C list) and
 * the responses of the X list. Its C list and tau list (t1..t8) enter the presentation's one Fiat-Shamir challenge
 * before the primary proof of the same credential, byte for byte as clsignatures writes them.
 */
import { gtMul, gtPow, pairingProduct, R, type G1Point, type G2Point, type Gt } from './bn254'
import { g1Msm, g2Mul } from './multiply'
import { formatG1, formatG2, formatScalar, g1Bytes, g2Bytes, gtBytes, parseG1, parseG2, parseScalar } from './encoding'
import { randomScalar, reduceToScalar, type NonRevocationCredential, type RevocationPublicKey } from './keys'
import type { NonRevocProofJson } from './types'

/** The X list in clsignatures' field order (also the JSON order). */
const X_NAMES = [
  'rho',
  'r',
  'r_prime',
  'r_prime_prime',
  'r_prime_prime_prime',
  'o',
  'o_prime',
  'm',
  'm_prime',
  't',
  't_prime',
  's',
  'c',
] as const
type XName = (typeof X_NAMES)[number]
export type XList = Record<XName, bigint>

export interface CList {
  e: G1Point
  d: G1Point
  a: G1Point
  g: G1Point
  w: G2Point
  s: G2Point
  u: G2Point
}

export interface NonRevocationProof {
  xList: XList
  cList: CList
  /**
   * Set in the pre-2020 ursa form (indy-credx and Indy SDK holders): the X list carries its own m2 response and the
   * responses were computed as x~ - c*x, so the expected values enter with +c.
   */
  legacyM2?: bigint
}

const neg = (v: bigint) => (v === 0n ? 0n : R - v)
const add = (a: bigint, b: bigint) => (a + b) % R
const mul = (a: bigint, b: bigint) => (a * b) % R

/** sum of s_i * P_i, skipping zero scalars (so a zero challenge leaves the expected values out). */
function combine(terms: Array<[G1Point, bigint]>): G1Point {
  return g1Msm(terms.map(([point, scalar]) => [point, reduceToScalar(scalar)] as const))
}

export function cListBytes(c: CList): Uint8Array[] {
  return [g1Bytes(c.e), g1Bytes(c.d), g1Bytes(c.a), g1Bytes(c.g), g2Bytes(c.w), g2Bytes(c.s), g2Bytes(c.u)]
}

/**
 * The tau list t1..t8 as bytes. With challenge 0 this is the prover's commitment from the random X~ values; with
 * the verifier's challenge c it is clsignatures' `expected^(-c) * calc(x_list)`, each product folded into the
 * exponents so that every GT value is one multi-pairing: the values (and bytes) are the same.
 */
export function tauList(
  key: RevocationPublicKey,
  accumulator: G2Point,
  accumulatorKey: Gt | null,
  x: XList,
  c: CList,
  m2: bigint,
  challenge: bigint,
): Uint8Array[] {
  const ch = reduceToScalar(challenge)
  const minus = neg(ch)
  const pkG = key.pk.add(c.g)
  const gCh = combine([[key.g, ch]])
  const t1 = combine([
    [c.e, minus],
    [key.h, x.rho],
    [key.htilde, x.o],
  ])
  const t2 = combine([
    [c.e, x.c],
    [key.h, neg(x.m)],
    [key.htilde, neg(x.t)],
  ])
  const t3 = pairingProduct([
    [
      combine([
        [c.a, x.c],
        [key.htilde, add(x.r, neg(x.m))],
        [key.h1, neg(reduceToScalar(m2))],
        [key.h2, neg(x.s)],
        [key.h0.add(c.g), minus],
      ]),
      key.hCap,
    ],
    [
      combine([
        [key.htilde, neg(x.rho)],
        [c.a, ch],
      ]),
      key.y,
    ],
  ])
  // t4 and t8 pair the same G1 point, htilde^r g^-c, with the accumulator and with u.
  const rTerm = combine([
    [key.htilde, x.r],
    [c.g, minus],
  ])
  let t4 = pairingProduct([
    [rTerm, accumulator],
    [combine([[key.g, neg(x.r_prime)]]), key.hCap],
    [gCh, c.w],
  ])
  if (ch !== 0n) {
    if (!accumulatorKey) throw new Error('the accumulator key is needed to verify')
    t4 = gtMul(t4, gtPow(accumulatorKey, ch))
  }
  const t5 = combine([
    [c.d, minus],
    [key.g, x.r],
    [key.htilde, x.o_prime],
  ])
  const t6 = combine([
    [c.d, x.r_prime_prime],
    [key.g, neg(x.m_prime)],
    [key.htilde, neg(x.t_prime)],
  ])
  const t7 = pairingProduct([
    [
      combine([
        [pkG, x.r_prime_prime],
        [key.htilde, neg(x.m_prime)],
      ]),
      key.hCap,
    ],
    [
      combine([
        [key.htilde, x.r],
        [pkG, minus],
      ]),
      c.s,
    ],
    [gCh, key.gDash],
  ])
  const t8 = pairingProduct([
    [rTerm, key.u],
    [combine([[key.g, neg(x.r_prime_prime_prime)]]), key.hCap],
    [gCh, c.u],
  ])
  return [g1Bytes(t1), g1Bytes(t2), gtBytes(t3), gtBytes(t4), g1Bytes(t5), g1Bytes(t6), gtBytes(t7), gtBytes(t8)]
}

export interface NonRevocationInit {
  cList: CList
  cListBytes: Uint8Array[]
  tauBytes: Uint8Array[]
  /** The responses once the presentation's challenge is known. */
  finalize(cHash: bigint): NonRevocProofJson
}

/**
 * The prover's first move (clsignatures' _init_non_revocation_proof). `m2Tilde` is the primary equality proof's
 * blinding of m2, which links the two sub proofs to one credential.
 */
export function initNonRevocationProof(
  key: RevocationPublicKey,
  credential: NonRevocationCredential,
  accumulator: G2Point,
  witness: G2Point,
  m2Tilde: bigint,
): NonRevocationInit {
  const rho = randomScalar()
  const r = randomScalar()
  const rPrime = randomScalar()
  const rPrimePrime = randomScalar()
  const rPrimePrimePrime = randomScalar()
  const o = randomScalar()
  const oPrime = randomScalar()
  const secrets: XList = {
    rho,
    r,
    r_prime: rPrime,
    r_prime_prime: rPrimePrime,
    r_prime_prime_prime: rPrimePrimePrime,
    o,
    o_prime: oPrime,
    m: mul(rho, credential.c),
    m_prime: mul(r, rPrimePrime),
    t: mul(o, credential.c),
    t_prime: mul(oPrime, rPrimePrime),
    s: credential.vrPrimePrime,
    c: credential.c,
  }
  const cList: CList = {
    e: combine([
      [key.h, rho],
      [key.htilde, o],
    ]),
    d: combine([
      [key.g, r],
      [key.htilde, oPrime],
    ]),
    a: credential.sigma.add(combine([[key.htilde, rho]])),
    g: credential.gI.add(combine([[key.htilde, r]])),
    w: witness.add(g2Mul(key.hCap, rPrime)),
    s: credential.sigmaI.add(g2Mul(key.hCap, rPrimePrime)),
    u: credential.uI.add(g2Mul(key.hCap, rPrimePrimePrime)),
  }
  const tildes = Object.fromEntries(X_NAMES.map((name) => [name, randomScalar()])) as XList
  const tauBytes = tauList(key, accumulator, null, tildes, cList, m2Tilde, 0n)
  return {
    cList,
    cListBytes: cListBytes(cList),
    tauBytes,
    finalize(cHash: bigint): NonRevocProofJson {
      const ch = reduceToScalar(cHash)
      const xList = Object.fromEntries(
        X_NAMES.map((name) => [name, formatScalar(add(tildes[name], mul(ch, secrets[name])))]),
      ) as unknown as NonRevocProofJson['x_list']
      return { x_list: xList, c_list: formatCList(cList) }
    },
  }
}

export function formatCList(c: CList): NonRevocProofJson['c_list'] {
  return {
    e: formatG1(c.e),
    d: formatG1(c.d),
    a: formatG1(c.a),
    g: formatG1(c.g),
    w: formatG2(c.w),
    s: formatG2(c.s),
    u: formatG2(c.u),
  }
}

function object(json: unknown, path: string): Record<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new TypeError(`${path}: expected an object`)
  return json as Record<string, unknown>
}

/**
 * Reads a `non_revoc_proof`. An X list carrying `m2` is the ursa form written by indy-credx and the Indy SDK, which
 * clsignatures still verifies behind accept_legacy_revocation; we accept it too (docs/decisions.md).
 */
export function readNonRevocationProof(json: unknown, path: string): NonRevocationProof {
  const proof = object(json, path)
  const x = object(proof.x_list, `${path}.x_list`)
  const legacyM2 = x.m2 === undefined || x.m2 === null ? undefined : parseScalar(x.m2, `${path}.x_list.m2`)
  const xList = Object.fromEntries(
    X_NAMES.map((name) => [name, parseScalar(x[name], `${path}.x_list.${name}`)]),
  ) as XList
  const c = object(proof.c_list, `${path}.c_list`)
  const cList: CList = {
    e: parseG1(c.e, `${path}.c_list.e`),
    d: parseG1(c.d, `${path}.c_list.d`),
    a: parseG1(c.a, `${path}.c_list.a`),
    g: parseG1(c.g, `${path}.c_list.g`),
    w: parseG2(c.w, `${path}.c_list.w`),
    s: parseG2(c.s, `${path}.c_list.s`),
    u: parseG2(c.u, `${path}.c_list.u`),
  }
  return legacyM2 === undefined ? { xList, cList } : { xList, cList, legacyM2 }
}
