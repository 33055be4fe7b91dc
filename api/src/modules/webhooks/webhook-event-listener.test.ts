import { platformEvent } from '../../infra/platform-events'
import { eventData } from './webhook-event-listener'

const ORG_ID = '7f1d3c9e-6a51-4b0a-9a8e-1c2d3e4f5a6b'

describe('deliveries of an event', () => {
  const data = eventData(platformEvent('proof.state-changed', { orgId: ORG_ID }, { id: 'p1', state: 'done' }))

  it('carry the event id, type, organization, time and record, without tenantId for an organization event', () => {
    expect(data).toEqual({
      id: expect.any(String),
      type: 'proof.state-changed',
      orgId: ORG_ID,
      occurredAt: expect.any(String),
      record: { id: 'p1', state: 'done' },
    })
    expect('tenantId' in data).toBe(false)
  })
})
