import type { TagsBase } from '@credo-ts/core'

import type { TagQuery } from './query-to-sql'
import { EVICTED_RELOAD_DELAY_MS, type MirroredRow, RecordMirror, rowCost } from './record-mirror'

const row = (id: string, tags: TagsBase): MirroredRow => ({ id, json: JSON.stringify({ id }), tags })
const ids = (rows: readonly MirroredRow[]) => rows.map((found) => found.id)

function aLoadedMirror(rows: MirroredRow[], limits = { maxBytes: 1 << 20, maxRowsPerScope: 100 }) {
  const mirror = new RecordMirror(limits)
  mirror.install('ctx', 'T', rows, mirror.version('ctx', 'T'))
  return mirror
}

describe('RecordMirror', () => {
  it('does not install a load that overlapped a write to its scope', () => {
    const mirror = new RecordMirror()
    const seen = mirror.version('ctx', 'T')
    mirror.written('ctx', 'T', 'x', row('x', {}))
    mirror.install('ctx', 'T', [], seen)
    expect(mirror.scope('ctx', 'T')).toBeUndefined()
    mirror.install('ctx', 'T', [row('x', {})], mirror.version('ctx', 'T'))
    expect(ids([...(mirror.scope('ctx', 'T')?.rows.values() ?? [])])).toEqual(['x'])
  })

  it('keeps insertion order across updates, as the seq column does', () => {
    const mirror = aLoadedMirror([row('a', { s: '1' }), row('b', { s: '1' })])
    mirror.written('ctx', 'T', 'c', row('c', { s: '1' }))
    mirror.written('ctx', 'T', 'a', row('a', { s: '1', updated: true }))
    expect(ids(mirror.scope('ctx', 'T')?.find({ s: '1' }) ?? [])).toEqual(['a', 'b', 'c'])
    expect(ids(mirror.scope('ctx', 'T')?.find({}) ?? [])).toEqual(['a', 'b', 'c'])
  })

  it('finds through its index with the SQL semantics, and follows tag changes and deletes', () => {
    const mirror = aLoadedMirror([
      row('a', { state: 'done', keys: ['k1', 'k2'], flag: true }),
      row('b', { state: 'done', keys: ['k2'], flag: false }),
      row('c', { state: 'offer-sent', keys: [] }),
      row('s', { keys: 'k1' }),
    ])
    const find = (query: TagQuery) => ids(mirror.scope('ctx', 'T')?.find(query) ?? [])
    expect(find({ keys: ['k2'] })).toEqual(['a', 'b'])
    expect(find({ keys: 'k1' })).toEqual(['s']) // a scalar query never matches an array tag
    expect(find({ keys: ['k1'] })).toEqual(['a'])
    expect(find({ flag: false })).toEqual(['b'])
    expect(find({ $or: [{ state: 'offer-sent' }, { flag: true }] })).toEqual(['a', 'c'])
    expect(find({ $or: [{ state: 'offer-sent' }, {}] })).toEqual(['a', 'b', 'c', 's'])
    expect(find({ $and: [{ state: 'done' }, { $not: { flag: true } }] })).toEqual(['b'])
    expect(find({ state: 'missing' })).toEqual([])
    mirror.written('ctx', 'T', 'b', row('b', { state: 'abandoned' }))
    expect(find({ state: 'done' })).toEqual(['a'])
    expect(find({ keys: ['k2'] })).toEqual(['a'])
    mirror.written('ctx', 'T', 'a', undefined)
    expect(find({ state: 'done' })).toEqual([])
  })

  it('refuses a scope larger than its row limit, and drops one that grows past it', () => {
    const limits = { maxBytes: 1 << 20, maxRowsPerScope: 2 }
    const mirror = aLoadedMirror([row('a', {}), row('b', {}), row('c', {})], limits)
    expect(mirror.scope('ctx', 'T')).toBeUndefined()
    expect(mirror.mayLoad('ctx', 'T')).toBe(false)

    mirror.install('ctx', 'U', [row('a', {}), row('b', {})], mirror.version('ctx', 'U'))
    mirror.written('ctx', 'U', 'c', row('c', {}))
    expect(mirror.scope('ctx', 'U')).toBeUndefined()
    expect(mirror.mayLoad('ctx', 'U')).toBe(false)
  })

  it('drops the least recently used scopes beyond its byte budget', () => {
    const big = (id: string): MirroredRow => ({ id, json: 'x'.repeat(400), tags: {} })
    const mirror = new RecordMirror({ maxBytes: 2.5 * rowCost(big('a')), maxRowsPerScope: 100 })
    mirror.install('ctx', 'A', [big('a')], 0)
    mirror.install('ctx', 'B', [big('b')], 0)
    mirror.scope('ctx', 'A') // A is now the most recently used
    mirror.install('ctx', 'C', [big('c')], 0)
    expect(mirror.scope('ctx', 'B')).toBeUndefined()
    expect(mirror.scope('ctx', 'A')).toBeDefined()
    expect(mirror.scope('ctx', 'C')).toBeDefined()
  })

  it('counts the tags of a row and their index entries against the budget, not only its JSON', () => {
    const tagged = (id: string): MirroredRow => ({
      id,
      json: 'x'.repeat(100),
      tags: { threadId: 't'.repeat(300), roles: ['a'.repeat(100), 'b'.repeat(100)] },
    })
    expect(rowCost(tagged('a'))).toBeGreaterThan(100 + 2 * 500)
    // Three rows' JSON fits the budget many times over; their tags do not.
    const mirror = new RecordMirror({ maxBytes: 2.5 * rowCost(tagged('a')), maxRowsPerScope: 100 })
    mirror.install('ctx', 'A', [tagged('a')], 0)
    mirror.install('ctx', 'B', [tagged('b')], 0)
    mirror.install('ctx', 'C', [tagged('c')], 0)
    expect(mirror.scope('ctx', 'A')).toBeUndefined()
    expect(mirror.scope('ctx', 'B')).toBeDefined()
    expect(mirror.scope('ctx', 'C')).toBeDefined()
  })

  it('serves a scope larger than half its byte budget by SQL, and drops one that grows past that', () => {
    const big = (id: string): MirroredRow => ({ id, json: 'x'.repeat(400), tags: {} })
    const mirror = new RecordMirror({ maxBytes: 3.5 * rowCost(big('a')), maxRowsPerScope: 100 })
    mirror.install('ctx', 'A', [big('a'), big('b')], 0)
    expect(mirror.scope('ctx', 'A')).toBeUndefined()
    expect(mirror.mayLoad('ctx', 'A')).toBe(false)

    mirror.install('ctx', 'B', [big('a')], 0)
    expect(mirror.written('ctx', 'B', 'b', big('b'))).toBeUndefined()
    expect(mirror.scope('ctx', 'B')).toBeUndefined()
    expect(mirror.mayLoad('ctx', 'B')).toBe(false)
  })

  it('does not load a scope dropped for room again until a while later', () => {
    let now = 1_000
    const big = (id: string): MirroredRow => ({ id, json: 'x'.repeat(400), tags: {} })
    const mirror = new RecordMirror({ maxBytes: 2.5 * rowCost(big('a')), maxRowsPerScope: 100 }, () => now)
    mirror.install('ctx', 'A', [big('a')], 0)
    mirror.install('ctx', 'B', [big('b')], 0)
    mirror.install('ctx', 'C', [big('c')], 0)
    expect(mirror.scope('ctx', 'A')).toBeUndefined()
    expect(mirror.mayLoad('ctx', 'A')).toBe(false)
    now += EVICTED_RELOAD_DELAY_MS - 1
    expect(mirror.mayLoad('ctx', 'A')).toBe(false)
    now += 1
    expect(mirror.mayLoad('ctx', 'A')).toBe(true)
    // Dropping the context forgets the delay with everything else.
    mirror.install('ctx', 'A', [big('a')], mirror.version('ctx', 'A'))
    expect(mirror.mayLoad('ctx', 'B')).toBe(false)
    mirror.dropContext('ctx')
    expect(mirror.mayLoad('ctx', 'B')).toBe(true)
  })

  it('loads each of several scopes read in turn a bounded number of times when together they exceed the budget', () => {
    let now = 0
    const big = (id: string): MirroredRow => ({ id, json: 'x'.repeat(400), tags: {} })
    const mirror = new RecordMirror({ maxBytes: 2.5 * rowCost(big('a')), maxRowsPerScope: 100 }, () => now)
    // The service's read of a type: the mirror's scope, else a load when the mirror allows one, else SQL.
    const loads = new Map<string, number>()
    const read = (type: string) => {
      if (mirror.scope('ctx', type) || !mirror.mayLoad('ctx', type)) return
      loads.set(type, (loads.get(type) ?? 0) + 1)
      mirror.install('ctx', type, [big(type)], mirror.version('ctx', type))
    }
    // An exchange's steps read the types in turn, one step every 10 ms for two minutes.
    for (let step = 0; step < 12_000; step++, now += 10) read(['A', 'B', 'C'][step % 3])
    // Without the delay each read loaded its type again: 4,000 loads a type.
    for (const type of ['A', 'B', 'C'])
      expect(loads.get(type)).toBeLessThanOrEqual(1 + 120_000 / EVICTED_RELOAD_DELAY_MS)
  })

  it('keeps its count of bytes when a row is replaced or removed', () => {
    const mirror = new RecordMirror({ maxBytes: 2.5 * rowCost(row('a', { k: 'v'.repeat(50) })), maxRowsPerScope: 100 })
    mirror.install('ctx', 'A', [row('a', { k: 'v'.repeat(50) })], 0)
    // Rewriting the same row many times must not add up (a lost subtraction would evict A below).
    for (let index = 0; index < 20; index++) mirror.written('ctx', 'A', 'a', row('a', { k: 'v'.repeat(50) }))
    mirror.install('ctx', 'B', [row('b', { k: 'v'.repeat(50) })], 0)
    expect(mirror.scope('ctx', 'A')).toBeDefined()
    expect(mirror.scope('ctx', 'B')).toBeDefined()
  })

  it('forgets a scope after a write of unknown outcome and after its context is dropped', () => {
    const mirror = aLoadedMirror([row('a', {})])
    mirror.invalidate('ctx', 'T')
    expect(mirror.scope('ctx', 'T')).toBeUndefined()
    mirror.install('ctx', 'T', [row('a', {})], mirror.version('ctx', 'T'))
    mirror.install('other', 'T', [row('z', {})], mirror.version('other', 'T'))
    mirror.dropContext('ctx')
    expect(mirror.scope('ctx', 'T')).toBeUndefined()
    expect(mirror.scope('other', 'T')).toBeDefined()
  })
})
