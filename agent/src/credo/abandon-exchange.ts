import { type AgentContext, EventEmitter } from '@credo-ts/core'
import {
  DidCommCredentialEventTypes,
  DidCommCredentialExchangeRepository,
  DidCommCredentialState,
  DidCommProofEventTypes,
  DidCommProofExchangeRepository,
  DidCommProofState,
  type DidCommCredentialExchangeRecord,
  type DidCommCredentialStateChangedEvent,
  type DidCommProofExchangeRecord,
  type DidCommProofStateChangedEvent,
} from '@credo-ts/didcomm'

/** Longest reason kept on a record (the rest of a long library message adds nothing). */
const MAX_REASON_LENGTH = 1000

/** States after which an exchange takes no further step. */
export const TERMINAL_EXCHANGE_STATES: readonly string[] = ['done', 'abandoned', 'declined']

export type ExchangeKind = 'credential' | 'proof'

function clip(reason: string): string {
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason
}

/**
 * Moves an exchange this agent cannot take further to `abandoned` with the reason in `errorMessage`, and emits the
 * state-changed event Credo's own transitions emit, so the platform's record and its webhooks follow (DESIGN.md: an
 * exchange never hangs). A record already in a final state, or one `onlyIf` refuses, is left as it is. Sending the problem report is the
 * caller's: it depends on whether the other agent can be reached.
 * @returns the record as saved, or undefined when it had already ended
 */
export async function abandonExchange(
  agentContext: AgentContext,
  kind: ExchangeKind,
  recordId: string,
  reason: string,
  /** Checked on the record as read now: false leaves it as it is (it moved since it was chosen). */
  onlyIf: (record: DidCommCredentialExchangeRecord | DidCommProofExchangeRecord) => boolean = () => true,
): Promise<DidCommCredentialExchangeRecord | DidCommProofExchangeRecord | undefined> {
  const events = agentContext.dependencyManager.resolve(EventEmitter)
  if (kind === 'credential') {
    const repository = agentContext.dependencyManager.resolve(DidCommCredentialExchangeRepository)
    const record = await repository.getById(agentContext, recordId)
    if (TERMINAL_EXCHANGE_STATES.includes(record.state) || !onlyIf(record)) return undefined
    const previousState = record.state
    record.state = DidCommCredentialState.Abandoned
    record.errorMessage = clip(reason)
    await repository.update(agentContext, record)
    events.emit<DidCommCredentialStateChangedEvent>(agentContext, {
      type: DidCommCredentialEventTypes.DidCommCredentialStateChanged,
      payload: { credentialExchangeRecord: record.clone(), previousState },
    })
    return record
  }
  const repository = agentContext.dependencyManager.resolve(DidCommProofExchangeRepository)
  const record = await repository.getById(agentContext, recordId)
  if (TERMINAL_EXCHANGE_STATES.includes(record.state)) return undefined
  const previousState = record.state
  record.state = DidCommProofState.Abandoned
  record.errorMessage = clip(reason)
  await repository.update(agentContext, record)
  events.emit<DidCommProofStateChangedEvent>(agentContext, {
    type: DidCommProofEventTypes.ProofStateChanged,
    payload: { proofRecord: record.clone(), previousState },
  })
  return record
}
