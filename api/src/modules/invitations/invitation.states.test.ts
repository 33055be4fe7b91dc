import { InvalidStateError } from '@idplane/common'
import { INVITATION_STATUSES } from './invitation.entity'
import { nextInvitationState, type InvitationEvent, type InvitationState } from './invitation.states'

describe('nextInvitationState', () => {
  const cases: [(typeof INVITATION_STATUSES)[number], InvitationEvent, InvitationState | 'refused'][] = [
    ['pending', 'accept', 'accepted'],
    ['pending', 'reject', 'rejected'],
    ['pending', 'remove', 'removed'],
    ['accepted', 'accept', 'refused'],
    ['accepted', 'reject', 'refused'],
    ['accepted', 'remove', 'refused'],
    ['rejected', 'accept', 'refused'],
    ['rejected', 'reject', 'refused'],
    ['rejected', 'remove', 'refused'],
  ]

  it('covers every status and event', () => {
    expect(new Set(cases.map(([from, event]) => `${from}:${event}`)).size).toBe(INVITATION_STATUSES.length * 3)
  })

  it.each(cases)('%s + %s -> %s', (from, event, expected) => {
    if (expected === 'refused') {
      expect(() => nextInvitationState(from, event)).toThrow(InvalidStateError)
    } else {
      expect(nextInvitationState(from, event)).toBe(expected)
    }
  })

  it('names the state and the move in the refusal', () => {
    expect(() => nextInvitationState('accepted', 'accept')).toThrow('An invitation that is accepted cannot be accepted')
  })
})
