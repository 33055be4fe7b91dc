import { AGENT_STATUSES, canMove, isInProgress, type AgentStatus } from './org-agent.states'

describe('agent provisioning states', () => {
  it.each<[AgentStatus, AgentStatus, boolean]>([
    ['PENDING', 'WALLET_CREATED', true],
    ['PENDING', 'DID_CREATED', false],
    ['WALLET_CREATED', 'DID_CREATED', true],
    ['DID_CREATED', 'PENDING', false],
    ['FAILED', 'PENDING', true],
    ['FAILED', 'DID_CREATED', false],
  ])('%s → %s allowed: %s', (from, to, allowed) => {
    expect(canMove(from, to)).toBe(allowed)
  })

  it('fails from every state', () => {
    for (const status of AGENT_STATUSES.filter((s) => s !== 'FAILED')) expect(canMove(status, 'FAILED')).toBe(true)
  })

  it('resumes only unfinished provisioning', () => {
    expect(AGENT_STATUSES.filter(isInProgress)).toEqual(['PENDING', 'WALLET_CREATED'])
  })
})
