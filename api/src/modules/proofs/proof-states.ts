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

export function proofTransition(current: ProofVersion | null, incoming: ProofVersion): ProofTransition {
  const incomingRank = PROOF_STATE_RANK[incoming.state]
  if (incomingRank === undefined) return 'ignore'
  if (!current) return 'create'
  const currentRank = PROOF_STATE_RANK[current.state] ?? 0
  const isNewer = incoming.updatedAt.getTime() > current.updatedAt.getTime()
  if (incoming.state === current.state) return isNewer ? 'refresh' : 'ignore'
  if (TERMINAL_PROOF_STATES.includes(current.state)) return 'ignore'
  if (incomingRank > currentRank) return 'advance'
  // Same rank, other state (the two roles' names of one step): only a newer version replaces it.
  if (incomingRank === currentRank && isNewer) return 'advance'
  return 'ignore'
}
