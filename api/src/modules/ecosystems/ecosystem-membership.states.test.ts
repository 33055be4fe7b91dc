import { InvalidStateError } from '@idplane/common'
import { ECOSYSTEM_ORG_STATUSES } from './ecosystem-membership.entity'
import {
  ECOSYSTEM_ORG_EVENTS,
  ECOSYSTEM_ORG_STATES,
  nextEcosystemOrgState,
  stateOf,
  type EcosystemOrgEvent,
  type EcosystemOrgState,
} from './ecosystem-membership.states'

type Expected = ReturnType<typeof nextEcosystemOrgState> | 'given' | 'refused'

describe('nextEcosystemOrgState', () => {
  /** Every state × every event: the spec's rows, then every move the table does not allow. */
  const cases: [EcosystemOrgState, EcosystemOrgEvent, Expected][] = [
    ['none', 'invite', 'PENDING'],
    ['PENDING', 'accept', 'ACCEPTED'],
    ['PENDING', 'reject', 'REJECTED'],
    ['PENDING', 'set-status', 'given'],
    ['ACCEPTED', 'set-status', 'given'],
    ['REJECTED', 'set-status', 'given'],
    ['PENDING', 'remove', 'removed'],
    ['ACCEPTED', 'remove', 'removed'],
    ['REJECTED', 'remove', 'removed'],
    ['none', 'accept', 'refused'],
    ['none', 'reject', 'refused'],
    ['none', 'set-status', 'refused'],
    ['none', 'remove', 'refused'],
    ['PENDING', 'invite', 'refused'],
    ['ACCEPTED', 'invite', 'refused'],
    ['ACCEPTED', 'accept', 'refused'],
    ['ACCEPTED', 'reject', 'refused'],
    ['REJECTED', 'invite', 'refused'],
    ['REJECTED', 'accept', 'refused'],
    ['REJECTED', 'reject', 'refused'],
    ['LEAD', 'invite', 'refused'],
    ['LEAD', 'accept', 'refused'],
    ['LEAD', 'reject', 'refused'],
    ['LEAD', 'set-status', 'refused'],
    ['LEAD', 'remove', 'refused'],
  ]

  it('covers every state and event', () => {
    expect(new Set(cases.map(([from, event]) => `${from}:${event}`)).size).toBe(
      ECOSYSTEM_ORG_STATES.length * ECOSYSTEM_ORG_EVENTS.length,
    )
  })

  it.each(cases)('%s + %s -> %s', (from, event, expected) => {
    if (expected === 'refused') {
      expect(() => nextEcosystemOrgState(from, event, 'ACCEPTED')).toThrow(InvalidStateError)
    } else if (expected === 'given') {
      for (const given of ECOSYSTEM_ORG_STATUSES) expect(nextEcosystemOrgState(from, event, given)).toBe(given)
    } else {
      expect(nextEcosystemOrgState(from, event)).toBe(expected)
    }
  })

  it('names the state and the move in the refusal', () => {
    expect(() => nextEcosystemOrgState('ACCEPTED', 'accept')).toThrow(
      'An organization whose ecosystem status is ACCEPTED cannot be accepted',
    )
    expect(() => nextEcosystemOrgState('LEAD', 'remove')).toThrow(
      'The lead organization of an ecosystem cannot be removed',
    )
  })

  it('reads the state of a row', () => {
    expect(stateOf(null)).toBe('none')
    expect(stateOf({ role: 'ECOSYSTEM_LEAD', status: 'ACCEPTED' })).toBe('LEAD')
    expect(stateOf({ role: 'ECOSYSTEM_MEMBER', status: 'REJECTED' })).toBe('REJECTED')
  })
})
