import { AnonCredsError } from '../errors'
import { matchesQuery, parseRestrictions, queryTags, type RestrictionFilter } from './restrictions'

const filter: RestrictionFilter = {
  schemaId: 'NcYxiDXkpYi6ov5FcYDi1e:2:person:1.0',
  schemaIssuerId: 'NcYxiDXkpYi6ov5FcYDi1e',
  schemaName: 'person',
  schemaVersion: '1.0',
  issuerId: 'did:web:issuer.example',
  credDefId: 'did:web:issuer.example/cred-defs/person',
}
const revealed = new Map<string, string | undefined>([
  ['name', 'Alice'],
  ['age', undefined],
])

function matches(query: unknown): boolean {
  return matchesQuery(parseRestrictions(query, 'restrictions'), filter, revealed)
}

describe('restriction queries (anoncreds-rs semantics)', () => {
  it('matches identifier and schema tags, legacy and new', () => {
    expect(matches({ schema_id: filter.schemaId })).toBe(true)
    expect(matches({ schema_name: 'person', schema_version: '1.0' })).toBe(true)
    expect(matches({ schema_name: 'person', schema_version: '2.0' })).toBe(false)
    expect(matches({ schema_issuer_did: 'NcYxiDXkpYi6ov5FcYDi1e' })).toBe(true)
    expect(matches({ schema_issuer_id: 'NcYxiDXkpYi6ov5FcYDi1e' })).toBe(true)
    expect(matches({ issuer_id: filter.issuerId, cred_def_id: filter.credDefId })).toBe(true)
    // issuer_did only names legacy (unqualified) DIDs.
    expect(matches({ issuer_did: filter.issuerId })).toBe(false)
    expect(matches({ unknown_tag: 'x' })).toBe(false)
  })

  it('combines with $or, $and, $not, $neq, $in and the legacy array form', () => {
    expect(matches({ $or: [{ schema_name: 'other' }, { schema_name: 'person' }] })).toBe(true)
    expect(matches({ $and: [{ schema_name: 'other' }, { schema_name: 'person' }] })).toBe(false)
    expect(matches({ $not: { schema_name: 'other' } })).toBe(true)
    expect(matches({ schema_name: { $neq: 'person' } })).toBe(false)
    expect(matches({ schema_version: { $in: ['0.9', '1.0'] } })).toBe(true)
    expect(matches([{ schema_name: 'other' }, { cred_def_id: filter.credDefId, issuer_did: null }])).toBe(true)
    expect(matches([{ schema_name: 'other' }])).toBe(false)
    // Empty lists vanish: no restriction at all.
    expect(matches([])).toBe(true)
    expect(matches({ $or: [] })).toBe(true)
    // Comparison operators parse but never hold, as in anoncreds-rs.
    expect(matches({ schema_version: { $gte: '1.0' } })).toBe(false)
    expect(matches({ $not: { schema_version: { $like: '1%' } } })).toBe(true)
  })

  it('checks attribute values only when revealed, and markers of unrequested attributes pass', () => {
    expect(matches({ 'attr::name::value': 'Alice' })).toBe(true)
    expect(matches({ 'attr::name::value': 'Bob' })).toBe(false)
    expect(matches({ 'attr::age::value': '30' })).toBe(true)
    expect(matches({ 'attr::email::marker': '1' })).toBe(true)
    expect(matches({ 'attr::email::value': 'x' })).toBe(false)
  })

  it('lists the tags a query uses', () => {
    const query = parseRestrictions({ $or: [{ issuer_did: 'a' }, { $not: { schema_id: { $in: ['b'] } } }] }, 'r')
    expect(queryTags(query).sort()).toEqual(['issuer_did', 'schema_id'])
  })

  it('refuses malformed queries with a typed error', () => {
    for (const bad of [
      'x',
      3,
      { $or: {} },
      { $and: [1] },
      { $not: [] },
      { tag: { $in: [1] } },
      { tag: { $neq: 1 } },
      { tag: { $foo: 'x' } },
      { tag: 3 },
      { tag: { a: '1', b: '2' } },
    ]) {
      expect(() => parseRestrictions(bad, 'restrictions')).toThrow(AnonCredsError)
    }
    let deep: Record<string, unknown> = { schema_name: 'x' }
    for (let i = 0; i < 40; i++) deep = { $not: deep }
    expect(() => parseRestrictions(deep, 'restrictions')).toThrow(AnonCredsError)
  })
})
