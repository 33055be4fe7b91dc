/**
 * Agent port counters, shared by the operator (Kubernetes runtime) and the API (process runtime).
 * The counter starts here and each new agent takes the incremented value, so the first agent gets
 * 8002 / 9002 (spec: Limits, "Agent provisioning constants"; DESIGN.md, "Port rules").
 */
export const ADMIN_PORT_COUNTER_START = 8001
export const INBOUND_PORT_COUNTER_START = 9001

/** The ports of one agent: its admin REST API and its DIDComm inbound transport. */
export interface PortPair {
  adminPort: number
  inboundPort: number
}
