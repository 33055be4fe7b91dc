import { eventBody, batchBody, MAX_EVENTS_PER_REQUEST, parseAgentEvent, parseAgentEventBody } from './events'

const anEvent = (overrides: Record<string, unknown> = {}) => ({
  id: 'evt-1',
  kind: 'connection',
  agentLabel: 'Acme wallet',
  occurredAt: '2026-11-24T05:00:00.000Z',
  record: { id: 'r1', state: 'completed' },
  ...overrides,
})

describe('parseAgentEvent', () => {
  it('accepts an event and keeps only the contract fields', () => {
    const result = parseAgentEvent(anEvent({ tenantId: 't1' }))
    expect(result).toEqual({ ok: true, event: anEvent({ tenantId: 't1' }) })
  })

  it.each([
    ['an unknown kind', { kind: 'nonsense' }, 'kind'],
    ['an empty id', { id: '' }, 'id'],
    ['an id of 201 characters', { id: 'x'.repeat(201) }, 'id'],
    ['a label that is not a string', { agentLabel: 7 }, 'agentLabel'],
    ['an empty tenant id', { tenantId: '' }, 'tenantId'],
    ['a record that is an array', { record: [] }, 'record'],
    ['a missing record', { record: undefined }, 'record'],
    ['a date that is not ISO 8601', { occurredAt: 'yesterday' }, 'occurredAt'],
    ['the 31st of February', { occurredAt: '2026-02-31T00:00:00Z' }, 'occurredAt'],
    ['the 13th month', { occurredAt: '2026-13-01T00:00:00Z' }, 'occurredAt'],
    ['hour 25', { occurredAt: '2026-01-01T25:00:00Z' }, 'occurredAt'],
    ['second 61', { occurredAt: '2026-01-01T00:00:61Z' }, 'occurredAt'],
    ['a date without a zone', { occurredAt: '2026-01-01T00:00:00' }, 'occurredAt'],
    ['an extra field', { extra: true }, 'extra'],
  ])('refuses %s, naming the field', (_name, overrides, field) => {
    const result = parseAgentEvent(anEvent(overrides))
    expect(result.ok).toBe(false)
    expect(!result.ok && result.errors.map((error) => error.field)).toEqual([field])
  })

  it('refuses a __proto__ key parsed from JSON as a field, and leaves the prototype alone', () => {
    const body: unknown = JSON.parse(JSON.stringify(anEvent()).replace(/^\{/, '{"__proto__":{"isAdmin":true},'))
    const result = parseAgentEvent(body)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.errors).toEqual([{ field: '__proto__', message: 'is not allowed' }])
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined()
  })

  it('accepts offsets and fractions of a second', () => {
    expect(parseAgentEvent(anEvent({ occurredAt: '2026-11-24T06:00:00.123456+01:00' })).ok).toBe(true)
    expect(parseAgentEvent(anEvent({ occurredAt: '2026-11-24T06:00Z' })).ok).toBe(true)
  })

  it('refuses what is not an object', () => {
    expect(parseAgentEvent('event')).toEqual({
      ok: false,
      errors: [{ field: 'body', message: 'must be a JSON object' }],
    })
    expect(parseAgentEvent(null, 'events[2].')).toEqual({
      ok: false,
      errors: [{ field: 'events[2]', message: 'must be a JSON object' }],
    })
  })
})

describe('parseAgentEventBody', () => {
  it('reads one event as a single', () => {
    expect(parseAgentEventBody(anEvent())).toEqual({ ok: true, events: [anEvent()], isBatch: false })
  })

  it('reads a batch and names the bad event of a batch by its index', () => {
    expect(parseAgentEventBody({ events: [anEvent(), anEvent({ id: 'evt-2' })] })).toMatchObject({
      ok: true,
      isBatch: true,
      events: [{ id: 'evt-1' }, { id: 'evt-2' }],
    })
    const refused = parseAgentEventBody({ events: [anEvent(), anEvent({ kind: 'nonsense' })] })
    expect(!refused.ok && refused.errors.map((error) => error.field)).toEqual(['events[1].kind'])
  })

  it(`refuses an empty batch and one of more than ${MAX_EVENTS_PER_REQUEST}`, () => {
    expect(parseAgentEventBody({ events: [] }).ok).toBe(false)
    expect(parseAgentEventBody({ events: 'x' }).ok).toBe(false)
    const many = Array.from({ length: MAX_EVENTS_PER_REQUEST + 1 }, (_unused, index) => anEvent({ id: `e${index}` }))
    expect(parseAgentEventBody({ events: many }).ok).toBe(false)
    expect(parseAgentEventBody({ events: many.slice(1) }).ok).toBe(true)
  })

  it('accepts what the agent writes: eventBody alone and batchBody of several', () => {
    const recordJson = '{"id":"r1","state":"done","metadata":{"a":[1,2]}}'
    const header = { id: 'e1', kind: 'proof', agentLabel: 'acme', tenantId: 't1', occurredAt: new Date().toISOString() }
    const single = eventBody({ ...header, kind: 'proof' }, recordJson)
    expect(single.endsWith(`"record":${recordJson}}`)).toBe(true)
    expect(parseAgentEventBody(JSON.parse(single))).toEqual({
      ok: true,
      isBatch: false,
      events: [{ ...header, record: { id: 'r1', state: 'done', metadata: { a: [1, 2] } } }],
    })
    const batch = batchBody([single, eventBody({ ...header, id: 'e2', kind: 'connection' }, '{}')])
    expect(parseAgentEventBody(JSON.parse(batch))).toMatchObject({
      ok: true,
      isBatch: true,
      events: [{ id: 'e1' }, { id: 'e2' }],
    })
  })
})
