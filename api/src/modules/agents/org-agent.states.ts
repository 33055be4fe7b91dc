/**
 * Provisioning states of an organization's agent (GET /orgs/:orgId/agents/health). PENDING: ports taken,
 * agent starting; WALLET_CREATED: GET /agent answered 200, so the wallet is open; DID_CREATED: the first DID
 * was created through the agent and recorded as primary; FAILED carries a reason.
 */
export const AGENT_STATUSES = ['PENDING', 'WALLET_CREATED', 'DID_CREATED', 'FAILED'] as const
export type AgentStatus = (typeof AGENT_STATUSES)[number]

/** The moves provisioning may make. FAILED → PENDING is a retry (a new spin-up of a failed agent). */
const TRANSITIONS: Readonly<Record<AgentStatus, readonly AgentStatus[]>> = {
  PENDING: ['WALLET_CREATED', 'FAILED'],
  WALLET_CREATED: ['DID_CREATED', 'FAILED'],
  DID_CREATED: ['FAILED'],
  FAILED: ['PENDING'],
}

export function canMove(from: AgentStatus, to: AgentStatus): boolean {
  return from === to || TRANSITIONS[from].includes(to)
}

/** States in which provisioning is still under way: resumed when the API starts again. */
export function isInProgress(status: AgentStatus): boolean {
  return status === 'PENDING' || status === 'WALLET_CREATED'
}

/** States whose agent should be running: the process runtime restarts them with the API. */
export function shouldRun(status: AgentStatus): boolean {
  return status !== 'FAILED'
}
