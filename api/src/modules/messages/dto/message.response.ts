import { arrayOf, dateTime, nullable, object, string } from '../../../infra/http/data-schema'
import type { BasicMessage } from '../basic-message.entity'
import type { QuestionAnswer } from '../question-answer.entity'

/** A question-answer record as the API shows it (the spec leaves its fields open: docs/decisions.md). */
export interface QuestionAnswerResponse {
  id: string
  connectionId: string
  threadId: string | null
  role: string | null
  state: string
  questionText: string
  questionDetail: string | null
  validResponses: { text: string }[]
  response: string | null
  createdAt: string
  updatedAt: string
}

/** A basic message as the API shows it. */
export interface BasicMessageResponse {
  id: string
  connectionId: string
  role: string
  content: string
  sentTime: string | null
  threadId: string | null
  createdAt: string
}

export function toQuestionAnswerResponse(row: QuestionAnswer): QuestionAnswerResponse {
  return {
    id: row.questionAnswerId,
    connectionId: row.connectionId,
    threadId: row.threadId ?? null,
    role: row.role ?? null,
    state: row.state,
    questionText: row.questionText,
    questionDetail: row.questionDetail ?? null,
    validResponses: row.validResponses,
    response: row.response ?? null,
    createdAt: row.agentCreatedAt.toISOString(),
    updatedAt: row.agentUpdatedAt.toISOString(),
  }
}

export function toBasicMessageResponse(row: BasicMessage): BasicMessageResponse {
  return {
    id: row.messageId,
    connectionId: row.connectionId,
    role: row.role,
    content: row.content,
    sentTime: row.sentTime ?? null,
    threadId: row.threadId ?? null,
    createdAt: row.agentCreatedAt.toISOString(),
  }
}

export const QUESTION_ANSWER_SCHEMA = object<QuestionAnswerResponse>('QuestionAnswer', {
  id: string,
  connectionId: string,
  threadId: nullable(string),
  role: nullable(string),
  state: string,
  questionText: string,
  questionDetail: nullable(string),
  validResponses: arrayOf(object<{ text: string }>('ValidResponse', { text: string })),
  response: nullable(string),
  createdAt: dateTime,
  updatedAt: dateTime,
})

export const BASIC_MESSAGE_SCHEMA = object<BasicMessageResponse>('BasicMessage', {
  id: string,
  connectionId: string,
  role: string,
  content: string,
  sentTime: nullable(string),
  threadId: nullable(string),
  createdAt: dateTime,
})
