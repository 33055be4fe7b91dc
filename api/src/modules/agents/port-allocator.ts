import { InvalidStateError } from '@idplane/common'
import type { PortPair } from '@idplane/common/ports'

/** Counter start values: the spec's 8001 / 9001 unless a test moved them (AGENT_PORT_COUNTER_START). */
export interface CounterStart {
  admin: number
  inbound: number
}

/** What allocation needs of the database, inside one transaction. */
export interface PortCounterStore {
  /** The ports already recorded on the agent, locking its row. */
  recordedPorts(orgAgentId: string): Promise<PortPair | undefined>
  /** Increments both counters atomically (creating them at `start` first) and returns the new values. */
  increment(start: CounterStart): Promise<PortPair>
  record(orgAgentId: string, ports: PortPair): Promise<void>
}

/**
 * The port rules (DESIGN.md, "Port rules"): an agent keeps the ports recorded for it; a new one takes the
 * incremented counters (first agent: start + 1). Admin ports may not run into the inbound range.
 * @throws InvalidStateError when the counters are exhausted
 */
export async function allocatePorts(
  store: PortCounterStore,
  orgAgentId: string,
  start: CounterStart,
): Promise<PortPair> {
  const recorded = await store.recordedPorts(orgAgentId)
  if (recorded) return recorded
  const ports = await store.increment(start)
  if (ports.adminPort > start.inbound || ports.inboundPort > 65535) {
    throw new InvalidStateError('No agent ports left: the admin or inbound counter reached the end of its range')
  }
  await store.record(orgAgentId, ports)
  return ports
}
