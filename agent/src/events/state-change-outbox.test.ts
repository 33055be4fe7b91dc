import { StateChangeOutbox } from './state-change-outbox'

function aSender() {
  return { reserve: jest.fn(), enqueue: jest.fn(), release: jest.fn() }
}

const now = () => new Date('2026-01-01T00:00:00Z')

describe('StateChangeOutbox', () => {
  it('drafts an event for a forwarded record type and holds its id while the write runs', () => {
    const sender = aSender()
    const sut = new StateChangeOutbox('acme', sender, now, () => 'e1')
    const draft = sut.draft('default', { type: 'CredentialRecord', id: 'c1' }, '{"id":"c1","state":"offer-sent"}')
    expect(draft).toMatchObject({ id: 'e1', kind: 'credential' })
    expect(JSON.parse(draft?.body ?? '')).toEqual({
      id: 'e1',
      kind: 'credential',
      agentLabel: 'acme',
      occurredAt: '2026-01-01T00:00:00.000Z',
      record: { id: 'c1', state: 'offer-sent' },
    })
    expect(sender.reserve).toHaveBeenCalledWith('e1')
  })

  it('names the tenant of a tenant context', () => {
    const sut = new StateChangeOutbox('acme', aSender(), now, () => 'e2')
    const draft = sut.draft('tenant-t1', { type: 'ConnectionRecord', id: 'r' }, '{"id":"r"}')
    expect(JSON.parse(draft?.body ?? '')).toMatchObject({ tenantId: 't1', kind: 'connection' })
    expect(draft?.orderKey).toBe('connection|t1|r')
  })

  it('drafts nothing for record types it does not forward', () => {
    const sender = aSender()
    const sut = new StateChangeOutbox('acme', sender, now)
    expect(sut.draft('default', { type: 'DidCommMessageRecord', id: 'm' }, '{}')).toBeUndefined()
    expect(sender.reserve).not.toHaveBeenCalled()
  })

  it('sends a stored event and lets go of one that was not stored', () => {
    const sender = aSender()
    const sut = new StateChangeOutbox('acme', sender, now, () => 'e3')
    const record = { type: 'ProofRecord', id: 'p1', connectionId: 'c9' }
    const draft = sut.draft('default', record, '{"id":"p1","connectionId":"c9"}')
    if (!draft) throw new Error('expected a draft')
    sut.settled(draft, true)
    // Ordered with its connection, the key taken from the record object.
    expect(sender.enqueue).toHaveBeenCalledWith({ id: 'e3', body: draft.body, attempts: 0, orderKey: 'connection||c9' })
    sut.settled(draft, false)
    expect(sender.release).toHaveBeenCalledWith('e3')
  })
})
