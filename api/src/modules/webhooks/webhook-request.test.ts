import { deliveryBody, deliveryHeaders, signature } from './webhook-request'

describe('webhook requests', () => {
  const data = {
    id: 'e1',
    type: 'connection.state-changed',
    orgId: '7f1d3c9e-6a51-4b0a-9a8e-1c2d3e4f5a6b',
    occurredAt: '2026-11-24T09:00:00.000Z',
    record: { id: 'c1', state: 'completed' },
  }

  it('signs <timestamp>.<body> with hex HMAC-SHA256 (value checked with openssl dgst -sha256 -hmac)', () => {
    const body = '{"webhookUrl":"https://hooks.example.com/x","data":{"id":"e1"}}'
    expect(signature('sixteen-char-secret', 1_700_000_000, body)).toBe(
      '0bdcdf113abfbf3368eb822e7a9ce789e133136c58f10355e5c3c238a2ca6a88',
    )
    expect(signature('sixteen-char-secret', 1_700_000_001, body)).not.toBe(
      '0bdcdf113abfbf3368eb822e7a9ce789e133136c58f10355e5c3c238a2ca6a88',
    )
  })

  it('sends { webhookUrl, data } with the event id, type, organization, time and record', () => {
    const body = deliveryBody('https://hooks.example.com/x', data)
    expect(JSON.parse(body)).toEqual({ webhookUrl: 'https://hooks.example.com/x', data })
    expect(Object.keys(JSON.parse(body) as object)).toEqual(['webhookUrl', 'data'])
    expect(body).not.toContain('tenantId')
    const tenant = deliveryBody('https://hooks.example.com/x', { ...data, orgId: null, tenantId: 't1' })
    expect(JSON.parse(tenant).data).toEqual(expect.objectContaining({ orgId: null, tenantId: 't1' }))
  })

  it('adds X-Timestamp in unix seconds always and X-Signature over exactly the sent body only with a secret', () => {
    const body = deliveryBody('https://hooks.example.com/x', data)
    const now = new Date('2026-11-24T09:00:01.900Z')
    const unsigned = deliveryHeaders(body, { deliveryId: 'd1', now })
    expect(unsigned).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'idplane-webhooks',
      'X-Timestamp': String(Math.floor(now.getTime() / 1000)),
      'X-Delivery-Id': 'd1',
    })
    const signed = deliveryHeaders(body, { deliveryId: 'd1', secret: 'sixteen-char-secret', now })
    expect(signed['X-Signature']).toBe(signature('sixteen-char-secret', Math.floor(now.getTime() / 1000), body))
    expect(signed['X-Signature']).toMatch(/^[0-9a-f]{64}$/)
  })
})
