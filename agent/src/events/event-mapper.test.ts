import { toAgentEvent } from './event-mapper'

const now = () => new Date('2026-01-01T00:00:00Z')
const id = () => 'event-1'

describe('toAgentEvent', () => {
  it.each([
    ['ConnectionStateChanged', 'connectionRecord', 'connection'],
    ['DidCommCredentialStateChanged', 'credentialExchangeRecord', 'credential'],
    ['DidCommProofStateChanged', 'proofRecord', 'proof'],
    ['DidCommBasicMessageStateChanged', 'basicMessageRecord', 'basic-message'],
    ['QuestionAnswerStateChanged', 'questionAnswerRecord', 'question-answer'],
  ])('maps %s to kind %s', (type, recordKey, kind) => {
    const event = {
      type,
      payload: { [recordKey]: { id: 'r1', state: 'done' } },
      metadata: { contextCorrelationId: 'default' },
    }
    expect(toAgentEvent(event, 'acme', 'default', now, id)).toEqual({
      id: 'event-1',
      kind,
      agentLabel: 'acme',
      occurredAt: '2026-01-01T00:00:00.000Z',
      record: { id: 'r1', state: 'done' },
    })
  })

  it('ignores events it does not forward', () => {
    expect(toAgentEvent({ type: 'DidCommMessageSent', payload: {} }, 'acme', 'default')).toBeUndefined()
  })

  it('uses the record JSON form and names the tenant', () => {
    const record = { toJSON: () => ({ id: 'r2', _tags: {} }) }
    const event = {
      type: 'DidCommProofStateChanged',
      payload: { proofRecord: record },
      metadata: { contextCorrelationId: 'tenant-t1' },
    }
    expect(toAgentEvent(event, 'acme', 'default', now, id)).toMatchObject({ tenantId: 't1', record: { id: 'r2' } })
  })
})
