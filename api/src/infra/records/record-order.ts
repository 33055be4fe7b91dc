/**
 * The rule that keeps a platform record of an exchange (connection, issuance, proof, question) in step with the agent's record when events arrive late, twice or out of
 * order (agents deliver at least once, and a retried event may arrive after later ones; docs/agent.md, Events).
 *
 * A record's version is its state's rank and the agent record's `updatedAt` (the event's `occurredAt` when the
 * record carries none). A state of a higher rank always wins; a lower rank never does; within one rank the later
 * `updatedAt` wins and an equal one is a repeat. A terminal state never changes to another state.
 */
export interface RecordVersion {
  state: string
  /** When the agent last wrote the record. */
  versionAt: Date
}

/**
 * `insert`: no record yet; `advance`: the state changes (announce it); `refresh`: the same state with newer agent data
 * (update fields, nothing to announce); `ignore`: stale, a repeat, backwards, or out of a terminal state.
 */
export type OrderDecision = 'insert' | 'advance' | 'refresh' | 'ignore'

/** State ranks of one record kind: states of a later rank come after; `terminal` states are final. */
export interface StateOrder {
  rank(state: string): number
  isTerminal(state: string): boolean
}

/** A StateOrder from a table of ranks; unknown states rank lowest so they never overwrite known progress. */
export function stateOrder(ranks: Readonly<Record<string, number>>, terminal: readonly string[]): StateOrder {
  return {
    rank: (state) => ranks[state] ?? -1,
    isTerminal: (state) => terminal.includes(state),
  }
}

/** What `incoming` does to the stored record (the rule above). */
export function decideUpdate(
  order: StateOrder,
  stored: RecordVersion | null | undefined,
  incoming: RecordVersion,
): OrderDecision {
  if (!stored) return 'insert'
  const isNewer = incoming.versionAt.getTime() > stored.versionAt.getTime()
  if (incoming.state === stored.state) return isNewer ? 'refresh' : 'ignore'
  if (order.isTerminal(stored.state)) return 'ignore'
  const storedRank = order.rank(stored.state)
  const incomingRank = order.rank(incoming.state)
  if (incomingRank !== storedRank) return incomingRank > storedRank ? 'advance' : 'ignore'
  // Same rank, another state (the two roles' names of one step): only a newer version replaces it.
  return isNewer ? 'advance' : 'ignore'
}

/**
 * The version time of an agent record: its `updatedAt` when it is a valid date, else its `createdAt`, else the
 * event's `occurredAt` (the envelope's check guarantees that one).
 */
export function versionTimeOf(record: Record<string, unknown>, occurredAt: string): Date {
  for (const candidate of [record.updatedAt, record.createdAt]) {
    if (typeof candidate === 'string') {
      const time = Date.parse(candidate)
      if (!Number.isNaN(time)) return new Date(time)
    }
  }
  return new Date(occurredAt)
}

/**
 * A string field of an agent record, or null when absent or not a string. Agent JSON carries what peers sent
 * (labels, message text): NUL characters, which PostgreSQL text cannot hold, are dropped, and the text is cut to
 * the column's width, so no peer can make an event unstorable.
 */
export function textOf(record: Record<string, unknown>, field: string, maxLength: number): string | null {
  const value = record[field]
  return typeof value === 'string' ? withoutNul(value).slice(0, maxLength) : null
}

/**
 * The identity of an OpenID4VC session record (issuance or verification): its UUID id, its owner's public id (the
 * issuer's or the verifier's, in `ownerField`) and a state the kind ranks; null when any is missing or unknown.
 */
export function sessionIdentityOf(
  record: Record<string, unknown>,
  ownerField: string,
  ranks: Readonly<Record<string, number>>,
): { id: string; ownerId: string; state: string } | null {
  const id = textOf(record, 'id', 36)
  const ownerId = textOf(record, ownerField, 200)
  const state = textOf(record, 'state', 30)
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || !ownerId || !state) return null
  return ranks[state] === undefined ? null : { id, ownerId, state }
}

/** `text` without NUL characters. */
export function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text
}
