/**
 * Writes a non-negative 32-bit integer as a sum of four squares (Lagrange): the inequality proof commits to
 * the four roots. Any decomposition is sound; this one searches from the largest first root down, which ends
 * after a few steps for every value (numbers that are not a sum of three squares are rare and need a
 * smaller first root, found within a handful of tries).
 */
export function fourSquares(delta: number): [bigint, bigint, bigint, bigint] {
  if (!Number.isSafeInteger(delta) || delta < 0 || delta > 2 ** 32) {
    throw new RangeError('four-square decomposition needs an integer in [0, 2^32]')
  }
  for (let a = Math.floor(Math.sqrt(delta)); a >= 0; a--) {
    const rest = threeSquares(delta - a * a)
    if (rest) return [BigInt(a), BigInt(rest[0]), BigInt(rest[1]), BigInt(rest[2])]
  }
  /* c8 ignore next */
  throw new RangeError(`no four-square decomposition found for ${delta}`)
}

function isqrt(n: number): number {
  let root = Math.floor(Math.sqrt(n))
  while (root * root > n) root--
  while ((root + 1) * (root + 1) <= n) root++
  return root
}

// A number of the form 4^k(8m+7) is not a sum of three squares; skipping it saves the inner search.
function isSumOfThreeSquares(n: number): boolean {
  while (n > 0 && n % 4 === 0) n /= 4
  return n % 8 !== 7
}

function threeSquares(n: number): [number, number, number] | undefined {
  if (!isSumOfThreeSquares(n)) return undefined
  for (let b = isqrt(n); b >= 0; b--) {
    const rest = n - b * b
    // Sum of two squares: search c from the top; stop once c < d would repeat pairs.
    for (let c = isqrt(rest); c * c * 2 >= rest; c--) {
      const d = isqrt(rest - c * c)
      if (c * c + d * d === rest) return [b, c, d]
    }
  }
  return undefined
}
