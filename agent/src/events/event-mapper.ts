import {
  DidCommBasicMessageEventTypes,
  DidCommBasicMessageRecord,
  DidCommConnectionEventTypes,
  DidCommConnectionRecord,
  DidCommCredentialEventTypes,
  DidCommCredentialExchangeRecord,
  DidCommProofEventTypes,
  DidCommProofExchangeRecord,
} from '@credo-ts/didcomm'
import { QuestionAnswerEventTypes, QuestionAnswerRecord } from '@credo-ts/question-answer'
import type { AgentEventKind } from '@idplane/common/agent-contract/events'

import { OPENID4VC_FORWARDED_EVENTS, OPENID4VC_FORWARDED_RECORD_TYPES } from '../openid4vc/openid4vc-events'

/** Credo record types (their static `type`) whose creation and state changes are announced, with the event kind. */
export const FORWARDED_RECORD_TYPES: Readonly<Record<string, AgentEventKind>> = {
  [DidCommConnectionRecord.type]: 'connection',
  [DidCommCredentialExchangeRecord.type]: 'credential',
  [DidCommProofExchangeRecord.type]: 'proof',
  [DidCommBasicMessageRecord.type]: 'basic-message',
  [QuestionAnswerRecord.type]: 'question-answer',
  ...OPENID4VC_FORWARDED_RECORD_TYPES,
}

/** Credo's state-changed events of those records, with the payload key that holds the record (for metrics). */
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
  ...OPENID4VC_FORWARDED_EVENTS,
}

export interface CredoEventLike {
  type: string
  payload: Record<string, unknown>
  metadata?: { contextCorrelationId?: string }
}
