/**
 * The text and byte forms anoncreds-rs gives pairing-group values (those of Milagro's `to_hex`/`tobytes` as
 * anoncreds-clsignatures calls them).
 *
 * Text: every coordinate is an Fp element written `<excess> <hex>`, the hex being Milagro's internal Montgomery
 * form x*2^280 mod p, possibly unreduced (values up to 2^280, "excess" a small count of pending additions, meaning
 * nothing to the value). A G1 point is its projective (X, Y, Z) ("x/z, y/z"), 3 elements; a G2 point 6 (x.a x.b y.a
 * y.b z.a z.b); a GT element 12, in Milagro's tower order (Fp12 = a + b t + c t^2 over Fp4 = Fp2[s], t^3 = s,
 * s^2 = 1 + i). A scalar modulo r (GroupOrderElement) is plain big-endian hex, at least 64 digits.
 * We write affine points as anoncreds-rs does (z = 1 written with excess 2), hex upper case.
 *
 * Bytes (what the Fiat-Shamir hash and the tails file see): G1 128 bytes (0x04, x, y, zero padding), G2 128 bytes
 * (x.a, x.b, y.a, y.b), GT 512 bytes (the 12 coordinates, zero padding), all big-endian, normal (not Montgomery)
 * form of the affine coordinates.
 */
import {
  Fp,
  Fp12Field,
  Fp2,
  Fr,
  G1,
  G2,
  g2Psi,
  isGtElement,
  isOnTwist,
  P,
  SIX_U_SQUARED,
  type Fp2Element,
  type G1Point,
  type G2Point,
  type Gt,
} from './bn254'
import { g2Mul } from './multiply'

/** 2^280 mod p, Milagro's Montgomery radix (5 limbs of 56 bits). */
const MONTGOMERY_R = (1n << 280n) % P
const MONTGOMERY_R_INVERSE = Fp.inv(MONTGOMERY_R)
/** The widest coordinate Milagro's 5 x 56-bit BIG holds. */
const MAX_HEX_DIGITS = 70

export class EncodingError extends Error {
  public constructor(message: string) {
    super(message)
    this.name = 'EncodingError'
  }
}

const HEX = /^[0-9a-fA-F]+$/

function hexToBigint(hex: string, what: string): bigint {
  if (!HEX.test(hex) || hex.length > MAX_HEX_DIGITS) throw new EncodingError(`${what}: not a hexadecimal number`)
  return BigInt('0x' + hex)
}

/** Reads `count` coordinates `<excess> <hex>` (the excess a positive integer, as clsignatures pre-validates). */
function readCoordinates(text: unknown, count: number, what: string): bigint[] {
  if (typeof text !== 'string') throw new EncodingError(`${what}: expected a string`)
  const parts = text.split(/[ \t\n\r]+/).filter((part) => part.length > 0)
  if (parts.length !== count * 2) throw new EncodingError(`${what}: expected ${count} coordinates`)
  const values: bigint[] = []
  for (let i = 0; i < count; i++) {
    const excess = parts[2 * i]
    if (!/^[0-9]{1,10}$/.test(excess) || Number(excess) === 0 || Number(excess) > 0xffffffff)
      throw new EncodingError(`${what}: bad coordinate excess`)
    values.push(Fp.mul(Fp.create(hexToBigint(parts[2 * i + 1], what)), MONTGOMERY_R_INVERSE))
  }
  return values
}

function montgomeryHex(value: bigint): string {
  return Fp.mul(value, MONTGOMERY_R).toString(16).toUpperCase().padStart(64, '0')
}

const ONE_HEX = montgomeryHex(1n)
const ZERO_HEX = '0'.repeat(64)

export function parseG1(text: unknown, what: string, options: { allowInfinity?: boolean } = {}): G1Point {
  const [x, y, z] = readCoordinates(text, 3, what)
  if (z === 0n) {
    if (options.allowInfinity) return G1.ZERO
    throw new EncodingError(`${what}: the point at infinity`)
  }
  let point: G1Point
  try {
    point = new G1(x, y, z)
    point.assertValidity()
  } catch {
    throw new EncodingError(`${what}: not a point of the curve`)
  }
  return point
}

export function parseG2(text: unknown, what: string, options: { allowInfinity?: boolean } = {}): G2Point {
  const [xa, xb, ya, yb, za, zb] = readCoordinates(text, 6, what)
  const z = Fp2.create({ c0: za, c1: zb })
  if (Fp2.is0(z)) {
    if (options.allowInfinity) return G2.ZERO
    throw new EncodingError(`${what}: the point at infinity`)
  }
  let valid: boolean
  const point = new G2(Fp2.create({ c0: xa, c1: xb }), Fp2.create({ c0: ya, c1: yb }), z)
  try {
    // In the subgroup of order r: [6u^2] P = psi(P) (p = 6u^2 mod r on BN curves), with our quicker multiplication.
    valid = isOnTwist(point) && g2Mul(point, SIX_U_SQUARED).equals(g2Psi(point))
  } catch {
    valid = false
  }
  if (!valid) throw new EncodingError(`${what}: not a point of the group G2`)
  return point
}

/** Milagro's coordinate order a.a, a.b, b.a, b.b, c.a, c.b (each an Fp2) against noble's (c0.c0, c1.c0, c0.c1, ...). */
function gtFromMilagro(c: Fp2Element[]): Gt {
  const [a0, a1, b0, b1, c0, c1] = c
  return Fp12Field.create({
    c0: { c0: a0, c1: c0, c2: b1 },
    c1: { c0: b0, c1: a1, c2: c1 },
  })
}

function gtToMilagro(value: Gt): Fp2Element[] {
  const { c0, c1 } = value
  return [c0.c0, c1.c1, c1.c0, c0.c2, c0.c1, c1.c2]
}

export function parseGt(text: unknown, what: string): Gt {
  const coordinates = readCoordinates(text, 12, what)
  const pairs: Fp2Element[] = []
  for (let i = 0; i < 12; i += 2) pairs.push(Fp2.create({ c0: coordinates[i], c1: coordinates[i + 1] }))
  const value = gtFromMilagro(pairs)
  if (!isGtElement(value)) throw new EncodingError(`${what}: not an element of the pairing group`)
  return value
}

/** A scalar modulo r: hex, reduced modulo r as clsignatures' GroupOrderElement::from_string does. */
export function parseScalar(text: unknown, what: string): bigint {
  if (typeof text !== 'string') throw new EncodingError(`${what}: expected a string`)
  return Fr.create(hexToBigint(text, what))
}

export function formatScalar(value: bigint): string {
  return Fr.create(value).toString(16).toUpperCase().padStart(64, '0')
}

export function formatG1(point: G1Point): string {
  if (point.is0()) return `1 ${ZERO_HEX} 2 ${ONE_HEX} 1 ${ZERO_HEX}`
  const { x, y } = point.toAffine()
  return `1 ${montgomeryHex(x)} 1 ${montgomeryHex(y)} 2 ${ONE_HEX}`
}

export function formatG2(point: G2Point): string {
  if (point.is0()) return `1 ${ZERO_HEX} 1 ${ZERO_HEX} 2 ${ONE_HEX} 1 ${ZERO_HEX} 1 ${ZERO_HEX} 1 ${ZERO_HEX}`
  const { x, y } = point.toAffine()
  return [x.c0, x.c1, y.c0, y.c1].map((v) => `1 ${montgomeryHex(v)}`).join(' ') + ` 2 ${ONE_HEX} 1 ${ZERO_HEX}`
}

export function formatGt(value: Gt): string {
  return gtToMilagro(value)
    .flatMap((pair) => [pair.c0, pair.c1])
    .map((v) => `1 ${montgomeryHex(v)}`)
    .join(' ')
}

function writeField(target: Uint8Array, offset: number, value: bigint): void {
  let v = value
  for (let i = 31; i >= 0; i--) {
    target[offset + i] = Number(v & 0xffn)
    v >>= 8n
  }
}

export const G1_BYTES = 128
export const G2_BYTES = 128
export const GT_BYTES = 512

export function g1Bytes(point: G1Point): Uint8Array {
  const out = new Uint8Array(G1_BYTES)
  out[0] = 0x04
  if (point.is0()) {
    writeField(out, 33, 1n) // Milagro's infinity is (0, 1, 0)
    return out
  }
  const { x, y } = point.toAffine()
  writeField(out, 1, x)
  writeField(out, 33, y)
  return out
}

export function g2Bytes(point: G2Point): Uint8Array {
  const out = new Uint8Array(G2_BYTES)
  if (point.is0()) {
    writeField(out, 64, 1n)
    return out
  }
  const { x, y } = point.toAffine()
  writeField(out, 0, x.c0)
  writeField(out, 32, x.c1)
  writeField(out, 64, y.c0)
  writeField(out, 96, y.c1)
  return out
}

export function gtBytes(value: Gt): Uint8Array {
  const out = new Uint8Array(GT_BYTES)
  gtToMilagro(value).forEach((pair, k) => {
    writeField(out, 64 * k, pair.c0)
    writeField(out, 64 * k + 32, pair.c1)
  })
  return out
}
