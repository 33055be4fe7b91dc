import { walletReportMapper } from './wallet-record.mapper'

describe('walletReportMapper', () => {
  const occurredAt = '2026-11-28T12:00:30.000Z'

  it('keeps the agent JSON whole beside the columns it indexes', () => {
    const record = { id: 'p1', state: 'done', connectionId: 'c1', updatedAt: '2026-11-28T12:00:05.000Z', extra: [1] }
    expect(walletReportMapper('proof')(record, occurredAt)).toEqual({
      recordId: 'p1',
      state: 'done',
      versionAt: new Date('2026-11-28T12:00:05.000Z'),
      fields: {
        state: 'done',
        connectionId: 'c1',
        threadId: null,
        agentCreatedAt: new Date('2026-11-28T12:00:05.000Z'),
        agentUpdatedAt: new Date('2026-11-28T12:00:05.000Z'),
        record,
      },
    })
    expect(walletReportMapper('connection')({ id: 'c1' }, occurredAt)).toBeNull()
  })

  it('stores a basic message without a state column, its direction as the report state', () => {
    const report = walletReportMapper('basic-message')({ id: 'm1', role: 'sender', createdAt: occurredAt }, occurredAt)
    expect(report).toEqual(expect.objectContaining({ state: 'sent', fields: expect.objectContaining({ state: null }) }))
    expect(walletReportMapper('basic-message')({ role: 'sender' }, occurredAt)).toBeNull()
  })
})
