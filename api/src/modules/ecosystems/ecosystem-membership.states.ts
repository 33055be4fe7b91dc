import { InvalidStateError } from '@idplane/common'
import {
  ECOSYSTEM_ORG_STATUSES,
  type EcosystemMembership,
  type EcosystemOrgStatus,
} from './ecosystem-membership.entity'

/**
 * Where an organization stands in an ecosystem: no row (`none`), a member row in one of the spec's statuses,
 * or the lead's own row (`LEAD`), which no move of the table changes.
 */
export type EcosystemOrgState = 'none' | EcosystemOrgStatus | 'LEAD'

/** The triggers of the spec's table (States and transitions, Ecosystem organization status). */
export type EcosystemOrgEvent = 'invite' | 'accept' | 'reject' | 'set-status' | 'remove'

/** `given`: the status the request names (`PUT /ecosystem/member/status?status=`); `removed`: the row is deleted. */
export type EcosystemOrgTarget = EcosystemOrgStatus | 'given' | 'removed'

export interface EcosystemOrgTransition {
  from: EcosystemOrgState
  event: EcosystemOrgEvent
  to: EcosystemOrgTarget
}

export const ECOSYSTEM_ORG_STATES: readonly EcosystemOrgState[] = ['none', ...ECOSYSTEM_ORG_STATUSES, 'LEAD']
export const ECOSYSTEM_ORG_EVENTS: readonly EcosystemOrgEvent[] = ['invite', 'accept', 'reject', 'set-status', 'remove']

/**
 * The spec's table as data; any move not listed is refused (409). "any" and "member" in the spec are the three
 * statuses of a member's row: the lead's row is neither re-statused nor removed (an ecosystem keeps its lead).
 */
export const ECOSYSTEM_ORG_TRANSITIONS: readonly EcosystemOrgTransition[] = [
  { from: 'none', event: 'invite', to: 'PENDING' },
  { from: 'PENDING', event: 'accept', to: 'ACCEPTED' },
  { from: 'PENDING', event: 'reject', to: 'REJECTED' },
  ...ECOSYSTEM_ORG_STATUSES.map((from) => ({ from, event: 'set-status' as const, to: 'given' as const })),
  ...ECOSYSTEM_ORG_STATUSES.map((from) => ({ from, event: 'remove' as const, to: 'removed' as const })),
]

/** The state of an organization's row (null: not in the ecosystem). */
export function stateOf(row: Pick<EcosystemMembership, 'role' | 'status'> | null): EcosystemOrgState {
  if (!row) return 'none'
  return row.role === 'ECOSYSTEM_LEAD' ? 'LEAD' : row.status
}

/**
 * The state a move leads to.
 * @param given the status of a `set-status` move
 * @throws InvalidStateError when the table has no such move (accepting twice, inviting a member again,
 *   touching the lead's row)
 */
export function nextEcosystemOrgState(
  from: EcosystemOrgState,
  event: Exclude<EcosystemOrgEvent, 'remove'>,
  given?: EcosystemOrgStatus,
): EcosystemOrgStatus
export function nextEcosystemOrgState(
  from: EcosystemOrgState,
  event: EcosystemOrgEvent,
  given?: EcosystemOrgStatus,
): EcosystemOrgStatus | 'removed'
export function nextEcosystemOrgState(
  from: EcosystemOrgState,
  event: EcosystemOrgEvent,
  given?: EcosystemOrgStatus,
): EcosystemOrgStatus | 'removed' {
  const transition = ECOSYSTEM_ORG_TRANSITIONS.find((candidate) => candidate.from === from && candidate.event === event)
  if (!transition) throw new InvalidStateError(refusal(from, event))
  if (transition.to !== 'given') return transition.to
  if (!given) throw new Error('A set-status move needs the status to set')
  return given
}

function refusal(from: EcosystemOrgState, event: EcosystemOrgEvent): string {
  if (from === 'LEAD') return `The lead organization of an ecosystem cannot be ${PAST_TENSE[event]}`
  if (from === 'none') return `An organization that is not in the ecosystem cannot be ${PAST_TENSE[event]}`
  return `An organization whose ecosystem status is ${from} cannot be ${PAST_TENSE[event]}`
}

const PAST_TENSE: Record<EcosystemOrgEvent, string> = {
  invite: 'invited',
  accept: 'accepted',
  reject: 'rejected',
  'set-status': 'given a new status',
  remove: 'removed',
}
