import { proofReportOf } from './proof.mapper'

describe('proofReportOf', () => {
  const occurredAt = '2026-11-28T12:00:30.000Z'
  const id = '6f1c1a52-8f7e-4a39-9c55-3d1f2a0b7e01'

  it('reads a Credo proof exchange record with defaults for role and protocol', () => {
    expect(
      proofReportOf(
        { id, state: 'done', threadId: 't1', isVerified: true, updatedAt: '2026-11-28T12:00:05.000Z' },
        occurredAt,
      ),
    ).toEqual({
      recordId: id,
      state: 'done',
      versionAt: new Date('2026-11-28T12:00:05.000Z'),
      fields: {
        id,
        state: 'done',
        role: 'verifier',
        connectionId: null,
        threadId: 't1',
        protocolVersion: 'v2',
        isVerified: true,
        errorMessage: null,
        createdAt: new Date('2026-11-28T12:00:05.000Z'),
        agentUpdatedAt: new Date('2026-11-28T12:00:05.000Z'),
      },
    })
  })

  it('refuses a record without a UUID id, a thread or a known state', () => {
    expect(proofReportOf({ id: 'not-a-uuid', state: 'done', threadId: 't1' }, occurredAt)).toBeNull()
    expect(proofReportOf({ id, state: 'done' }, occurredAt)).toBeNull()
    expect(proofReportOf({ id, state: 'teleported', threadId: 't1' }, occurredAt)).toBeNull()
  })
})
