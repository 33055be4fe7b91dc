/**
 * Our scalar multiplication (Straus, Jacobian coordinates) against @noble/curves' generic one, its edge cases, and
 * the G2 subgroup check built on it.
 */
import { Fp2, G1, G2, R } from './bn254'
import { EncodingError, formatG2, parseG2 } from './encoding'
import { randomScalar } from './keys'
import { g1Msm, g1Mul, g2Msm, g2Mul } from './multiply'

describe('scalar multiplication', () => {
  const g1 = [0, 1, 2, 3, 4].map(() => G1.BASE.multiply(randomScalar()))
  const g2 = [0, 1, 2].map(() => G2.BASE.multiply(randomScalar()))

  it('equals the generic multiplication, for single terms and sums', () => {
    for (let count = 1; count <= 5; count++) {
      const terms = g1.slice(0, count).map((point) => [point, randomScalar()] as const)
      const expected = terms.reduce((sum, [point, scalar]) => sum.add(point.multiply(scalar)), G1.ZERO)
      expect(g1Msm(terms).equals(expected)).toBe(true)
    }
    for (let count = 1; count <= 3; count++) {
      const terms = g2.slice(0, count).map((point) => [point, randomScalar()] as const)
      const expected = terms.reduce((sum, [point, scalar]) => sum.add(point.multiply(scalar)), G2.ZERO)
      expect(g2Msm(terms).equals(expected)).toBe(true)
    }
  })

  it('handles zero, negative and reduced scalars, repeated and opposite points, infinity', () => {
    const [p] = g1
    const [q] = g2
    expect(g1Mul(p, 0n).is0()).toBe(true)
    expect(g1Mul(p, R).is0()).toBe(true)
    expect(g1Mul(p, -1n).equals(p.negate())).toBe(true)
    expect(g1Mul(p, R + 2n).equals(p.double())).toBe(true)
    expect(
      g1Msm([
        [p, 5n],
        [p, 7n],
      ]).equals(p.multiply(12n)),
    ).toBe(true)
    expect(
      g1Msm([
        [p, 3n],
        [p.negate(), 3n],
      ]).is0(),
    ).toBe(true)
    expect(g1Msm([[G1.ZERO, 5n]]).is0()).toBe(true)
    expect(g1Msm([]).is0()).toBe(true)
    expect(g2Mul(q, R - 1n).equals(q.negate())).toBe(true)
    expect(
      g2Msm([
        [q, 9n],
        [q, 4n],
      ]).equals(q.multiply(13n)),
    ).toBe(true)
    expect(
      g2Msm([
        [q, 2n],
        [q.negate(), 2n],
      ]).is0(),
    ).toBe(true)
    expect(g2Mul(G2.ZERO, 3n).is0()).toBe(true)
  })

  it('refuses twist points outside the subgroup of order r when reading G2', () => {
    let refused = 0
    for (let k = 1n; refused < 3; k++) {
      const x = Fp2.create({ c0: k, c1: 1n })
      let y
      try {
        y = Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(x), x), G2.CURVE().b))
      } catch {
        continue // not on the twist
      }
      expect(() => parseG2(formatG2(G2.fromAffine({ x, y })), 'point')).toThrow(EncodingError)
      refused++
    }
    expect(parseG2(formatG2(g2[0]), 'point').equals(g2[0])).toBe(true)
  })
})
