import { assertTagQuery, queryToSql, type TagQuery } from './query-to-sql'

describe('queryToSql', () => {
  const cases: { name: string; query: TagQuery; sql: string; params: unknown[] }[] = [
    { name: 'an empty query matches everything', query: {}, sql: 'TRUE', params: [] },
    {
      name: 'equality on several tags becomes one containment test',
      query: { state: 'done', role: 'issuer' },
      sql: 'tags @> $1::jsonb',
      params: ['{"state":"done","role":"issuer"}'],
    },
    {
      name: 'booleans stay booleans',
      query: { isDefault: true },
      sql: 'tags @> $1::jsonb',
      params: ['{"isDefault":true}'],
    },
    {
      name: 'array values require every element',
      query: { recipientKeyFingerprints: ['z6Mk1', 'z6Mk2'] },
      sql: 'tags @> $1::jsonb',
      params: ['{"recipientKeyFingerprints":["z6Mk1","z6Mk2"]}'],
    },
    { name: 'undefined and null add no condition', query: { a: undefined, b: null }, sql: 'TRUE', params: [] },
    {
      name: '$and joins sub-queries',
      query: { $and: [{ a: '1' }, { b: '2' }] },
      sql: '((tags @> $1::jsonb) AND (tags @> $2::jsonb))',
      params: ['{"a":"1"}', '{"b":"2"}'],
    },
    {
      name: '$or joins sub-queries',
      query: { $or: [{ a: '1' }, { b: ['x'] }] },
      sql: '((tags @> $1::jsonb) OR (tags @> $2::jsonb))',
      params: ['{"a":"1"}', '{"b":["x"]}'],
    },
    { name: '$not negates', query: { $not: { a: '1' } }, sql: 'NOT (tags @> $1::jsonb)', params: ['{"a":"1"}'] },
    {
      name: 'plain tags and operators combine with AND',
      query: { type: 'x', $or: [{ a: '1' }, { $not: { b: '2' } }] },
      sql: '(tags @> $1::jsonb) AND (((tags @> $2::jsonb) OR (NOT (tags @> $3::jsonb))))',
      params: ['{"type":"x"}', '{"a":"1"}', '{"b":"2"}'],
    },
    { name: 'an empty $and adds no condition', query: { $and: [] }, sql: 'TRUE', params: [] },
    { name: 'an empty $or adds no condition', query: { $or: [] }, sql: 'TRUE', params: [] },
    { name: 'an always-true branch makes $or true', query: { $or: [{}, { a: '1' }] }, sql: 'TRUE', params: [] },
    {
      name: 'an empty branch drops out of $and',
      query: { $and: [{}, { a: '1' }] },
      sql: 'tags @> $1::jsonb',
      params: ['{"a":"1"}'],
    },
    { name: 'negating an empty query matches nothing', query: { $not: {} }, sql: 'FALSE', params: [] },
    {
      name: 'nested operators keep placeholder order',
      query: { $and: [{ $or: [{ a: '1' }, { b: '2' }] }, { $not: { c: ['3'] } }] },
      sql: '((((tags @> $1::jsonb) OR (tags @> $2::jsonb))) AND (NOT (tags @> $3::jsonb)))',
      params: ['{"a":"1"}', '{"b":"2"}', '{"c":["3"]}'],
    },
  ]

  it.each(cases)('$name', ({ query, sql, params }) => {
    expect(queryToSql(query)).toEqual({ sql, params })
  })

  it('numbers placeholders after the caller parameters', () => {
    expect(queryToSql({ a: '1' }, 'r.tags', 3)).toEqual({ sql: 'r.tags @> $3::jsonb', params: ['{"a":"1"}'] })
  })

  it('rejects values that are not tag values', () => {
    expect(() => queryToSql({ a: { nested: 'x' } as unknown as TagQuery })).toThrow(TypeError)
    expect(() => queryToSql({ a: [1] as unknown as string[] })).toThrow(TypeError)
  })
})

describe('assertTagQuery', () => {
  it.each([
    [{ tag: { nested: true } }],
    [{ tag: ['a', 1] }],
    [{ $and: { tag: 'a' } }],
    [{ $or: [{ $not: { tag: {} } }] }],
  ])('refuses %j as queryToSql does', (query) => {
    expect(() => queryToSql(query as never)).toThrow(TypeError)
    expect(() => assertTagQuery(query as never)).toThrow(TypeError)
  })

  it('accepts what queryToSql accepts', () => {
    const query = { a: 'x', b: true, c: ['y'], d: undefined, $and: [{ e: 1 }], $or: [], $not: { f: 'z' } }
    expect(() => queryToSql(query)).not.toThrow()
    expect(() => assertTagQuery(query)).not.toThrow()
  })
})
