import { proofTransition } from './proof.states'

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, seconds))
const version = (state: string, seconds: number) => ({ state, updatedAt: at(seconds) })

describe('proofTransition', () => {
  it('creates a record it has not seen, unless the state is unknown', () => {
    expect(proofTransition(null, version('request-sent', 1))).toBe('create')
    expect(proofTransition(null, version('presentation-received', 1))).toBe('create')
    expect(proofTransition(null, version('teleported', 1))).toBe('ignore')
  })

  it('moves forward through the exchange', () => {
    expect(proofTransition(version('request-sent', 1), version('presentation-received', 2))).toBe('advance')
    expect(proofTransition(version('presentation-received', 2), version('done', 3))).toBe('advance')
    expect(proofTransition(version('request-sent', 1), version('abandoned', 2))).toBe('advance')
  })

  it('skips states it missed (a late event of an earlier state is then ignored)', () => {
    expect(proofTransition(version('request-sent', 1), version('done', 3))).toBe('advance')
    expect(proofTransition(version('done', 3), version('presentation-received', 2))).toBe('ignore')
  })

  it('never moves backwards, even with a newer timestamp', () => {
    expect(proofTransition(version('presentation-received', 2), version('request-sent', 9))).toBe('ignore')
  })

  it('never leaves a terminal state', () => {
    expect(proofTransition(version('done', 3), version('abandoned', 9))).toBe('ignore')
    expect(proofTransition(version('abandoned', 3), version('done', 9))).toBe('ignore')
    expect(proofTransition(version('declined', 3), version('request-sent', 9))).toBe('ignore')
  })

  it('refreshes the same state only with newer data; a repeated event changes nothing', () => {
    expect(proofTransition(version('done', 3), version('done', 4))).toBe('refresh')
    expect(proofTransition(version('done', 3), version('done', 3))).toBe('ignore')
    expect(proofTransition(version('request-sent', 3), version('request-sent', 2))).toBe('ignore')
  })

  it('replaces a state of the same step only with a newer version', () => {
    expect(proofTransition(version('request-sent', 1), version('request-received', 2))).toBe('advance')
    expect(proofTransition(version('request-sent', 2), version('request-received', 1))).toBe('ignore')
  })

  it('applies any order of a run of events to the last state', () => {
    const run = [version('request-sent', 1), version('presentation-received', 2), version('done', 3)]
    const orders = [
      [0, 1, 2],
      [2, 1, 0],
      [1, 0, 2],
      [1, 2, 0],
      [0, 2, 1],
      [2, 0, 1],
    ]
    for (const order of orders) {
      let current: ReturnType<typeof version> | null = null
      for (const index of [...order, ...order]) {
        const incoming = run[index]
        const transition = proofTransition(current, incoming)
        if (transition !== 'ignore') current = incoming
      }
      expect(current?.state).toBe('done')
    }
  })
})
