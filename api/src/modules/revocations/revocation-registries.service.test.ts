import { needsSuccessor, ROLLOVER_THRESHOLD } from './revocation-registries.service'

describe('needsSuccessor', () => {
  it('asks for the next registry from 80 % of the indices on, and with the last one', () => {
    expect(ROLLOVER_THRESHOLD).toBe(0.8)
    // A registry of 1,000 holds the indices 1 to 999: 80 % of them is index 800.
    expect(needsSuccessor({ index: 799, size: 1000, isLast: false })).toBe(false)
    expect(needsSuccessor({ index: 800, size: 1000, isLast: false })).toBe(true)
    expect(needsSuccessor({ index: 999, size: 1000, isLast: true })).toBe(true)
    // A registry of 8 (indices 1 to 7): from index 6 on.
    expect(needsSuccessor({ index: 5, size: 8, isLast: false })).toBe(false)
    expect(needsSuccessor({ index: 6, size: 8, isLast: false })).toBe(true)
    expect(needsSuccessor({ index: 1, size: 2, isLast: true })).toBe(true)
  })
})
