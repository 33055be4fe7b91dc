/**
 * The CL proof of knowledge behind an AnonCreds presentation (the primary proof of anoncreds-clsignatures, no
 * revocation): per credential an equality proof (a randomized signature A' and Schnorr responses for every
 * hidden message) and one inequality proof per predicate (the difference to the bound written as a sum of four
 * squares, committed and proven), all bound by one Fiat-Shamir challenge over
 * SHA-256(tau values..., c values..., nonce).
 *
 * The prover and the verifier below compute the same tau values in the same order, which is what makes the
 * JSON interchangeable with anoncreds-rs: its ProofBuilder/ProofVerifier order is eq proof then the predicates
 * of each sub proof, sub proofs in presentation order.
 */
import { LARGE_E_START, LARGE_VPRIME, LINK_SECRET_ATTRIBUTE } from '../cl/constants'
import {
  bigintToBytes,
  fixedBaseInverse,
  hashToBigint,
  modInverseAll,
  modPow,
  modPowConstantTime,
  modPowFixedBase,
  modPowPublicFixedBase,
  randomBits,
} from '../math'
import type { G2Point, Gt } from '../revocation/bn254'
import type { RevocationPublicKey } from '../revocation/keys'
import {
  cListBytes,
  tauList,
  type NonRevocationInit,
  type NonRevocationProof,
} from '../revocation/non-revocation-proof'
import type { NonRevocProofJson } from '../revocation/types'
import { fourSquares } from './four-squares'

// Bit sizes of the proof's random values (anoncreds-clsignatures constants.rs); the signature's own sizes are
// shared with issuance in cl/constants.ts.
export const LARGE_ETILDE = 456
export const LARGE_VTILDE = 3060
export const LARGE_MVECT = 592
export const LARGE_M2TILDE = 2432
export const LARGE_UTILDE = 592
export const LARGE_RTILDE = 672
export const LARGE_ALPHATILDE = 2787
const ITERATION = 4
const E_START_VALUE = 1n << BigInt(LARGE_E_START)

export { LINK_SECRET_ATTRIBUTE }

export interface PrimaryPublicKey {
  readonly n: bigint
  readonly s: bigint
  readonly z: bigint
  readonly rctxt: bigint
  readonly r: ReadonlyMap<string, bigint>
}

export interface PrimarySignature {
  readonly m2: bigint
  readonly a: bigint
  readonly e: bigint
  readonly v: bigint
}

export type PredicateType = 'GE' | 'LE' | 'GT' | 'LT'
const PREDICATE_TYPE_ORDER: Record<PredicateType, number> = { GE: 0, LE: 1, GT: 2, LT: 3 }

export interface ClPredicate {
  readonly attrName: string
  readonly pType: PredicateType
  readonly value: number
}

/** What one credential must show: revealed attribute names and predicates, in anoncreds-rs canonical names. */
export interface SubProofRequest {
  readonly revealed: readonly string[]
  readonly predicates: readonly ClPredicate[]
}

export interface EqProof {
  readonly revealedAttrs: ReadonlyMap<string, bigint>
  readonly aPrime: bigint
  readonly e: bigint
  readonly v: bigint
  readonly m: ReadonlyMap<string, bigint>
  readonly m2: bigint
}

export interface GeProof {
  readonly u: readonly bigint[] // four entries
  readonly r: readonly bigint[] // four entries
  readonly rDelta: bigint
  readonly mj: bigint
  readonly alpha: bigint
  readonly t: readonly bigint[] // four entries
  readonly tDelta: bigint
  readonly predicate: ClPredicate
}

export interface PrimaryProof {
  readonly eqProof: EqProof
  readonly geProofs: readonly GeProof[]
  /** Set by the prover when the credential was proven non-revoked (the JSON's `non_revoc_proof`). */
  readonly nonRevocProof?: NonRevocProofJson | null
}

export interface ClProof {
  readonly proofs: readonly PrimaryProof[]
  readonly cHash: bigint
  readonly cList: readonly Uint8Array[]
}

/** Why a proof cannot be built (the caller turns it into an AnonCredsError). */
export class ProofBuildError extends Error {}

/** Orders predicates as anoncreds-clsignatures' BTreeSet<Predicate> does: name, type (GE, LE, GT, LT), value. */
export function comparePredicates(a: ClPredicate, b: ClPredicate): number {
  if (a.attrName !== b.attrName) return a.attrName < b.attrName ? -1 : 1
  if (a.pType !== b.pType) return PREDICATE_TYPE_ORDER[a.pType] - PREDICATE_TYPE_ORDER[b.pType]
  return a.value - b.value
}

/** Equal predicates collapse into one inequality proof (anoncreds-clsignatures keeps them in a set). */
export function dedupePredicates(predicates: readonly ClPredicate[]): ClPredicate[] {
  const seen = new Map<string, ClPredicate>()
  for (const p of predicates) seen.set(`${p.attrName}\u0000${p.pType}\u0000${p.value}`, p)
  return [...seen.values()]
}

/** The predicate's distance to its bound; negative when the value does not satisfy it. */
export function predicateDelta(predicate: ClPredicate, attrValue: number): number {
  switch (predicate.pType) {
    case 'GE':
      return attrValue - predicate.value
    case 'GT':
      return attrValue - predicate.value - 1
    case 'LE':
      return predicate.value - attrValue
    case 'LT':
      return predicate.value - attrValue - 1
  }
}

/** The bound the commitment T_delta is checked against (delta' of the CL paper). */
function predicateBound(predicate: ClPredicate): bigint {
  switch (predicate.pType) {
    case 'GE':
    case 'LE':
      return BigInt(predicate.value)
    case 'GT':
      return BigInt(predicate.value) + 1n
    case 'LT':
      return BigInt(predicate.value) - 1n
  }
}

function isLess(predicate: ClPredicate): boolean {
  return predicate.pType === 'LE' || predicate.pType === 'LT'
}

function mulMod(a: bigint, b: bigint, n: bigint): bigint {
  return (a * b) % n
}

/** Attributes the proof hides: every schema attribute and the link secret, minus the revealed ones. */
export function unrevealedAttributes(schemaAttrs: readonly string[], revealed: readonly string[]): string[] {
  const shown = new Set(revealed)
  const all = new Set([...schemaAttrs, LINK_SECRET_ATTRIBUTE])
  return [...all].filter((name) => !shown.has(name)).sort()
}

function publicR(pk: PrimaryPublicKey, name: string): bigint {
  const value = pk.r.get(name)
  if (value === undefined) throw new ProofBuildError(`the credential definition has no key for attribute "${name}"`)
  return value
}

/**
 * How each side raises. The prover's exponents are secret (the hidden attributes, the link secret, the blinding
 * values): constant time, for the key's bases (kept per modulus) and the proof's own values (A', the T values)
 * alike. The verifier's are the proof's public responses: modPow, the faster for the 600-bit ones.
 */
interface Powers {
  /** The credential definition's key: Z, S, R_i, Rctxt. */
  ofKey: (base: bigint, exponent: bigint, modulus: bigint) => bigint
  /** The proof's own values: A', T_i. */
  ofProof: (base: bigint, exponent: bigint, modulus: bigint) => bigint
}
const PROVER: Powers = { ofKey: modPowFixedBase, ofProof: modPowConstantTime }
const VERIFIER: Powers = { ofKey: modPowPublicFixedBase, ofProof: modPow }

/** A'^e · Π R_k^m_k · S^v · Rctxt^m2 mod n (calc_teq). */
function calcTeq(
  pk: PrimaryPublicKey,
  aPrime: bigint,
  e: bigint,
  v: bigint,
  m: ReadonlyMap<string, bigint>,
  m2: bigint,
  unrevealed: readonly string[],
  powers: Powers,
): bigint {
  let result = powers.ofProof(aPrime, e, pk.n)
  for (const name of unrevealed) {
    const mk = m.get(name)
    if (mk === undefined) throw new ProofBuildError(`no response for hidden attribute "${name}"`)
    result = mulMod(result, powers.ofKey(publicR(pk, name), mk, pk.n), pk.n)
  }
  result = mulMod(result, powers.ofKey(pk.s, v, pk.n), pk.n)
  return mulMod(result, powers.ofKey(pk.rctxt, m2, pk.n), pk.n)
}

/** The six tau values of an inequality proof before the challenge terms (calc_tne). */
function calcTne(
  pk: PrimaryPublicKey,
  u: readonly bigint[],
  r: readonly bigint[],
  rDelta: bigint,
  mj: bigint,
  alpha: bigint,
  t: readonly bigint[],
  less: boolean,
  powers: Powers,
): bigint[] {
  const taus: bigint[] = []
  for (let i = 0; i < ITERATION; i++) {
    taus.push(mulMod(powers.ofKey(pk.z, u[i], pk.n), powers.ofKey(pk.s, r[i], pk.n), pk.n))
  }
  taus.push(mulMod(powers.ofKey(pk.z, mj, pk.n), powers.ofKey(pk.s, less ? -rDelta : rDelta, pk.n), pk.n))
  let q = 1n
  for (let i = 0; i < ITERATION; i++) q = mulMod(q, powers.ofProof(t[i], u[i], pk.n), pk.n)
  taus.push(mulMod(q, powers.ofKey(pk.s, alpha, pk.n), pk.n))
  return taus
}

interface EqInit {
  aPrime: bigint
  t: bigint
  eTilde: bigint
  ePrime: bigint
  vTilde: bigint
  vPrime: bigint
  mTilde: Map<string, bigint>
  m2Tilde: bigint
  m2: bigint
}

interface GeInit {
  predicate: ClPredicate
  u: bigint[]
  uTilde: bigint[]
  r: bigint[]
  rTilde: bigint[]
  rDelta: bigint
  rTildeDelta: bigint
  alphaTilde: bigint
  t: bigint[]
  tDelta: bigint
  taus: bigint[]
}

interface SubProofInit {
  eq: EqInit
  ge: GeInit[]
  nonRevocationInit: NonRevocationInit | undefined
  values: ReadonlyMap<string, bigint>
  unrevealed: string[]
  revealed: string[]
}

export interface CredentialForProof {
  readonly publicKey: PrimaryPublicKey
  readonly signature: PrimarySignature
  /** Every attribute's encoded value by canonical name, plus the link secret under LINK_SECRET_ATTRIBUTE. */
  readonly values: ReadonlyMap<string, bigint>
  /** The schema's attribute names, canonical (attr_common_view). */
  readonly schemaAttrs: readonly string[]
}

/** Collects sub proofs, then binds them with one challenge (anoncreds-clsignatures ProofBuilder). */
export class ProofBuilder {
  // The link secret is common to all credentials: one blinding for it makes the verifier's equality check work.
  private readonly common = new Map([[LINK_SECRET_ATTRIBUTE, randomBits(LARGE_MVECT)]])
  private readonly inits: SubProofInit[] = []
  private readonly cList: Uint8Array[] = []
  private readonly tauList: Uint8Array[] = []

  /**
   * Adds one credential's sub proof. `nonRevocation` starts its non-revocation proof from the primary proof's m2
   * blinding (it enters the C and tau lists first, as in clsignatures).
   */
  public addSubProof(
    credential: CredentialForProof,
    request: SubProofRequest,
    nonRevocation?: (m2Tilde: bigint) => NonRevocationInit,
  ): void {
    const { publicKey: pk, signature, values, schemaAttrs } = credential
    const attrs = new Set([...schemaAttrs, LINK_SECRET_ATTRIBUTE])
    if (attrs.size !== values.size || [...values.keys()].some((name) => !attrs.has(name))) {
      throw new ProofBuildError("the credential's attributes do not match its schema")
    }
    const revealed = [...new Set(request.revealed)].sort()
    for (const name of revealed) {
      if (!values.has(name)) throw new ProofBuildError(`the credential has no attribute "${name}"`)
    }
    for (const predicate of request.predicates) {
      if (!values.has(predicate.attrName)) {
        throw new ProofBuildError(`the credential has no attribute "${predicate.attrName}" for a predicate`)
      }
      if (revealed.includes(predicate.attrName)) {
        throw new ProofBuildError(`attribute "${predicate.attrName}" cannot be both revealed and in a predicate`)
      }
    }
    const unrevealed = unrevealedAttributes(schemaAttrs, revealed)

    const r = randomBits(LARGE_VPRIME)
    const mTilde = new Map<string, bigint>()
    for (const name of unrevealed) mTilde.set(name, this.common.get(name) ?? randomBits(LARGE_MVECT))
    const eq: EqInit = {
      aPrime: mulMod(modPowFixedBase(pk.s, r, pk.n), signature.a, pk.n),
      t: 0n,
      eTilde: randomBits(LARGE_ETILDE),
      ePrime: signature.e - E_START_VALUE,
      vTilde: randomBits(LARGE_VTILDE),
      vPrime: signature.v - signature.e * r,
      mTilde,
      m2Tilde: randomBits(LARGE_M2TILDE),
      m2: signature.m2,
    }
    eq.t = calcTeq(pk, eq.aPrime, eq.eTilde, eq.vTilde, mTilde, eq.m2Tilde, unrevealed, PROVER)

    const predicates = [...request.predicates].sort(comparePredicates)
    const ge = predicates.map((predicate) => this.initGeProof(pk, mTilde, values, predicate))

    const nonRevocationInit = nonRevocation?.(eq.m2Tilde)
    if (nonRevocationInit) {
      this.cList.push(...nonRevocationInit.cListBytes)
      this.tauList.push(...nonRevocationInit.tauBytes)
    }
    this.cList.push(bigintToBytes(eq.aPrime))
    this.tauList.push(bigintToBytes(eq.t))
    for (const g of ge) {
      this.cList.push(...[...g.t, g.tDelta].map(bigintToBytes))
      this.tauList.push(...g.taus.map(bigintToBytes))
    }
    this.inits.push({ eq, ge, values, unrevealed, revealed, nonRevocationInit })
  }

  private initGeProof(
    pk: PrimaryPublicKey,
    mTilde: ReadonlyMap<string, bigint>,
    values: ReadonlyMap<string, bigint>,
    predicate: ClPredicate,
  ): GeInit {
    const encoded = values.get(predicate.attrName) as bigint
    if (encoded < -(2n ** 31n) || encoded > 2n ** 31n - 1n) {
      throw new ProofBuildError(`attribute "${predicate.attrName}" is not a 32-bit integer`)
    }
    const delta = predicateDelta(predicate, Number(encoded))
    if (delta < 0) throw new ProofBuildError(`predicate on "${predicate.attrName}" is not satisfied`)
    const u = fourSquares(delta)
    const r = u.map(() => randomBits(LARGE_VPRIME))
    const t = u.map((ui, i) => mulMod(modPowFixedBase(pk.z, ui, pk.n), modPowFixedBase(pk.s, r[i], pk.n), pk.n))
    const rDelta = randomBits(LARGE_VPRIME)
    const tDelta = mulMod(modPowFixedBase(pk.z, BigInt(delta), pk.n), modPowFixedBase(pk.s, rDelta, pk.n), pk.n)
    const uTilde = u.map(() => randomBits(LARGE_UTILDE))
    const rTilde = u.map(() => randomBits(LARGE_RTILDE))
    const rTildeDelta = randomBits(LARGE_RTILDE)
    const alphaTilde = randomBits(LARGE_ALPHATILDE)
    const mjTilde = mTilde.get(predicate.attrName) as bigint
    const taus = calcTne(pk, uTilde, rTilde, rTildeDelta, mjTilde, alphaTilde, t, isLess(predicate), PROVER)
    return { predicate, u, uTilde, r, rTilde, rDelta, rTildeDelta, alphaTilde, t, tDelta, taus }
  }

  public finalize(nonce: bigint): ClProof {
    const cList = [...this.cList]
    const c = hashToBigint([...this.tauList, ...cList, bigintToBytes(nonce)])
    const proofs = this.inits.map(({ eq, ge, values, unrevealed, revealed, nonRevocationInit }): PrimaryProof => {
      const m = new Map<string, bigint>()
      for (const name of unrevealed) m.set(name, c * (values.get(name) as bigint) + (eq.mTilde.get(name) as bigint))
      const eqProof: EqProof = {
        revealedAttrs: new Map(revealed.map((name) => [name, values.get(name) as bigint])),
        aPrime: eq.aPrime,
        e: c * eq.ePrime + eq.eTilde,
        v: c * eq.vPrime + eq.vTilde,
        m,
        m2: c * eq.m2 + eq.m2Tilde,
      }
      const geProofs = ge.map((g): GeProof => {
        const urProduct = g.u.reduce((sum, ui, i) => sum + ui * g.r[i], 0n)
        return {
          u: g.u.map((ui, i) => c * ui + g.uTilde[i]),
          r: g.r.map((ri, i) => c * ri + g.rTilde[i]),
          rDelta: c * g.rDelta + g.rTildeDelta,
          mj: m.get(g.predicate.attrName) as bigint,
          alpha: (g.rDelta - urProduct) * c + g.alphaTilde,
          t: g.t,
          tDelta: g.tDelta,
          predicate: g.predicate,
        }
      })
      return { eqProof, geProofs, nonRevocProof: nonRevocationInit?.finalize(c) ?? null }
    })
    return { proofs, cHash: c, cList }
  }
}

export interface SubProofToVerify {
  readonly publicKey: PrimaryPublicKey
  readonly schemaAttrs: readonly string[]
  readonly request: SubProofRequest
  readonly proof: PrimaryProof
  /** The credential's non-revocation proof with the registry state it was made against. */
  readonly nonRevocation?: NonRevocationToVerify
}

export interface NonRevocationToVerify {
  readonly key: RevocationPublicKey
  readonly accumulator: G2Point
  readonly accumulatorKey: Gt
  readonly proof: NonRevocationProof
}

/** Why a proof was rejected; verifyProof reports it instead of throwing. */
export type ProofCheck = { valid: true } | { valid: false; reason: string }

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}

/**
 * Checks the CL proof against what each sub proof had to show (anoncreds-clsignatures ProofVerifier, plus two
 * checks an honest prover always passes and anoncreds-rs leaves out: each predicate's mj equals the equality
 * proof's response for that attribute, and c_list is exactly the A' and T values of the proofs).
 */
export function verifyProof(
  subProofs: readonly SubProofToVerify[],
  cHash: bigint,
  cList: readonly Uint8Array[],
  nonce: bigint,
): ProofCheck {
  const taus: Uint8Array[] = []
  const expectedCList: Uint8Array[] = []
  let linkSecretResponse: bigint | undefined
  for (const [index, sub] of subProofs.entries()) {
    const { publicKey: pk, proof, request } = sub
    const { eqProof } = proof
    const revealed = [...request.revealed].sort()
    const proofRevealed = [...eqProof.revealedAttrs.keys()].sort()
    if (revealed.length !== proofRevealed.length || revealed.some((name, i) => name !== proofRevealed[i])) {
      return { valid: false, reason: `sub proof ${index}: revealed attributes differ from the request` }
    }
    const wanted = [...request.predicates].sort(comparePredicates)
    const given = [...proof.geProofs.map((g) => g.predicate)].sort(comparePredicates)
    if (wanted.length !== given.length || wanted.some((p, i) => comparePredicates(p, given[i]) !== 0)) {
      return { valid: false, reason: `sub proof ${index}: predicates differ from the request` }
    }
    const ms = eqProof.m.get(LINK_SECRET_ATTRIBUTE)
    if (ms === undefined) return { valid: false, reason: `sub proof ${index}: no link secret response` }
    if (linkSecretResponse !== undefined && ms !== linkSecretResponse) {
      return { valid: false, reason: 'the credentials are not bound to the same link secret' }
    }
    linkSecretResponse = ms
    if (eqProof.aPrime <= 0n || eqProof.aPrime >= pk.n)
      return { valid: false, reason: `sub proof ${index}: A' out of range` }

    if (sub.nonRevocation) {
      const { key, accumulator, accumulatorKey, proof: nonRevocation } = sub.nonRevocation
      // The legacy ursa form carries its own m2 response and signs the challenge the other way.
      const legacy = nonRevocation.legacyM2 !== undefined
      const m2 = legacy ? (nonRevocation.legacyM2 as bigint) : eqProof.m2
      const challenge = legacy ? -cHash : cHash
      taus.push(...tauList(key, accumulator, accumulatorKey, nonRevocation.xList, nonRevocation.cList, m2, challenge))
      expectedCList.push(...cListBytes(nonRevocation.cList))
    }
    const unrevealed = unrevealedAttributes(sub.schemaAttrs, revealed)
    const t1 = calcTeq(pk, eqProof.aPrime, eqProof.e, eqProof.v, eqProof.m, eqProof.m2, unrevealed, VERIFIER)
    let rar = modPow(eqProof.aPrime, E_START_VALUE, pk.n)
    for (const [name, value] of eqProof.revealedAttrs) rar = mulMod(rar, modPow(publicR(pk, name), value, pk.n), pk.n)
    // (Z / rar)^-c
    const t2 = modPow(mulMod(rar, fixedBaseInverse(pk.z, pk.n), pk.n), cHash, pk.n)
    taus.push(bigintToBytes(mulMod(t1, t2, pk.n)))
    expectedCList.push(bigintToBytes(eqProof.aPrime))

    for (const ge of proof.geProofs) {
      const name = ge.predicate.attrName
      if (eqProof.m.get(name) !== ge.mj) {
        return { valid: false, reason: `sub proof ${index}: predicate on "${name}" is not tied to the credential` }
      }
      const less = isLess(ge.predicate)
      const geTaus = calcTne(pk, ge.u, ge.r, ge.rDelta, ge.mj, ge.alpha, ge.t, less, VERIFIER)
      // The T values' and T_delta's inverses at once; x^-c is (x^-1)^c.
      const inverses = modInverseAll([...ge.t, ge.tDelta], pk.n)
      const tDeltaInverse = inverses[ITERATION]
      for (let i = 0; i < ITERATION; i++) {
        geTaus[i] = mulMod(modPow(inverses[i], cHash, pk.n), geTaus[i], pk.n)
      }
      // bound = Z^b * (less ? T_delta^-1 : T_delta), so bound^-1 = (Z^-1)^b * (less ? T_delta : T_delta^-1).
      const boundInverse = mulMod(
        modPow(fixedBaseInverse(pk.z, pk.n), predicateBound(ge.predicate), pk.n),
        less ? ge.tDelta : tDeltaInverse,
        pk.n,
      )
      geTaus[ITERATION] = mulMod(modPow(boundInverse, cHash, pk.n), geTaus[ITERATION], pk.n)
      geTaus[ITERATION + 1] = mulMod(modPow(tDeltaInverse, cHash, pk.n), geTaus[ITERATION + 1], pk.n)
      taus.push(...geTaus.map(bigintToBytes))
      expectedCList.push(...[...ge.t, ge.tDelta].map(bigintToBytes))
    }
  }
  if (cList.length !== expectedCList.length || expectedCList.some((value, i) => !sameBytes(value, cList[i]))) {
    return { valid: false, reason: 'c_list does not match the proofs' }
  }
  const recomputed = hashToBigint([...taus, ...cList, bigintToBytes(nonce)])
  return recomputed === cHash
    ? { valid: true }
    : { valid: false, reason: 'the challenge does not match (tampered proof or wrong nonce)' }
}
