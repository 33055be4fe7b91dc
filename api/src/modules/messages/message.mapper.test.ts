import { basicMessageReportOf, questionAnswerReportOf } from './message.mapper'

describe('message mappers', () => {
  const occurredAt = '2026-11-28T12:00:30.000Z'

  it('reads a question-answer record with its valid responses', () => {
    const report = questionAnswerReportOf(
      {
        id: 'q1',
        state: 'question-sent',
        connectionId: 'c1',
        questionText: 'Ready?',
        validResponses: [{ text: 'yes' }, { nope: 1 }, 'no'],
        updatedAt: '2026-11-28T12:00:05.000Z',
      },
      occurredAt,
    )
    expect(report).toEqual({
      recordId: 'q1',
      state: 'question-sent',
      versionAt: new Date('2026-11-28T12:00:05.000Z'),
      fields: expect.objectContaining({
        connectionId: 'c1',
        questionText: 'Ready?',
        validResponses: [{ text: 'yes' }],
      }),
    })
    expect(questionAnswerReportOf({ id: 'q1', state: 'question-sent', connectionId: 'c1' }, occurredAt)).toBeNull()
  })

  it('gives a basic message its direction as state and its creation as version', () => {
    const record = { id: 'm1', connectionId: 'c1', content: 'hi', createdAt: '2026-11-28T12:00:01.000Z' }
    expect(
      basicMessageReportOf({ ...record, role: 'sender', updatedAt: '2026-11-28T12:00:09.000Z' }, occurredAt),
    ).toEqual(expect.objectContaining({ state: 'sent', versionAt: new Date('2026-11-28T12:00:01.000Z') }))
    expect(basicMessageReportOf({ ...record, role: 'receiver' }, occurredAt)?.state).toBe('received')
    expect(basicMessageReportOf({ ...record }, occurredAt)).toBeNull()
  })
})
