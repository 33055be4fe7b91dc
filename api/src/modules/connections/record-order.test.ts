import fc from 'fast-check'
import { CONNECTION_ORDER, CONNECTION_STATES } from './connection.states'
import { decideUpdate, textOf, versionTimeOf, type RecordVersion } from './record-order'

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 24, 9, 0, seconds))
const version = (state: string, seconds: number): RecordVersion => ({ state, versionAt: at(seconds) })

describe('decideUpdate (connections)', () => {
  it('inserts the first event of a record', () => {
    expect(decideUpdate(CONNECTION_ORDER, null, version('request-received', 1))).toBe('insert')
  })

  it('applies a later state and ignores an earlier one arriving late', () => {
    expect(decideUpdate(CONNECTION_ORDER, version('request-received', 1), version('response-sent', 2))).toBe('apply')
    expect(decideUpdate(CONNECTION_ORDER, version('response-sent', 2), version('request-received', 1))).toBe('ignore')
  })

  it('ignores a repeated event and applies a newer write in the same state', () => {
    expect(decideUpdate(CONNECTION_ORDER, version('completed', 3), version('completed', 3))).toBe('ignore')
    expect(decideUpdate(CONNECTION_ORDER, version('completed', 3), version('completed', 4))).toBe('apply')
    expect(decideUpdate(CONNECTION_ORDER, version('request-sent', 3), version('request-sent', 2))).toBe('ignore')
  })

  it('never leaves a terminal state, even for a later timestamp', () => {
    expect(decideUpdate(CONNECTION_ORDER, version('completed', 3), version('response-received', 9))).toBe('ignore')
    expect(decideUpdate(CONNECTION_ORDER, version('abandoned', 3), version('completed', 9))).toBe('ignore')
    expect(decideUpdate(CONNECTION_ORDER, version('completed', 3), version('abandoned', 9))).toBe('ignore')
  })

  it('lets a known state replace an unknown one but never the reverse', () => {
    expect(decideUpdate(CONNECTION_ORDER, version('start', 1), version('something-new', 5))).toBe('ignore')
    expect(decideUpdate(CONNECTION_ORDER, version('something-new', 1), version('start', 0))).toBe('apply')
  })

  it('ends in the same record whatever order and repetition the events of one exchange arrive in', () => {
    const exchange = [
      version('invitation-sent', 0),
      version('request-received', 1),
      version('response-sent', 2),
      version('completed', 3),
    ]
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: exchange.length - 1 }), { minLength: 1, maxLength: 12 }),
        (indexes) => {
          const deliveries = [...indexes, ...exchange.map((_, index) => index)]
          let stored: RecordVersion | null = null
          let applied = 0
          for (const index of deliveries) {
            const decision = decideUpdate(CONNECTION_ORDER, stored, exchange[index])
            if (decision !== 'ignore') {
              stored = exchange[index]
              applied++
            }
          }
          expect(stored).toEqual(exchange[exchange.length - 1])
          // Never more changes than the exchange has states.
          expect(applied).toBeLessThanOrEqual(exchange.length)
        },
      ),
    )
  })

  it('ranks every DID Exchange state', () => {
    for (const state of CONNECTION_STATES) expect(CONNECTION_ORDER.rank(state)).toBeGreaterThanOrEqual(0)
  })
})

describe('versionTimeOf and textOf', () => {
  it("takes the record's updatedAt, then createdAt, then the event's time", () => {
    const occurredAt = '2026-11-24T09:00:30.000Z'
    expect(versionTimeOf({ updatedAt: '2026-11-24T09:00:10.000Z' }, occurredAt)).toEqual(at(10))
    expect(versionTimeOf({ createdAt: '2026-11-24T09:00:05.000Z', updatedAt: 'garbage' }, occurredAt)).toEqual(at(5))
    expect(versionTimeOf({}, occurredAt)).toEqual(at(30))
  })

  it('drops NUL characters and cuts text to the column width', () => {
    expect(textOf({ theirLabel: 'a\u0000b' }, 'theirLabel', 10)).toBe('ab')
    expect(textOf({ theirLabel: 'abcdef' }, 'theirLabel', 3)).toBe('abc')
    expect(textOf({ theirLabel: 42 }, 'theirLabel', 3)).toBeNull()
  })
})
