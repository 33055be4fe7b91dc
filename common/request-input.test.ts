import { findUnsafeJson, MAX_JSON_DEPTH } from './request-input'

function nested(depth: number): unknown {
  let value: unknown = 1
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { a: value } : [value]
  return value
}

describe('findUnsafeJson', () => {
  it.each([
    ['a plain object', { name: 'Acme', tags: ['a', 'b'], nested: { n: 1, ok: true, none: null } }],
    ['a scalar', 'text'],
    [`nesting of ${MAX_JSON_DEPTH} levels`, nested(MAX_JSON_DEPTH)],
    ['a "constructor" key', { constructor: 'x' }],
  ])('accepts %s', (_name, value) => {
    expect(findUnsafeJson(value)).toBeUndefined()
  })

  it.each([
    ['a NUL in a value', { name: 'a\u0000b' }, /NUL/],
    ['a NUL in a nested array', { list: [['ok', '\u0000']] }, /NUL/],
    ['a NUL in a key', JSON.parse('{"a\\u0000":1}'), /NUL/],
    ['a __proto__ key', JSON.parse('{"record":{"__proto__":{"x":1}}}'), /__proto__/],
    [`nesting of ${MAX_JSON_DEPTH + 1} levels`, nested(MAX_JSON_DEPTH + 1), /deeper/],
    ['nesting of 100,000 levels', JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), /deeper/],
  ])('refuses %s', (_name, value, reason) => {
    expect(findUnsafeJson(value)).toMatch(reason)
  })
})
