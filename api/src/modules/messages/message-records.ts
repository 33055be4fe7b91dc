import { injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import type { AgentEventHandler, AppliedAgentEvent } from '../../infra/api-module'
import { ModuleRegistry } from '../../infra/module-registry'
import { platformEvent } from '../../infra/platform-events'
import { decideUpdate, textOf, versionTimeOf } from '../connections/record-order'
import type { BasicMessage } from './basic-message.entity'
import { toBasicMessageResponse, toQuestionAnswerResponse } from './dto/message.response'
import { MessageMetrics } from './message-metrics'
import { MessagesRepository } from './messages.repository'
import { MESSAGE_TEXT_LIMITS, type QuestionAnswer } from './question-answer.entity'
import { QUESTION_ANSWER_ORDER } from './question-answer.states'

export const QUESTION_ANSWER_STATE_CHANGED = 'question-answer.state-changed'
export const BASIC_MESSAGE_RECEIVED = 'basic-message.received'
export const BASIC_MESSAGE_SENT = 'basic-message.sent'

/** Runs `work` in a transaction; a losing concurrent insert of the same record is retried once (then it finds it). */
async function onceMore<T>(repository: MessagesRepository, work: () => Promise<T>): Promise<T> {
  try {
    return await repository.transactional(work)
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return repository.transactional(work)
    throw error
  }
}

/**
 * Keeps an organization's question-answer records in step with its agent's (record-order.ts) and publishes
 * `question-answer.state-changed` once per state a record enters; the answer arrives here when the other side
 * answers.
 */
@injectable()
export class QuestionAnswerRecords implements AgentEventHandler {
  public constructor(
    private readonly messages: MessagesRepository,
    private readonly modules: ModuleRegistry,
    private readonly metrics: MessageMetrics,
  ) {}

  public async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    // Cloud-wallet tenants' records are not the organization's.
    if (event.tenantId !== undefined) return
    await this.apply(orgId, event.record, event.occurredAt)
  }

  /** Applies a record the agent answered to a call, in a transaction of its own. */
  public applyAnswered(orgId: string, record: Record<string, unknown>): Promise<QuestionAnswer | null> {
    return onceMore(this.messages, () => this.apply(orgId, record, new Date().toISOString()))
  }

  private async apply(orgId: string, record: Record<string, unknown>, occurredAt: string) {
    const id = textOf(record, 'id', MESSAGE_TEXT_LIMITS.id)
    const state = textOf(record, 'state', MESSAGE_TEXT_LIMITS.state)
    const connectionId = textOf(record, 'connectionId', MESSAGE_TEXT_LIMITS.id)
    const questionText = textOf(record, 'questionText', MESSAGE_TEXT_LIMITS.text)
    if (!id || !state || !connectionId || questionText === null) return null
    const versionAt = versionTimeOf(record, occurredAt)
    const stored = await this.messages.findQuestionForUpdate(orgId, id)
    const decision = decideUpdate(
      QUESTION_ANSWER_ORDER,
      stored && { state: stored.state, versionAt: stored.agentUpdatedAt },
      { state, versionAt },
    )
    if (decision === 'ignore') return stored
    const createdAt = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN
    const fields = {
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
    }
    const previousState = stored?.state
    const row = stored ?? this.messages.createQuestion(orgId, { questionAnswerId: id, ...fields })
    if (stored) Object.assign(stored, fields)
    await this.messages.flush()
    if (previousState !== row.state) {
      this.metrics.questionStateChanges.inc({ state: row.state })
      await this.modules.publish([
        platformEvent(QUESTION_ANSWER_STATE_CHANGED, { orgId }, { ...toQuestionAnswerResponse(row) }),
      ])
    }
    return row
  }
}

/**
 * Records the organization's basic messages, once each, and publishes `basic-message.sent` or
 * `basic-message.received` for a new one.
 */
@injectable()
export class BasicMessageRecords implements AgentEventHandler {
  public constructor(
    private readonly messages: MessagesRepository,
    private readonly modules: ModuleRegistry,
    private readonly metrics: MessageMetrics,
  ) {}

  public async handle(orgId: string, event: AppliedAgentEvent): Promise<void> {
    if (event.tenantId !== undefined) return
    await this.apply(orgId, event.record, event.occurredAt)
  }

  public applyAnswered(orgId: string, record: Record<string, unknown>): Promise<BasicMessage | null> {
    return onceMore(this.messages, () => this.apply(orgId, record, new Date().toISOString()))
  }

  private async apply(orgId: string, record: Record<string, unknown>, occurredAt: string) {
    const id = textOf(record, 'id', MESSAGE_TEXT_LIMITS.id)
    const connectionId = textOf(record, 'connectionId', MESSAGE_TEXT_LIMITS.id)
    const role = textOf(record, 'role', MESSAGE_TEXT_LIMITS.role)
    const content = textOf(record, 'content', MESSAGE_TEXT_LIMITS.text)
    if (!id || !connectionId || !role || content === null) return null
    const stored = await this.messages.findMessage(orgId, id)
    if (stored) return stored
    const row = this.messages.createMessage(orgId, {
      messageId: id,
      connectionId,
      role,
      content,
      sentTime: textOf(record, 'sentTime', 64),
      threadId: textOf(record, 'threadId', MESSAGE_TEXT_LIMITS.id),
      agentCreatedAt: versionTimeOf({ createdAt: record.createdAt }, occurredAt),
    })
    await this.messages.flush()
    const direction = role === 'sender' ? 'sent' : 'received'
    this.metrics.basicMessages.inc({ direction })
    await this.modules.publish([
      platformEvent(
        direction === 'sent' ? BASIC_MESSAGE_SENT : BASIC_MESSAGE_RECEIVED,
        { orgId },
        {
          ...toBasicMessageResponse(row),
        },
      ),
    ])
    return row
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
