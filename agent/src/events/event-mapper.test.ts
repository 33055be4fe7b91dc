import { DidCommConnectionRecord, DidCommProofExchangeRecord } from '@credo-ts/didcomm'

import { eventBody, FORWARDED_RECORD_TYPES } from './event-mapper'

describe('eventBody', () => {
  it('puts the record JSON as it is under `record`, after the header fields', () => {
    const recordJson = '{"id":"r1","state":"done","metadata":{"a":[1,2]}}'
    const body = eventBody(
      { id: 'e1', kind: 'proof', agentLabel: 'acme', tenantId: 't1', occurredAt: '2026-01-01T00:00:00.000Z' },
      recordJson,
    )
    expect(JSON.parse(body)).toEqual({
      id: 'e1',
      kind: 'proof',
      agentLabel: 'acme',
      tenantId: 't1',
      occurredAt: '2026-01-01T00:00:00.000Z',
      record: { id: 'r1', state: 'done', metadata: { a: [1, 2] } },
    })
    expect(body.endsWith(`"record":${recordJson}}`)).toBe(true)
  })
})

describe('FORWARDED_RECORD_TYPES', () => {
  it("names Credo's record types by their stored type", () => {
    expect(FORWARDED_RECORD_TYPES[DidCommConnectionRecord.type]).toBe('connection')
    expect(FORWARDED_RECORD_TYPES[DidCommProofExchangeRecord.type]).toBe('proof')
    expect(Object.values(FORWARDED_RECORD_TYPES).sort()).toEqual([
      'basic-message',
      'connection',
      'credential',
      'proof',
      'question-answer',
    ])
  })
})
