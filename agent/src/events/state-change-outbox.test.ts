import { StateChangeOutbox } from './state-change-outbox'

function aSender() {
  return { reserve: jest.fn(), enqueue: jest.fn(), release: jest.fn() }
}

const now = () => new Date('2026-01-01T00:00:00Z')

describe('StateChangeOutbox', () => {
  it('drafts an event for a forwarded record type and holds its id while the write runs', () => {
    const sender = aSender()
    const sut = new StateChangeOutbox('acme', sender, now, () => 'e1')
    const draft = sut.draft('default', 'CredentialRecord', '{"id":"c1","state":"offer-sent"}')
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
    const draft = sut.draft('tenant-t1', 'ConnectionRecord', '{"id":"r"}')
    expect(JSON.parse(draft?.body ?? '')).toMatchObject({ tenantId: 't1', kind: 'connection' })
  })

  it('drafts nothing for record types it does not forward', () => {
    const sender = aSender()
    const sut = new StateChangeOutbox('acme', sender, now)
    expect(sut.draft('default', 'DidCommMessageRecord', '{}')).toBeUndefined()
    expect(sender.reserve).not.toHaveBeenCalled()
  })

  it('sends a stored event and lets go of one that was not stored', () => {
    const sender = aSender()
    const sut = new StateChangeOutbox('acme', sender, now, () => 'e3')
    const draft = sut.draft('default', 'ProofRecord', '{}')
    if (!draft) throw new Error('expected a draft')
    sut.settled(draft, true)
    expect(sender.enqueue).toHaveBeenCalledWith({ id: 'e3', body: draft.body, attempts: 0 })
    sut.settled(draft, false)
    expect(sender.release).toHaveBeenCalledWith('e3')
  })
})
