import { decideUpdate, stateOrder } from '../../infra/records/record-order'

/**
 * Order of a proof exchange's states (Credo's DidCommProofState), for applying agent events that arrive late,
 * twice or out of order: a record only moves forward, and a terminal state is never left.
 */
export const PROOF_STATE_RANK: Readonly<Record<string, number>> = {
  'proposal-sent': 1,
  'proposal-received': 1,
  'request-sent': 2,
  'request-received': 2,
  'presentation-sent': 3,
  'presentation-received': 3,
  done: 4,
  abandoned: 4,
  declined: 4,
}

export const TERMINAL_PROOF_STATES: readonly string[] = ['done', 'abandoned', 'declined']

export interface ProofVersion {
  state: string
  /** When the agent last changed its record. */
  updatedAt: Date
}

/**
 * What to do with an incoming version of a record:
 * - `create`: the platform has no record yet;
 * - `advance`: the state moves forward (a new state: announce it);
 * - `refresh`: same state, newer agent data (fields such as `isVerified` or `connectionId`; nothing to announce);
 * - `ignore`: unknown state, older or repeated data, or a move backwards or out of a terminal state.
 */
export type ProofTransition = 'create' | 'advance' | 'refresh' | 'ignore'

export const PROOF_ORDER = stateOrder(PROOF_STATE_RANK, TERMINAL_PROOF_STATES)

/** The shared ordering rule (infra/records/record-order.ts) in the proofs module's words; unknown states are ignored. */
export function proofTransition(current: ProofVersion | null, incoming: ProofVersion): ProofTransition {
  if (PROOF_STATE_RANK[incoming.state] === undefined) return 'ignore'
  if (!current) return 'create'
  const decision = decideUpdate(
    PROOF_ORDER,
    { state: current.state, versionAt: current.updatedAt },
    { state: incoming.state, versionAt: incoming.updatedAt },
  )
  return decision === 'insert' ? 'create' : decision
}
