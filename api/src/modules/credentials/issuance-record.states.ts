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

/**
 * Whether `incoming` changes a record now at `current` (undefined: no record yet). A terminal state never
 * changes; a later state in the exchange applies; the same rank applies only for another state reported later
 * (a rank holds one state per role, so this is a correction); an unknown state never applies.
 */
export function shouldApply(current: StateReport | undefined, incoming: StateReport): boolean {
  const incomingRank = STATE_RANK[incoming.state]
  if (incomingRank === undefined) return false
  if (!current) return true
  if (isTerminalState(current.state)) return false
  const currentRank = STATE_RANK[current.state] ?? 0
  if (incomingRank !== currentRank) return incomingRank > currentRank
  return incoming.state !== current.state && incoming.at.getTime() > current.at.getTime()
}
