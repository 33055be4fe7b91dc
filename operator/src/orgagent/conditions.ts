/** Condition types of an OrgAgent (PascalCase states, per the Kubernetes API conventions). */
export const CONDITION_PORTS_ALLOCATED = 'PortsAllocated'
export const CONDITION_READY = 'Ready'

/** Reasons (PascalCase causes). */
export const REASON_PORTS_RECORDED = 'PortsRecorded'
export const REASON_SECRET_NOT_FOUND = 'SecretNotFound'
export const REASON_WAITING_FOR_AGENT = 'WaitingForAgent'
export const REASON_POD_REPLACING = 'PodReplacing'
export const REASON_AGENT_REACHABLE = 'AgentReachable'
export const REASON_AGENT_UNREACHABLE = 'AgentUnreachable'
export const REASON_TERMINATING = 'Terminating'

/** Ready=False reasons that retrying cannot fix without a change: the phase is Failed. */
export const FAILED_REASONS: readonly string[] = [REASON_AGENT_UNREACHABLE]
