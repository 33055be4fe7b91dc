import { platformEvent } from '../../infra/platform-events'
import { deliveriesOf, eventData } from './webhook-event-listener'

const ORG_ID = '7f1d3c9e-6a51-4b0a-9a8e-1c2d3e4f5a6b'

describe('deliveries of an event', () => {
  const data = eventData(platformEvent('proof.state-changed', { orgId: ORG_ID }, { id: 'p1', state: 'done' }))
  const webhook = (id: string, url: string) => ({ id, url })

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

  it('go to the registered webhook and the notificationWebhook, once per URL, keeping the signed one', () => {
    const both = deliveriesOf(data, {
      webhooks: [webhook('w1', 'https://a.example.com/hook')],
      notificationWebhook: 'https://b.example.com/notify',
    })
    expect(both.map((delivery) => [delivery.target, delivery.targetUrl, delivery.webhookId])).toEqual([
      ['webhook', 'https://a.example.com/hook', 'w1'],
      ['notificationWebhook', 'https://b.example.com/notify', null],
    ])
    const same = deliveriesOf(data, {
      webhooks: [webhook('w1', 'https://a.example.com/hook')],
      notificationWebhook: 'https://a.example.com/hook',
    })
    expect(same).toEqual([expect.objectContaining({ target: 'webhook', webhookId: 'w1' })])
    expect(deliveriesOf(data, { webhooks: [], notificationWebhook: null })).toEqual([])
  })
})
