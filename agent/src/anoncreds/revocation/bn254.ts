/**
 * The pairing group of AnonCreds revocation: the Barreto-Naehrig curve that anoncreds-clsignatures takes from the
 * Apache Milagro library (`amcl::bn254`), which is NOT the Ethereum curve `@noble/curves` calls bn254.
 *   p = 36u^4 + 36u^3 + 24u^2 + 6u + 1, r = 36u^4 + 36u^3 + 18u^2 + 6u + 1 with u = -(2^62 + 2^55 + 1);
 *   E: y^2 = x^3 + 2 over Fp, generator (-1, 1); the D-type sextic twist E': y^2 = x^3 + 2/xi over Fp2 = Fp[i]/(i^2 + 1)
 *   with xi = 1 + i; GT inside Fp12 = Fp2[W]/(W^6 - xi).
 * The field towers, curve arithmetic and Miller loop are `@noble/curves`' generic building blocks (pure
 * TypeScript) given these parameters; the Miller-loop fix-up for a negative u and the final exponentiation are
 * ours, written so that the pairing value is exactly Milagro's (the exact hard part (p^4 - p^2 + 1)/r, not a
 * multiple), since a pairing value's bytes enter the Fiat-Shamir hash of a non-revocation proof.
 */
import { blsBasic, type BlsPostPrecomputeFn } from '@noble/curves/abstract/bls.js'
import { Field } from '@noble/curves/abstract/modular.js'
import { psiFrobenius, tower12, type Fp12, type Fp2 as Fp2Element } from '@noble/curves/abstract/tower.js'
import { weierstrass, type WeierstrassPoint } from '@noble/curves/abstract/weierstrass.js'

/** |u|; u itself is negative (Milagro's SIGN_OF_X = NEGATIVEX). */
export const BN_U_ABS = 0x4080000000000001n
export const P = 0x2523648240000001ba344d80000000086121000000000013a700000000000013n
/** The group order (Milagro's CURVE_ORDER); scalars of G1, G2 and GT live modulo r. */
export const R = 0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000dn

export const Fr = Field(R)

const tower = tower12({
  ORDER: P,
  X_LEN: BN_U_ABS.toString(2).length,
  FP2_NONRESIDUE: [1n, 1n],
  // b' = b / xi = 2 / (1 + i) = 1 - i
  Fp2mulByB: ({ c0, c1 }: Fp2Element) => {
    const { Fp } = tower.Fp2
    // (c0 + c1 i)(1 - i) = (c0 + c1) + (c1 - c0) i
    return tower.Fp2.create({ c0: Fp.add(c0, c1), c1: Fp.sub(c1, c0) })
  },
  Fp12finalExponentiate: (value: Fp12) => finalExponentiate(value),
})
export const Fp = tower.Fp
export const Fp2 = tower.Fp2
export const Fp12Field = tower.Fp12

/** f^|u| for f in the cyclotomic subgroup (|u| = 2^62 + 2^55 + 1). */
function cyclotomicPowU(f: Fp12): Fp12 {
  const F = tower.Fp12
  let acc = f
  for (let i = 0; i < 7; i++) acc = F._cyclotomicSquare(acc) // f^(2^7)
  acc = F.mul(acc, f) // f^(2^7 + 1)
  for (let i = 0; i < 55; i++) acc = F._cyclotomicSquare(acc) // f^(2^62 + 2^55)
  return F.mul(acc, f)
}

/** f^u with the sign of u (negative): the inverse, which in the cyclotomic subgroup is the conjugate. */
function cyclotomicPowSignedU(f: Fp12): Fp12 {
  return tower.Fp12.conjugate(cyclotomicPowU(f))
}

/**
 * f^((p^12 - 1)/r). Easy part f^((p^6 - 1)(p^2 + 1)), then the hard part (p^4 - p^2 + 1)/r written in base p with
 * coefficients in u, evaluated with the vectorial addition chain of Scott et al., "On the final exponentiation for
 * calculating pairings on ordinary elliptic curves" (2009): the exact exponent, as Milagro computes it.
 */
export function finalExponentiate(f: Fp12): Fp12 {
  const F = tower.Fp12
  let m = F.mul(F.conjugate(f), F.inv(f)) // f^(p^6 - 1)
  m = F.mul(F.frobeniusMap(m, 2), m) // ^(p^2 + 1)
  const fu = cyclotomicPowSignedU(m)
  const fu2 = cyclotomicPowSignedU(fu)
  const fu3 = cyclotomicPowSignedU(fu2)
  const y0 = F.mul(F.mul(F.frobeniusMap(m, 1), F.frobeniusMap(m, 2)), F.frobeniusMap(m, 3))
  const y1 = F.conjugate(m)
  const y2 = F.frobeniusMap(fu2, 2)
  const y3 = F.conjugate(F.frobeniusMap(fu, 1))
  const y4 = F.conjugate(F.mul(fu, F.frobeniusMap(fu2, 1)))
  const y5 = F.conjugate(fu2)
  const y6 = F.conjugate(F.mul(fu3, F.frobeniusMap(fu3, 1)))
  let t0 = F.mul(F.mul(F._cyclotomicSquare(y6), y4), y5)
  let t1 = F.mul(F.mul(y3, y5), t0)
  t0 = F.mul(t0, y2)
  t1 = F._cyclotomicSquare(F.mul(F._cyclotomicSquare(t1), t0))
  t0 = F.mul(t1, y1)
  t1 = F.mul(t1, y0)
  t0 = F._cyclotomicSquare(t0)
  return F.mul(t1, t0)
}

/** Milagro's 56-bit limbs (rom_bn254_64.rs) to a bigint. */
function limbs(...words: bigint[]): bigint {
  return words.reduceRight((acc, word) => (acc << 56n) | word, 0n)
}

const G2_X = Fp2.create({
  c0: limbs(0xee4224c803fb2bn, 0x8bbb4898bf0d91n, 0x7e8c61edb6a464n, 0x519eb62feb8d8cn, 0x61a10bbn),
  c1: limbs(0x8c34c1e7d54cf3n, 0x746bae3784b70dn, 0x8c5982aa5b1f4dn, 0xba737833310aa7n, 0x516aaf9n),
})
const G2_Y = Fp2.create({
  c0: limbs(0xf0e07891cd2b9an, 0xae6bdbe09bd19n, 0x96698c822329bdn, 0x6baf93439a90e0n, 0x21897a0n),
  c1: limbs(0x2d1aec6b3ace9bn, 0x6ffd739c9578an, 0x56f5f38d37b090n, 0x7c8b15268f6d44n, 0xebb2b0en),
})
const TWIST_B = Fp2.create({ c0: 1n, c1: P - 1n })

const frobenius = psiFrobenius(Fp, Fp2, Fp2.NONRESIDUE)
/** [6u^2] on G2 equals the Frobenius endomorphism psi there (p = 6u^2 mod r on a BN twist): a fast subgroup test. */
export const SIX_U_SQUARED = 6n * BN_U_ABS * BN_U_ABS

export const G1 = weierstrass({ p: P, n: R, h: 1n, a: 0n, b: 2n, Gx: P - 1n, Gy: 1n }, { Fp, Fn: Fr })
export const G2 = weierstrass(
  { p: Fp2.ORDER, n: R, h: 2n * P - R, a: Fp2.ZERO, b: TWIST_B, Gx: G2_X, Gy: G2_Y },
  {
    Fp: Fp2,
    Fn: Fr,
    isTorsionFree: (c, point) => point.multiplyUnsafe(SIX_U_SQUARED).equals(frobenius.G2psi(c, point)),
  },
)
/** The Frobenius endomorphism psi of the twist, which is [p] = [6u^2] on G2. */
export function g2Psi(point: WeierstrassPoint<Fp2Element>): WeierstrassPoint<Fp2Element> {
  return frobenius.G2psi(G2, point)
}

/** Whether the projective point satisfies the twist's equation y^2 = x^3 + b'. */
export function isOnTwist(point: WeierstrassPoint<Fp2Element>): boolean {
  const { x, y } = point.toAffine()
  return Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), TWIST_B))
}

export type G1Point = WeierstrassPoint<bigint>
export type G2Point = WeierstrassPoint<Fp2Element>
export type { Fp2Element }

/**
 * The optimal-ate fix-up after the Miller loop over |6u + 2|: with u < 0 the loop value is conjugated (noble does
 * that after this hook), so the two extra lines are taken through -Q1 and Q2; conjugation turns them into the
 * lines through Q1 and -Q2 at the negated point, which is the fix-up Milagro applies.
 */
const postPrecompute: BlsPostPrecomputeFn = (Rx, Ry, Rz, Qx, Qy, pointAdd) => {
  const q1 = frobenius.psi(Qx, Qy)
  ;({ Rx, Ry, Rz } = pointAdd(Rx, Ry, Rz, q1[0], Fp2.neg(q1[1])))
  const q2 = frobenius.psi(q1[0], q1[1])
  pointAdd(Rx, Ry, Rz, q2[0], q2[1])
}

const pairingCurve = blsBasic({ Fp, Fr, Fp2, Fp6: tower.Fp6, Fp12: tower.Fp12 }, G1, G2, {
  ateLoopSize: 6n * BN_U_ABS - 2n, // |6u + 2| for u < 0
  xNegative: true,
  twistType: 'divisive',
  postPrecompute,
})

export type Gt = Fp12
type Precomputed = ReturnType<typeof pairingCurve.utils.calcPairingPrecomputes>

/** Miller-loop line coefficients of fixed G2 points (issuer keys), computed once per point object. */
const precomputes = new WeakMap<G2Point, Precomputed>()
function linesOf(point: G2Point): Precomputed {
  let lines = precomputes.get(point)
  if (!lines) {
    lines = pairingCurve.utils.calcPairingPrecomputes(point)
    precomputes.set(point, lines)
  }
  return lines
}

/**
 * The product of e(P_i, Q_i), one final exponentiation for all. A pair with a point at infinity contributes 1 (the
 * algebraic value; Milagro's ate returns 1 for it too).
 */
export function pairingProduct(pairs: Array<[G1Point, G2Point]>): Gt {
  const inputs: Array<[Precomputed, bigint, bigint]> = []
  for (const [p, q] of pairs) {
    if (p.is0() || q.is0()) continue
    const { x, y } = p.toAffine()
    inputs.push([linesOf(q), x, y])
  }
  if (inputs.length === 0) return Fp12Field.ONE
  return finalExponentiate(pairingCurve.millerLoopBatch(inputs))
}

export function pairing(p: G1Point, q: G2Point): Gt {
  return pairingProduct([[p, q]])
}

/**
 * GT exponentiation by a scalar modulo r (GT elements lie in the cyclotomic subgroup): 4-bit windows, so about 64
 * multiplications besides the cyclotomic squarings instead of 128.
 */
export function gtPow(value: Gt, exponent: bigint): Gt {
  const e = Fr.create(exponent)
  if (e === 0n) return Fp12Field.ONE
  const powers: Gt[] = [Fp12Field.ONE, value]
  for (let k = 2; k < 16; k++) powers.push(Fp12Field.mul(powers[k - 1], value))
  const digits = e.toString(16)
  let result = powers[parseInt(digits[0], 16)]
  for (let k = 1; k < digits.length; k++) {
    for (let s = 0; s < 4; s++) result = Fp12Field._cyclotomicSquare(result)
    const digit = parseInt(digits[k], 16)
    if (digit !== 0) result = Fp12Field.mul(result, powers[digit])
  }
  return result
}

export function gtMul(a: Gt, b: Gt): Gt {
  return Fp12Field.mul(a, b)
}

export function gtInverse(a: Gt): Gt {
  return Fp12Field.conjugate(a)
}

export function gtEquals(a: Gt, b: Gt): boolean {
  return Fp12Field.eql(a, b)
}

export function gtIsOne(a: Gt): boolean {
  return Fp12Field.eql(a, Fp12Field.ONE)
}

/**
 * Whether an Fp12 element lies in GT (order r). Cyclotomic elements satisfy g^(p^4 - p^2 + 1) = 1, that is
 * g^(p^4 + 1) = g^(p^2): the check anoncreds-clsignatures makes when it reads a pairing value.
 */
export function isGtElement(a: Gt): boolean {
  const F = Fp12Field
  if (F.is0(a)) return false
  const p2 = F.frobeniusMap(a, 2)
  const p4 = F.frobeniusMap(p2, 2)
  return F.eql(F.mul(p4, a), p2)
}
