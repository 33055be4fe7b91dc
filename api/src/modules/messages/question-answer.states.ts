import { stateOrder } from '../connections/record-order'

/** Credo's question-answer states (both roles). */
export const QUESTION_ANSWER_STATES = ['question-sent', 'question-received', 'answer-sent', 'answer-received'] as const

/** A question comes before its answer; an answered question is final. */
export const QUESTION_ANSWER_ORDER = stateOrder(
  { 'question-sent': 1, 'question-received': 1, 'answer-sent': 2, 'answer-received': 2 },
  ['answer-sent', 'answer-received'],
)

/** The state in which the responder may answer. */
export const AWAITING_ANSWER_STATE = 'question-received'
