/**
 * The tails of a registry, tail k = g'^(gamma^k), computed in bulk: a fixed-base comb over one precomputed table
 * T[j][d] = g'^(d 2^(wj)) (about 20 additions per tail for w = 10 or 11), all tails advancing window by window
 * together in affine coordinates, so that each window costs one field inversion for all tails (Montgomery's
 * trick) and an addition about six multiplications in Fp2 instead of a dozen in projective coordinates.
 *
 * `computeTails` is self-contained (bigint arithmetic only, no imports, no closures over module state): its source
 * text runs as is in worker threads (tails.ts). Variable-time, as any JS BigInt arithmetic; it runs once per registry,
 * in the issuer's process.
 */

export interface TailsKernelInput {
  /** The base field modulus p and the group order r. */
  p: bigint
  r: bigint
  /** g' in affine coordinates: x = x0 + x1 i, y = y0 + y1 i. */
  base: [bigint, bigint, bigint, bigint]
  gamma: bigint
  /** Tails `from` (inclusive) to `to` (exclusive); tail 0 and tail `secret` are g' itself. */
  from: number
  to: number
  secret: number
  windowBits: number
}

/** Tails from..to-1 as the tails file stores them: 128 bytes each (x0, x1, y0, y1 big-endian). */
export function computeTails(input: TailsKernelInput): Uint8Array {
  const { p, r, gamma, from, to, secret, windowBits: w } = input
  const invert = (v: bigint) => {
    // Fermat: v^(p-2) mod p.
    let result = 1n
    let b = v % p
    if (b < 0n) b += p
    let e = p - 2n
    while (e > 0n) {
      if (e & 1n) result = (result * b) % p
      b = (b * b) % p
      e >>= 1n
    }
    return result
  }
  /** Four coordinate arrays: x = x0 + x1 i, y = y0 + y1 i, each reduced into [0, p). */
  type Points = [bigint[], bigint[], bigint[], bigint[]]
  const points = (n: number): Points => [
    new Array<bigint>(n).fill(0n),
    new Array<bigint>(n).fill(0n),
    new Array<bigint>(n).fill(0n),
    new Array<bigint>(n).fill(0n),
  ]
  const norms: bigint[] = []
  const prefix: bigint[] = []
  /**
   * out[o[n]] = A[a[n]] + B[b[n]] for all n (affine, points distinct and not opposite), with one field inversion:
   * lambda = (yB - yA) / (xB - xA) = (yB - yA) conj(xB - xA) / N(xB - xA), the norms inverted together.
   */
  const addBatch = (A: Points, a: number[], B: Points, b: number[], out: Points, o: number[]) => {
    const n = a.length
    if (n === 0) return
    const [ax0, ax1, ay0, ay1] = A
    const [bx0, bx1, by0, by1] = B
    const [ox0, ox1, oy0, oy1] = out
    let acc = 1n
    for (let k = 0; k < n; k++) {
      const d0 = bx0[b[k]] - ax0[a[k]]
      const d1 = bx1[b[k]] - ax1[a[k]]
      const norm = (d0 * d0 + d1 * d1) % p
      if (norm === 0n) throw new RangeError('addition of equal or opposite points')
      norms[k] = norm
      acc = (acc * norm) % p
      prefix[k] = acc
    }
    let inv = invert(acc)
    for (let k = n - 1; k >= 0; k--) {
      const ni = k === 0 ? inv : (inv * prefix[k - 1]) % p
      inv = (inv * norms[k]) % p
      const i = a[k]
      const j = b[k]
      const x0 = ax0[i]
      const x1 = ax1[i]
      const y0 = ay0[i]
      const y1 = ay1[i]
      const u0 = bx0[j]
      const u1 = bx1[j]
      const d0 = u0 - x0
      const d1 = u1 - x1
      const e0 = by0[j] - y0
      const e1 = by1[j] - y1
      const l0 = ((e0 * d0 + e1 * d1) * ni) % p
      const l1 = ((e1 * d0 - e0 * d1) * ni) % p
      let nx0 = ((l0 + l1) * (l0 - l1) - x0 - u0) % p
      if (nx0 < 0n) nx0 += p
      let nx1 = (2n * l0 * l1 - x1 - u1) % p
      if (nx1 < 0n) nx1 += p
      const dx0 = x0 - nx0
      const dx1 = x1 - nx1
      let ny0 = (l0 * dx0 - l1 * dx1 - y0) % p
      if (ny0 < 0n) ny0 += p
      let ny1 = (l0 * dx1 + l1 * dx0 - y1) % p
      if (ny1 < 0n) ny1 += p
      const q = o[k]
      ox0[q] = nx0
      ox1[q] = nx1
      oy0[q] = ny0
      oy1[q] = ny1
    }
  }
  /** out[o[n]] = 2 A[a[n]] for all n (affine, a = 0): lambda = 3x^2 / 2y, one inversion for all. */
  const doubleBatch = (A: Points, a: number[], out: Points, o: number[]) => {
    const n = a.length
    const [ax0, ax1, ay0, ay1] = A
    const [ox0, ox1, oy0, oy1] = out
    let acc = 1n
    for (let k = 0; k < n; k++) {
      const d0 = 2n * ay0[a[k]]
      const d1 = 2n * ay1[a[k]]
      const norm = (d0 * d0 + d1 * d1) % p
      if (norm === 0n) throw new RangeError('doubling a point of order 2')
      norms[k] = norm
      acc = (acc * norm) % p
      prefix[k] = acc
    }
    let inv = invert(acc)
    for (let k = n - 1; k >= 0; k--) {
      const ni = k === 0 ? inv : (inv * prefix[k - 1]) % p
      inv = (inv * norms[k]) % p
      const i = a[k]
      const x0 = ax0[i]
      const x1 = ax1[i]
      const y0 = ay0[i]
      const y1 = ay1[i]
      const d0 = 2n * y0
      const d1 = 2n * y1
      const e0 = 3n * (x0 + x1) * (x0 - x1)
      const e1 = 6n * x0 * x1
      const l0 = ((e0 * d0 + e1 * d1) * ni) % p
      const l1 = ((e1 * d0 - e0 * d1) * ni) % p
      let nx0 = ((l0 + l1) * (l0 - l1) - 2n * x0) % p
      if (nx0 < 0n) nx0 += p
      let nx1 = (2n * l0 * l1 - 2n * x1) % p
      if (nx1 < 0n) nx1 += p
      const dx0 = x0 - nx0
      const dx1 = x1 - nx1
      let ny0 = (l0 * dx0 - l1 * dx1 - y0) % p
      if (ny0 < 0n) ny0 += p
      let ny1 = (l0 * dx1 + l1 * dx0 - y1) % p
      if (ny1 < 0n) ny1 += p
      const q = o[k]
      ox0[q] = nx0
      ox1[q] = nx1
      oy0[q] = ny0
      oy1[q] = ny1
    }
  }

  const bits = r.toString(2).length
  const windows = Math.ceil(bits / w)
  const digits = 1 << w
  // The table T[j * digits + d] = g'^(d 2^(wj)); d = 0 unused.
  const table = points(windows * digits)
  // T[j][1] = 2^(wj) g': a chain of doublings (a few hundred inversions in all).
  const chain = points(1)
  chain[0][0] = input.base[0]
  chain[1][0] = input.base[1]
  chain[2][0] = input.base[2]
  chain[3][0] = input.base[3]
  for (let j = 0; j < windows; j++) {
    for (let c = 0; c < 4; c++) table[c][j * digits + 1] = chain[c][0]
    if (j < windows - 1) for (let k = 0; k < w; k++) doubleBatch(chain, [0], chain, [0])
  }
  // Level m: T[j][2^m] = 2 T[j][2^(m-1)], then T[j][2^m + e] = T[j][e] + T[j][2^m] for e < 2^m; a batch each.
  for (let m = 1; m < w; m++) {
    const half = 1 << (m - 1)
    const full = 1 << m
    const from: number[] = []
    const into: number[] = []
    for (let j = 0; j < windows; j++) {
      from.push(j * digits + half)
      into.push(j * digits + full)
    }
    doubleBatch(table, from, table, into)
    const a: number[] = []
    const b: number[] = []
    const o: number[] = []
    for (let j = 0; j < windows; j++) {
      for (let e = 1; e < full; e++) {
        a.push(j * digits + e)
        b.push(j * digits + full)
        o.push(j * digits + full + e)
      }
    }
    addBatch(table, a, table, b, table, o)
  }

  // The scalars gamma^k mod r.
  const count = to - from
  const scalars = new Array<bigint>(count)
  let power = 1n
  {
    let b = gamma % r
    let e = BigInt(from)
    while (e > 0n) {
      if (e & 1n) power = (power * b) % r
      b = (b * b) % r
      e >>= 1n
    }
  }
  for (let k = 0; k < count; k++) {
    const index = from + k
    scalars[k] = index === 0 || index === secret ? 1n : power
    power = (power * gamma) % r
  }

  // Accumulators, window by window; `empty` until the first non-zero digit.
  const acc = points(count)
  const [ax0, ax1, ay0, ay1] = acc
  const [tx0, tx1, ty0, ty1] = table
  const empty = new Array<boolean>(count).fill(true)
  const mask = BigInt(digits - 1)
  const wb = BigInt(w)
  for (let j = 0; j < windows; j++) {
    const pending: number[] = []
    const entries: number[] = []
    const doubling: number[] = []
    const shift = wb * BigInt(j)
    for (let k = 0; k < count; k++) {
      const digit = Number((scalars[k] >> shift) & mask)
      if (digit === 0) continue
      const t = j * digits + digit
      if (empty[k]) {
        ax0[k] = tx0[t]
        ax1[k] = tx1[t]
        ay0[k] = ty0[t]
        ay1[k] = ty1[t]
        empty[k] = false
      } else if (tx0[t] === ax0[k] && tx1[t] === ax1[k]) {
        // The same point (double it) or its negation (the point at infinity); never met with real tails.
        if (ty0[t] === ay0[k] && ty1[t] === ay1[k]) doubling.push(k)
        else empty[k] = true
      } else {
        pending.push(k)
        entries.push(t)
      }
    }
    addBatch(acc, pending, table, entries, acc, pending)
    if (doubling.length > 0) doubleBatch(acc, doubling, acc, doubling)
  }

  const out = new Uint8Array(count * 128)
  const write = (offset: number, value: bigint) => {
    const hex = value.toString(16).padStart(64, '0')
    for (let i = 0; i < 32; i++) out[offset + i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  }
  for (let k = 0; k < count; k++) {
    if (empty[k]) {
      // Milagro's point at infinity (never a tail: gamma^k is not 0 modulo r).
      write(k * 128 + 64, 1n)
      continue
    }
    write(k * 128, ax0[k])
    write(k * 128 + 32, ax1[k])
    write(k * 128 + 64, ay0[k])
    write(k * 128 + 96, ay1[k])
  }
  return out
}

/** The window width with the fewest additions for `count` tails: table (windows x 2^w) plus count x windows. */
export function bestWindowBits(count: number, scalarBits: number): number {
  let best = 4
  let bestCost = Infinity
  for (let w = 4; w <= 14; w++) {
    const windows = Math.ceil(scalarBits / w)
    const cost = windows * (1 << w) + count * (windows - 1)
    if (cost < bestCost) {
      best = w
      bestCost = cost
    }
  }
  return best
}
