import { decideUpdate, stateOrder } from '../../infra/records/record-order'

/**
 * Credential exchange states (Aries RFC 0453, as Credo names them) and the rule that applies an agent's report of
 * one to the platform's record: events arrive at least once and in any order, so a report is applied only when it
 * moves the exchange forward (spec: States and transitions; PREAMBLE: never backwards).
 */

/** States after which nothing changes. */
export const TERMINAL_STATES = ['done', 'abandoned', 'declined'] as const

/** Progress of each state; a report applies only when it moves forward (terminal states rank highest). */
const STATE_RANK: Readonly<Record<string, number>> = {
  'proposal-sent': 1,
  'proposal-received': 1,
  'offer-sent': 2,
  'offer-received': 2,
  'request-sent': 3,
  'request-received': 3,
  'credential-issued': 4,
  'credential-received': 4,
  done: 5,
  abandoned: 6,
  declined: 6,
}

export function isTerminalState(state: string): boolean {
  return (TERMINAL_STATES as readonly string[]).includes(state)
}

export function isKnownState(state: string): boolean {
  return state in STATE_RANK
}

export interface StateReport {
  state: string
  /** The agent record's `updatedAt` (or the event's time). */
  at: Date
}

export const ISSUANCE_ORDER = stateOrder(STATE_RANK, TERMINAL_STATES)

/**
 * Whether `incoming` changes the state of a record now at `current` (undefined: no record yet): the shared ordering
 * rule (infra/records/record-order.ts), where newer data in the same state is no change; unknown states never apply.
 */
export function shouldApply(current: StateReport | undefined, incoming: StateReport): boolean {
  if (!isKnownState(incoming.state)) return false
  if (!current) return true
  const decision = decideUpdate(
    ISSUANCE_ORDER,
    { state: current.state, versionAt: current.at },
    { state: incoming.state, versionAt: incoming.at },
  )
  return decision === 'advance'
}
