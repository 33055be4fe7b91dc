import { timeOrderedId } from './time-ordered-id'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('timeOrderedId', () => {
  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const now = Date.now() + 1000
    const id = timeOrderedId(now)
    expect(id).toMatch(UUID_V7)
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now)
  })

  it('sorts in the order the ids were made, within one millisecond and across many', () => {
    const start = Date.now() + 2000
    // 5000 ids in one millisecond (more than its sequence holds), then the next milliseconds, then the clock back.
    const times = [...Array<number>(5000).fill(start), start + 1, start + 1, start + 5, start + 3]
    const ids = times.map((time) => timeOrderedId(time))
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
    for (const id of ids) expect(id).toMatch(UUID_V7)
  })
})
