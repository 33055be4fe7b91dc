import { decideUpdate, type RecordVersion } from '../connections/record-order'
import { QUESTION_ANSWER_ORDER, QUESTION_ANSWER_STATES } from './question-answer.states'

const version = (state: string, seconds: number): RecordVersion => ({
  state,
  versionAt: new Date(Date.UTC(2026, 10, 24, 9, 0, seconds)),
})

describe('the ordering rule for question-answer records', () => {
  it('takes the answer after the question and never the question after the answer', () => {
    expect(decideUpdate(QUESTION_ANSWER_ORDER, version('question-sent', 1), version('answer-received', 2))).toBe(
      'apply',
    )
    expect(decideUpdate(QUESTION_ANSWER_ORDER, version('answer-received', 2), version('question-sent', 1))).toBe(
      'ignore',
    )
    // Even when the late question carries a later timestamp (clocks differ): the answered record is final.
    expect(decideUpdate(QUESTION_ANSWER_ORDER, version('answer-sent', 2), version('question-received', 9))).toBe(
      'ignore',
    )
  })

  it('ignores a repeated event', () => {
    expect(decideUpdate(QUESTION_ANSWER_ORDER, version('answer-received', 2), version('answer-received', 2))).toBe(
      'ignore',
    )
    expect(decideUpdate(QUESTION_ANSWER_ORDER, version('question-sent', 1), version('question-sent', 1))).toBe('ignore')
  })

  it('ranks every state and makes answers final', () => {
    for (const state of QUESTION_ANSWER_STATES) expect(QUESTION_ANSWER_ORDER.rank(state)).toBeGreaterThan(0)
    expect(QUESTION_ANSWER_ORDER.isTerminal('answer-sent')).toBe(true)
    expect(QUESTION_ANSWER_ORDER.isTerminal('question-received')).toBe(false)
  })
})
