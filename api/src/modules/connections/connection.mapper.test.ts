import { connectionReportOf } from './connection.mapper'

describe('connectionReportOf', () => {
  const occurredAt = '2026-11-28T12:00:30.000Z'

  it('reads the columns of a Credo connection record', () => {
    const report = connectionReportOf(
      {
        id: 'c1',
        state: 'completed',
        role: 'responder',
        theirLabel: 'Holder\u0000',
        autoAcceptConnection: true,
        createdAt: '2026-11-28T12:00:01.000Z',
        updatedAt: '2026-11-28T12:00:05.000Z',
      },
      occurredAt,
    )
    expect(report).toEqual({
      recordId: 'c1',
      state: 'completed',
      versionAt: new Date('2026-11-28T12:00:05.000Z'),
      fields: expect.objectContaining({
        state: 'completed',
        role: 'responder',
        theirLabel: 'Holder',
        autoAcceptConnection: true,
        did: null,
        agentCreatedAt: new Date('2026-11-28T12:00:01.000Z'),
        agentUpdatedAt: new Date('2026-11-28T12:00:05.000Z'),
      }),
    })
  })

  it("takes the event's time when the record has none, and refuses a record without id or state", () => {
    expect(connectionReportOf({ id: 'c1', state: 'start' }, occurredAt)?.fields.agentCreatedAt).toEqual(
      new Date(occurredAt),
    )
    expect(connectionReportOf({ state: 'start' }, occurredAt)).toBeNull()
    expect(connectionReportOf({ id: 'c1' }, occurredAt)).toBeNull()
  })
})
