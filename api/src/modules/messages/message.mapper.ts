import type { ExchangeReport } from '../../infra/records/exchange-records'
import { textOf, versionTimeOf } from '../../infra/records/record-order'
import type { BasicMessage } from './basic-message.entity'
import { MESSAGE_TEXT_LIMITS, type QuestionAnswer } from './question-answer.entity'

type Columns<T> = Omit<T, 'organization' | 'id' | 'createdAt' | 'updatedAt'>

/** The columns a Credo question-answer record's JSON gives. */
export type QuestionAnswerFields = Omit<Columns<QuestionAnswer>, 'questionAnswerId'>

/** The columns a Credo basic message record's JSON gives. */
export type BasicMessageFields = Omit<Columns<BasicMessage>, 'messageId'>

/** A Credo question-answer record's JSON as a report; null without id, state, connection or question. Pure. */
export function questionAnswerReportOf(
  record: Record<string, unknown>,
  occurredAt: string,
): ExchangeReport<QuestionAnswerFields> | null {
  const recordId = textOf(record, 'id', MESSAGE_TEXT_LIMITS.id)
  const state = textOf(record, 'state', MESSAGE_TEXT_LIMITS.state)
  const connectionId = textOf(record, 'connectionId', MESSAGE_TEXT_LIMITS.id)
  const questionText = textOf(record, 'questionText', MESSAGE_TEXT_LIMITS.text)
  if (!recordId || !state || !connectionId || questionText === null) return null
  const versionAt = versionTimeOf(record, occurredAt)
  const createdAt = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN
  return {
    recordId,
    state,
    versionAt,
    fields: {
      connectionId,
      state,
      questionText,
      threadId: textOf(record, 'threadId', MESSAGE_TEXT_LIMITS.id),
      role: textOf(record, 'role', MESSAGE_TEXT_LIMITS.role),
      questionDetail: textOf(record, 'questionDetail', MESSAGE_TEXT_LIMITS.text),
      validResponses: validResponsesOf(record.validResponses),
      response: textOf(record, 'response', MESSAGE_TEXT_LIMITS.text),
      agentCreatedAt: Number.isNaN(createdAt) ? versionAt : new Date(createdAt),
      agentUpdatedAt: versionAt,
    },
  }
}

/**
 * The "state" of a basic message: its direction. A message never changes, so its version is its creation and a
 * second report of it is a repeat.
 */
export function messageDirectionOf(role: string): 'sent' | 'received' {
  return role === 'sender' ? 'sent' : 'received'
}

/** A Credo basic message record's JSON as a report; null without id, connection, role or content. Pure. */
export function basicMessageReportOf(
  record: Record<string, unknown>,
  occurredAt: string,
): ExchangeReport<BasicMessageFields> | null {
  const recordId = textOf(record, 'id', MESSAGE_TEXT_LIMITS.id)
  const connectionId = textOf(record, 'connectionId', MESSAGE_TEXT_LIMITS.id)
  const role = textOf(record, 'role', MESSAGE_TEXT_LIMITS.role)
  const content = textOf(record, 'content', MESSAGE_TEXT_LIMITS.text)
  if (!recordId || !connectionId || !role || content === null) return null
  const agentCreatedAt = versionTimeOf({ createdAt: record.createdAt }, occurredAt)
  return {
    recordId,
    state: messageDirectionOf(role),
    versionAt: agentCreatedAt,
    fields: {
      connectionId,
      role,
      content,
      sentTime: textOf(record, 'sentTime', 64),
      threadId: textOf(record, 'threadId', MESSAGE_TEXT_LIMITS.id),
      agentCreatedAt,
    },
  }
}

/** The `{ text }` entries of an agent record's valid responses; anything else is dropped. */
function validResponsesOf(value: unknown): { text: string }[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return []
    const text = textOf(entry as Record<string, unknown>, 'text', 500)
    return text === null ? [] : [{ text }]
  })
}
