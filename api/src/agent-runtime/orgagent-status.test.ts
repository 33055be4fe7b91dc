import type { OrgAgentStatus } from '@idplane/common/orgagent.types'
import { fromOrgAgentStatus } from './orgagent-status'

const condition = (status: 'True' | 'False', reason: string, message: string) => ({
  type: 'Ready',
  status,
  reason,
  message,
  lastTransitionTime: '2026-11-22T00:00:00Z',
})

describe('fromOrgAgentStatus', () => {
  it.each<[string, OrgAgentStatus | undefined, ReturnType<typeof fromOrgAgentStatus>]>([
    ['no status yet', undefined, { phase: 'pending', ports: undefined }],
    [
      'Pending with ports',
      { phase: 'Pending', adminPort: 8002, inboundPort: 9002 },
      { phase: 'pending', ports: { adminPort: 8002, inboundPort: 9002 } },
    ],
    ['Provisioning', { phase: 'Provisioning', adminPort: 8002 }, { phase: 'pending', ports: undefined }],
    [
      'Ready without an endpoint',
      { phase: 'Ready', adminPort: 8002, inboundPort: 9002 },
      { phase: 'pending', ports: { adminPort: 8002, inboundPort: 9002 } },
    ],
    [
      'Ready with its endpoint',
      { phase: 'Ready', adminPort: 8002, inboundPort: 9002, controllerEndpoint: 'http://agent-1.ns.svc:8002' },
      {
        phase: 'ready',
        ports: { adminPort: 8002, inboundPort: 9002 },
        controllerEndpoint: 'http://agent-1.ns.svc:8002',
      },
    ],
    [
      'Failed with the Ready condition message',
      {
        phase: 'Failed',
        adminPort: 8002,
        inboundPort: 9002,
        conditions: [condition('False', 'AgentUnreachable', 'GET /agent did not answer 200 in 6 attempts')],
      },
      {
        phase: 'failed',
        ports: { adminPort: 8002, inboundPort: 9002 },
        reason: 'GET /agent did not answer 200 in 6 attempts',
      },
    ],
    [
      'Failed without conditions',
      { phase: 'Failed' },
      { phase: 'failed', ports: undefined, reason: 'The operator marked the agent Failed' },
    ],
    [
      'Terminating',
      { phase: 'Terminating' },
      { phase: 'failed', ports: undefined, reason: 'The OrgAgent is being deleted' },
    ],
  ])('maps %s', (_name, status, expected) => {
    expect(fromOrgAgentStatus(status)).toEqual(expected)
  })
})
