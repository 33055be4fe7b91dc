import type { OrgAgentStatus } from '@idplane/common/orgagent.types'
import type { AgentRuntimeStatus } from './agent-runtime'

/**
 * Maps what the operator wrote into OrgAgent.status to the runtime's view: Ready with an endpoint is ready,
 * Failed (or Terminating) is failed with the Ready condition's message, anything else is still pending.
 */
export function fromOrgAgentStatus(status: OrgAgentStatus | undefined): AgentRuntimeStatus {
  const ports =
    status?.adminPort !== undefined && status.inboundPort !== undefined
      ? { adminPort: status.adminPort, inboundPort: status.inboundPort }
      : undefined
  const ready = status?.conditions?.find((condition) => condition.type === 'Ready')
  switch (status?.phase) {
    case 'Ready':
      return status.controllerEndpoint
        ? { phase: 'ready', ports, controllerEndpoint: status.controllerEndpoint }
        : { phase: 'pending', ports }
    case 'Failed':
      return {
        phase: 'failed',
        ports,
        reason: ready?.message || ready?.reason || 'The operator marked the agent Failed',
      }
    case 'Terminating':
      return { phase: 'failed', ports, reason: 'The OrgAgent is being deleted' }
    default:
      return { phase: 'pending', ports }
  }
}

/** True when two statuses would be mirrored the same way (no database write needed). */
export function isSameStatus(a: AgentRuntimeStatus, b: AgentRuntimeStatus): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
