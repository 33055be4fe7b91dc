/**
 * Scalar multiplication on G1 and G2 and sums of multiples, sum s_i P_i, by Straus' method: one chain of doublings
 * shared by all terms, each scalar in width-5 NAF against a table of odd multiples of its point, in Jacobian
 * coordinates with mixed additions (a = 0: doubling 2M + 5S, mixed addition 7M + 4S, over Fp for G1 and Fp2 for G2).
 * The non-revocation proof is a few dozen such sums of two to five terms; this is several times quicker than
 * `@noble/curves`' generic multiplication per term. Variable-time, as all BigInt arithmetic of this library (the CL
 * proofs' modPow included).
 */
import { Fp, G1, G2, P, R, type G1Point, type G2Point } from './bn254'

type Jacobian = [bigint, bigint, bigint]

const INFINITY: Jacobian = [1n, 1n, 0n]
const WINDOW = 5

function mod(v: bigint): bigint {
  const m = v % P
  return m < 0n ? m + P : m
}

function double([x, y, z]: Jacobian): Jacobian {
  if (z === 0n || y === 0n) return INFINITY
  const a = (x * x) % P
  const b = (y * y) % P
  const c = (b * b) % P
  const xb = x + b
  const d = mod(2n * (xb * xb - a - c))
  const e = 3n * a
  const f = (e * e) % P
  const x3 = mod(f - 2n * d)
  const y3 = mod(e * (d - x3) - 8n * c)
  const z3 = (2n * y * z) % P
  return [x3, y3, z3]
}

/** P + Q with Q affine (qx, qy); complete: doubling when P = Q, infinity when P = -Q. */
function addMixed(p: Jacobian, qx: bigint, qy: bigint): Jacobian {
  const [x1, y1, z1] = p
  if (z1 === 0n) return [qx, qy, 1n]
  const z1z1 = (z1 * z1) % P
  const u2 = (qx * z1z1) % P
  const s2 = (((qy * z1) % P) * z1z1) % P
  const h = mod(u2 - x1)
  const r = mod(2n * (s2 - y1))
  if (h === 0n) return r === 0n ? double(p) : INFINITY
  const hh = (h * h) % P
  const i = 4n * hh
  const j = (h * i) % P
  const v = (x1 * i) % P
  const x3 = mod(r * r - j - 2n * v)
  const y3 = mod(r * (v - x3) - 2n * y1 * j)
  const zh = z1 + h
  const z3 = mod(zh * zh - z1z1 - hh)
  return [x3, y3, z3]
}

/** Affine points of the Jacobian ones (none at infinity), one field inversion for all. */
function toAffineBatch(points: Jacobian[]): Array<[bigint, bigint]> {
  const prefix: bigint[] = []
  let acc = 1n
  for (const [, , z] of points) {
    acc = (acc * z) % P
    prefix.push(acc)
  }
  let inv = Fp.inv(acc)
  const out: Array<[bigint, bigint]> = new Array(points.length)
  for (let k = points.length - 1; k >= 0; k--) {
    const zInv = k === 0 ? inv : (inv * prefix[k - 1]) % P
    inv = (inv * points[k][2]) % P
    const zInv2 = (zInv * zInv) % P
    out[k] = [(points[k][0] * zInv2) % P, (((points[k][1] * zInv2) % P) * zInv) % P]
  }
  return out
}

/** Width-5 NAF digits, least significant first: odd digits in (-2^(w-1), 2^(w-1)), zeros between. */
function naf(scalar: bigint): Int8Array {
  const digits = new Int8Array(R.toString(2).length + 2)
  let k = scalar
  const window = 1n << BigInt(WINDOW)
  const half = 1n << BigInt(WINDOW - 1)
  for (let i = 0; k > 0n; i++) {
    if (k & 1n) {
      let d = k % window
      if (d >= half) d -= window
      digits[i] = Number(d)
      k -= d
    }
    k >>= 1n
  }
  return digits
}

/** sum of s_i P_i (scalars reduced modulo r; zero scalars and points at infinity skipped). */
export function g1Msm(terms: ReadonlyArray<readonly [G1Point, bigint]>): G1Point {
  const bases: G1Point[] = []
  const digits: Int8Array[] = []
  for (const [point, scalar] of terms) {
    const s = ((scalar % R) + R) % R
    if (s === 0n || point.is0()) continue
    bases.push(point)
    digits.push(naf(s))
  }
  if (bases.length === 0) return G1.ZERO
  // Odd multiples P, 3P, ..., (2^(w-1) - 1)P of every base, made affine together.
  const oddCount = 1 << (WINDOW - 2)
  const jacobian: Jacobian[] = []
  for (const base of bases) {
    const { x, y } = base.toAffine()
    const twice = double([x, y, 1n])
    const [tx, ty] = twice[2] === 0n ? [0n, 0n] : toAffineBatch([twice])[0]
    let current: Jacobian = [x, y, 1n]
    jacobian.push(current)
    for (let k = 1; k < oddCount; k++) {
      current = twice[2] === 0n ? current : addMixed(current, tx, ty)
      jacobian.push(current)
    }
  }
  // A multiple at infinity only happens for a point of small order, which G1 (prime order) does not have.
  if (jacobian.some(([, , z]) => z === 0n)) throw new RangeError('a multiple of a base is the point at infinity')
  const table = toAffineBatch(jacobian)
  let acc: Jacobian = INFINITY
  const length = digits[0].length
  for (let i = length - 1; i >= 0; i--) {
    acc = double(acc)
    for (let b = 0; b < bases.length; b++) {
      const d = digits[b][i]
      if (d === 0) continue
      const [x, y] = table[b * oddCount + ((Math.abs(d) - 1) >> 1)]
      acc = addMixed(acc, x, d > 0 ? y : mod(-y))
    }
  }
  if (acc[2] === 0n) return G1.ZERO
  // Jacobian (X, Y, Z) is the projective (X Z, Y, Z^3) of noble's points.
  const [x, y, z] = acc
  return new G1((x * z) % P, y, (((z * z) % P) * z) % P)
}

/** point^scalar on G1 (any scalar, reduced modulo r). */
export function g1Mul(point: G1Point, scalar: bigint): G1Point {
  return g1Msm([[point, scalar]])
}

// G2: the same over Fp2 = Fp[i]/(i^2 + 1), elements as pairs [c0, c1] of bigints in [0, p).
type F2 = [bigint, bigint]
type Jacobian2 = [F2, F2, F2]

const ZERO2: F2 = [0n, 0n]
const ONE2: F2 = [1n, 0n]
const INFINITY2: Jacobian2 = [ONE2, ONE2, ZERO2]

const isZero2 = (a: F2) => a[0] === 0n && a[1] === 0n
const add2 = (a: F2, b: F2): F2 => [mod(a[0] + b[0]), mod(a[1] + b[1])]
const sub2 = (a: F2, b: F2): F2 => [mod(a[0] - b[0]), mod(a[1] - b[1])]
const small2 = (k: bigint, a: F2): F2 => [mod(k * a[0]), mod(k * a[1])]

function mul2(a: F2, b: F2): F2 {
  const t0 = a[0] * b[0]
  const t1 = a[1] * b[1]
  return [mod(t0 - t1), mod((a[0] + a[1]) * (b[0] + b[1]) - t0 - t1)]
}

function sqr2(a: F2): F2 {
  return [mod((a[0] + a[1]) * (a[0] - a[1])), mod(2n * a[0] * a[1])]
}

function double2([x, y, z]: Jacobian2): Jacobian2 {
  if (isZero2(z) || isZero2(y)) return INFINITY2
  const a = sqr2(x)
  const b = sqr2(y)
  const c = sqr2(b)
  const d = small2(2n, sub2(sub2(sqr2(add2(x, b)), a), c))
  const e = small2(3n, a)
  const x3 = sub2(sqr2(e), small2(2n, d))
  const y3 = sub2(mul2(e, sub2(d, x3)), small2(8n, c))
  const z3 = small2(2n, mul2(y, z))
  return [x3, y3, z3]
}

function addMixed2(p: Jacobian2, qx: F2, qy: F2): Jacobian2 {
  const [x1, y1, z1] = p
  if (isZero2(z1)) return [qx, qy, ONE2]
  const z1z1 = sqr2(z1)
  const u2 = mul2(qx, z1z1)
  const s2 = mul2(mul2(qy, z1), z1z1)
  const h = sub2(u2, x1)
  const r = small2(2n, sub2(s2, y1))
  if (isZero2(h)) return isZero2(r) ? double2(p) : INFINITY2
  const hh = sqr2(h)
  const i = small2(4n, hh)
  const j = mul2(h, i)
  const v = mul2(x1, i)
  const x3 = sub2(sub2(sqr2(r), j), small2(2n, v))
  const y3 = sub2(mul2(r, sub2(v, x3)), small2(2n, mul2(y1, j)))
  const z3 = sub2(sub2(sqr2(add2(z1, h)), z1z1), hh)
  return [x3, y3, z3]
}

/** 1/a in Fp2: conj(a) / (a0^2 + a1^2). */
function inv2(a: F2): F2 {
  const n = Fp.inv(mod(a[0] * a[0] + a[1] * a[1]))
  return [mod(a[0] * n), mod(-a[1] * n)]
}

function toAffineBatch2(points: Jacobian2[]): Array<[F2, F2]> {
  const prefix: F2[] = []
  let acc = ONE2
  for (const [, , z] of points) {
    acc = mul2(acc, z)
    prefix.push(acc)
  }
  let inv = inv2(acc)
  const out: Array<[F2, F2]> = new Array(points.length)
  for (let k = points.length - 1; k >= 0; k--) {
    const zInv = k === 0 ? inv : mul2(inv, prefix[k - 1])
    inv = mul2(inv, points[k][2])
    const zInv2 = sqr2(zInv)
    out[k] = [mul2(points[k][0], zInv2), mul2(mul2(points[k][1], zInv2), zInv)]
  }
  return out
}

/** sum of s_i P_i on G2 (scalars reduced modulo r; zero scalars and points at infinity skipped). */
export function g2Msm(terms: ReadonlyArray<readonly [G2Point, bigint]>): G2Point {
  const bases: G2Point[] = []
  const digits: Int8Array[] = []
  for (const [point, scalar] of terms) {
    const s = ((scalar % R) + R) % R
    if (s === 0n || point.is0()) continue
    bases.push(point)
    digits.push(naf(s))
  }
  if (bases.length === 0) return G2.ZERO
  const oddCount = 1 << (WINDOW - 2)
  const jacobian: Jacobian2[] = []
  for (const base of bases) {
    const { x, y } = base.toAffine()
    const start: Jacobian2 = [[x.c0, x.c1], [y.c0, y.c1], ONE2]
    const twice = double2(start)
    // G2 points have prime order r (the readers check the subgroup): no small multiple is at infinity.
    if (isZero2(twice[2])) throw new RangeError('a base of order 2')
    const [tx, ty] = toAffineBatch2([twice])[0]
    let current = start
    jacobian.push(current)
    for (let k = 1; k < oddCount; k++) {
      current = addMixed2(current, tx, ty)
      jacobian.push(current)
    }
  }
  if (jacobian.some(([, , z]) => isZero2(z))) throw new RangeError('a multiple of a base is the point at infinity')
  const table = toAffineBatch2(jacobian)
  let acc = INFINITY2
  const length = digits[0].length
  for (let i = length - 1; i >= 0; i--) {
    acc = double2(acc)
    for (let b = 0; b < bases.length; b++) {
      const d = digits[b][i]
      if (d === 0) continue
      const [x, y] = table[b * oddCount + ((Math.abs(d) - 1) >> 1)]
      acc = addMixed2(acc, x, d > 0 ? y : [mod(-y[0]), mod(-y[1])])
    }
  }
  if (isZero2(acc[2])) return G2.ZERO
  // Jacobian (X, Y, Z) is the projective (X Z, Y, Z^3) of noble's points.
  const [x, y, z] = acc
  const fp2 = (a: F2) => ({ c0: a[0], c1: a[1] })
  return new G2(fp2(mul2(x, z)), fp2(y), fp2(mul2(sqr2(z), z)))
}

/** point^scalar on G2 (any scalar, reduced modulo r). */
export function g2Mul(point: G2Point, scalar: bigint): G2Point {
  return g2Msm([[point, scalar]])
}

/** An affine G2 point as four coordinates: x = x0 + x1 i, y = y0 + y1 i (what a tails file stores). */
export type AffineG2 = readonly [bigint, bigint, bigint, bigint]

/**
 * start + sum of the added points - sum of the subtracted ones, all affine (tails): one mixed addition each, about
 * a quarter of a generic projective addition.
 */
export function g2SumAffine(start: G2Point, added: Iterable<AffineG2>, subtracted: Iterable<AffineG2> = []): G2Point {
  let acc: Jacobian2 = INFINITY2
  if (!start.is0()) {
    const { x, y } = start.toAffine()
    acc = [[x.c0, x.c1], [y.c0, y.c1], ONE2]
  }
  for (const [x0, x1, y0, y1] of added) acc = addMixed2(acc, [x0, x1], [y0, y1])
  for (const [x0, x1, y0, y1] of subtracted) acc = addMixed2(acc, [x0, x1], [mod(-y0), mod(-y1)])
  if (isZero2(acc[2])) return G2.ZERO
  const [x, y, z] = acc
  const fp2 = (a: F2) => ({ c0: a[0], c1: a[1] })
  return new G2(fp2(mul2(x, z)), fp2(y), fp2(mul2(sqr2(z), z)))
}
