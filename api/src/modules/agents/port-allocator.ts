import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
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

const COUNTER_NAME = 'process'

/**
 * Allocates ports of the process runtime from the `agent_port_counters` row. The increment is one
 * `update ... returning` in the transaction that records the ports on the agent, so concurrent
 * spin-ups (any number of API replicas) never share a port and a retry reuses the recorded pair.
 */
@injectable()
export class PortAllocator {
  public constructor(private readonly em: EntityManager) {}

  public async allocate(orgAgentId: string, start: CounterStart): Promise<PortPair> {
    return this.em.transactional((em) => allocatePorts(sqlStore(em), orgAgentId, start))
  }
}

function sqlStore(em: EntityManager): PortCounterStore {
  return {
    recordedPorts: async (orgAgentId) => {
      const rows = await em.execute<{ admin_port: number | null; inbound_port: number | null }[]>(
        'select admin_port, inbound_port from org_agents where id = ? for update',
        [orgAgentId],
      )
      const row = rows[0]
      if (!row) throw new InvalidStateError('The agent record is gone')
      return row.admin_port !== null && row.inbound_port !== null
        ? { adminPort: row.admin_port, inboundPort: row.inbound_port }
        : undefined
    },
    increment: async (start) => {
      await em.execute(
        'insert into agent_port_counters (name, admin, inbound) values (?, ?, ?) on conflict (name) do nothing',
        [COUNTER_NAME, start.admin, start.inbound],
      )
      const rows = await em.execute<{ admin: number; inbound: number }[]>(
        'update agent_port_counters set admin = admin + 1, inbound = inbound + 1 where name = ? returning admin, inbound',
        [COUNTER_NAME],
      )
      const row = rows[0]
      if (!row) throw new InvalidStateError('The port counters are missing')
      return { adminPort: row.admin, inboundPort: row.inbound }
    },
    record: async (orgAgentId, ports) => {
      await em.execute('update org_agents set admin_port = ?, inbound_port = ? where id = ?', [
        ports.adminPort,
        ports.inboundPort,
        orgAgentId,
      ])
    },
  }
}
