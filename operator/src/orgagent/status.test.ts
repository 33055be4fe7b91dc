import type { Condition } from '@idplane/common/orgagent.types'
import { isSameStatus, phaseFromConditions, setCondition, statusPatch } from './status'

const t0 = new Date('2026-11-01T10:00:00.000Z')
const t1 = new Date('2026-11-01T10:05:00.000Z')

function ready(status: Condition['status'], reason: string, lastTransitionTime = '2026-11-01T10:00:00Z'): Condition {
  return { type: 'Ready', status, reason, message: reason, lastTransitionTime }
}

describe('setCondition', () => {
  it('adds a new condition with the current time', () => {
    expect(
      setCondition(undefined, { type: 'Ready', status: 'False', reason: 'WaitingForAgent', message: 'm' }, t0),
    ).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'WaitingForAgent',
        message: 'm',
        lastTransitionTime: '2026-11-01T10:00:00Z',
      },
    ])
  })

  it.each<[string, Condition['status'], Condition['status'], string]>([
    ['keeps the transition time when the status stays False', 'False', 'False', '2026-11-01T10:00:00Z'],
    ['keeps the transition time when the status stays True', 'True', 'True', '2026-11-01T10:00:00Z'],
    ['moves the transition time when False flips to True', 'False', 'True', '2026-11-01T10:05:00Z'],
    ['moves the transition time when True flips to False', 'True', 'False', '2026-11-01T10:05:00Z'],
    ['moves the transition time when Unknown becomes False', 'Unknown', 'False', '2026-11-01T10:05:00Z'],
  ])('%s', (_label, from, to, expected) => {
    const [updated] = setCondition(
      [ready(from, 'Before')],
      { type: 'Ready', status: to, reason: 'After', message: 'after', observedGeneration: 3 },
      t1,
    )
    expect(updated).toEqual({
      type: 'Ready',
      status: to,
      reason: 'After',
      message: 'after',
      observedGeneration: 3,
      lastTransitionTime: expected,
    })
  })

  it('leaves other conditions alone and keeps their order', () => {
    const ports: Condition = {
      type: 'PortsAllocated',
      status: 'True',
      reason: 'PortsRecorded',
      message: '',
      lastTransitionTime: 'x',
    }
    const result = setCondition(
      [ports, ready('False', 'WaitingForAgent')],
      { type: 'Ready', status: 'True', reason: 'AgentReachable', message: '' },
      t1,
    )
    expect(result.map((condition) => condition.type)).toEqual(['PortsAllocated', 'Ready'])
    expect(result[0]).toBe(ports)
  })
})

describe('phaseFromConditions', () => {
  const portsAllocated: Condition = {
    type: 'PortsAllocated',
    status: 'True',
    reason: 'PortsRecorded',
    message: '',
    lastTransitionTime: 'x',
  }
  it.each<[string, Condition[] | undefined, boolean, string]>([
    ['no conditions', undefined, false, 'Pending'],
    ['ports allocated, waiting', [portsAllocated, ready('False', 'WaitingForAgent')], false, 'Provisioning'],
    ['ports allocated, no Secret yet', [portsAllocated, ready('False', 'SecretNotFound')], false, 'Provisioning'],
    ['ready', [portsAllocated, ready('True', 'AgentReachable')], false, 'Ready'],
    ['unreachable', [portsAllocated, ready('False', 'AgentUnreachable')], false, 'Failed'],
    ['deleting a ready agent', [portsAllocated, ready('True', 'AgentReachable')], true, 'Terminating'],
  ])('%s gives the phase', (_label, conditions, deleting, phase) => {
    expect(phaseFromConditions(conditions, deleting)).toBe(phase)
  })
})

describe('isSameStatus', () => {
  it.each<[string, object | undefined, object, boolean]>([
    ['equal objects', { phase: 'Ready', adminPort: 8002 }, { phase: 'Ready', adminPort: 8002 }, true],
    ['keys in another order', { adminPort: 8002, phase: 'Ready' }, { phase: 'Ready', adminPort: 8002 }, true],
    ['an undefined field', { phase: 'Ready' }, { phase: 'Ready', controllerEndpoint: undefined }, true],
    ['no status yet', undefined, { phase: 'Pending' }, false],
    ['another value', { phase: 'Ready' }, { phase: 'Failed' }, false],
  ])('compares %s', (_label, current, next, same) => {
    expect(isSameStatus(current, next)).toBe(same)
  })
})

describe('statusPatch', () => {
  it('removes fields the new status no longer has and sets the rest', () => {
    expect(
      statusPatch({ phase: 'Ready', controllerEndpoint: 'http://x' }, { phase: 'Provisioning', pollAttempts: 0 }),
    ).toEqual({
      phase: 'Provisioning',
      controllerEndpoint: null,
      pollAttempts: 0,
    })
  })
})
