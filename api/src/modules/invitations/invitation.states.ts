import { InvalidStateError } from '@idplane/common'
import type { InvitationStatus } from './invitation.entity'

/** What can happen to an existing invitation (spec: States and transitions, Organization invitation). */
export type InvitationEvent = 'accept' | 'reject' | 'remove'

/** `removed` is not stored: removing deletes the row, so the mailed link no longer resolves. */
export type InvitationState = InvitationStatus | 'removed'

export interface InvitationTransition {
  from: InvitationStatus
  event: InvitationEvent
  to: InvitationState
}

/** The state every invitation starts in (`POST /orgs/:orgId/invitations`). */
export const INITIAL_INVITATION_STATUS: InvitationStatus = 'pending'

/** The spec's table; any move not listed here is refused. */
export const INVITATION_TRANSITIONS: readonly InvitationTransition[] = [
  { from: 'pending', event: 'accept', to: 'accepted' },
  { from: 'pending', event: 'reject', to: 'rejected' },
  { from: 'pending', event: 'remove', to: 'removed' },
]

/**
 * The state an invitation moves to on an event.
 * @throws InvalidStateError when the table has no such move (accepting twice, removing an accepted one)
 */
export function nextInvitationState(from: InvitationStatus, event: 'accept' | 'reject'): InvitationStatus
export function nextInvitationState(from: InvitationStatus, event: InvitationEvent): InvitationState
export function nextInvitationState(from: InvitationStatus, event: InvitationEvent): InvitationState {
  const transition = INVITATION_TRANSITIONS.find((candidate) => candidate.from === from && candidate.event === event)
  if (!transition) throw new InvalidStateError(`An invitation that is ${from} cannot be ${PAST_TENSE[event]}`)
  return transition.to
}

const PAST_TENSE: Record<InvitationEvent, string> = { accept: 'accepted', reject: 'rejected', remove: 'removed' }
