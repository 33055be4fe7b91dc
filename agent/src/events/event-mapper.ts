import { randomUUID } from 'node:crypto'

import {
  DidCommBasicMessageEventTypes,
  DidCommConnectionEventTypes,
  DidCommCredentialEventTypes,
  DidCommProofEventTypes,
} from '@credo-ts/didcomm'
import { QuestionAnswerEventTypes } from '@credo-ts/question-answer'

export type AgentEventKind = 'connection' | 'credential' | 'proof' | 'basic-message' | 'question-answer'

/** The state-changed events we forward, by Credo event type, with the payload key that holds the record. */
export const FORWARDED_EVENTS: Readonly<Record<string, { kind: AgentEventKind; recordKey: string }>> = {
  // Credo's own constants: the connection event is named 'ConnectionStateChanged', unlike its siblings.
  [DidCommConnectionEventTypes.DidCommConnectionStateChanged]: { kind: 'connection', recordKey: 'connectionRecord' },
  [DidCommCredentialEventTypes.DidCommCredentialStateChanged]: {
    kind: 'credential',
    recordKey: 'credentialExchangeRecord',
  },
  [DidCommProofEventTypes.ProofStateChanged]: { kind: 'proof', recordKey: 'proofRecord' },
  [DidCommBasicMessageEventTypes.DidCommBasicMessageStateChanged]: {
    kind: 'basic-message',
    recordKey: 'basicMessageRecord',
  },
  [QuestionAnswerEventTypes.QuestionAnswerStateChanged]: { kind: 'question-answer', recordKey: 'questionAnswerRecord' },
}

export interface AgentEventBody {
  id: string
  kind: AgentEventKind
  agentLabel: string
  tenantId?: string
  occurredAt: string
  record: Record<string, unknown>
}

export interface CredoEventLike {
  type: string
  payload: Record<string, unknown>
  metadata?: { contextCorrelationId?: string }
}

/**
 * Turns a Credo event into the platform event body, or undefined for events we do not forward.
 * The id is minted here, once: the outbox stores it and every retry resends it, so the platform can
 * drop duplicates by id.
 */
export function toAgentEvent(
  event: CredoEventLike,
  agentLabel: string,
  baseContextId: string,
  now: () => Date = () => new Date(),
  newId: () => string = randomUUID,
): AgentEventBody | undefined {
  const forwarded = FORWARDED_EVENTS[event.type]
  if (!forwarded) return undefined
  const record = event.payload[forwarded.recordKey]
  if (!record || typeof record !== 'object') return undefined
  const contextId = event.metadata?.contextCorrelationId
  return {
    id: newId(),
    kind: forwarded.kind,
    agentLabel,
    ...(contextId && contextId !== baseContextId ? { tenantId: contextId.replace(/^tenant-/, '') } : {}),
    occurredAt: now().toISOString(),
    record: toPlainRecord(record),
  }
}

function toPlainRecord(record: object): Record<string, unknown> {
  const withToJson = record as { toJSON?: () => unknown }
  const plain = typeof withToJson.toJSON === 'function' ? withToJson.toJSON() : record
  return JSON.parse(JSON.stringify(plain)) as Record<string, unknown>
}
