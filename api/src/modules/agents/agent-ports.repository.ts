import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { InvalidStateError } from '@idplane/common'
import type { PortPair } from '@idplane/common/ports'
import { allocatePorts, type CounterStart, type PortCounterStore } from './port-allocator'
import { BaseRepository } from '../../infra/db/base.repository'
import { AgentPortCounter } from './agent-port-counter.entity'

const COUNTER_NAME = 'process'

/** The tables whose rows record an agent's ports (admin_port, inbound_port). */
type PortsTable = 'org_agents' | 'base_wallets'

/**
 * The process runtime's port counters (`agent_port_counters`) and the ports recorded on agents. The increment
 * is one `update ... returning` in the transaction that records the ports on the agent, so concurrent
 * spin-ups (any number of API replicas) never share a port and a retry reuses the recorded pair.
 */
@injectable()
export class AgentPortsRepository extends BaseRepository<AgentPortCounter> {
  public constructor(em: EntityManager) {
    super(em, AgentPortCounter)
  }

  /** The organization's agent's ports: those recorded, else newly allocated and recorded (allocatePorts). */
  public async allocate(orgId: string, start: CounterStart): Promise<PortPair> {
    return this.em.transactional(async (em) => {
      const rows = await em.execute<{ id: string }[]>('select id from org_agents where organization_id = ?', [orgId])
      const orgAgentId = rows[0]?.id
      if (!orgAgentId) throw new InvalidStateError('The agent record is gone')
      return allocatePorts(sqlStore(em, 'org_agents'), orgAgentId, start)
    })
  }

  /**
   * The platform's base-wallet agent's ports (cloud wallet): those recorded on its base_wallets row, else taken
   * from the same counters as organizations' agents, so it never shares a port with one.
   */
  public async allocateForBaseWallet(baseWalletId: string, start: CounterStart): Promise<PortPair> {
    return this.em.transactional(async (em) => allocatePorts(sqlStore(em, 'base_wallets'), baseWalletId, start))
  }
}

function sqlStore(em: EntityManager, table: PortsTable): PortCounterStore {
  return {
    recordedPorts: async (orgAgentId) => {
      const rows = await em.execute<{ admin_port: number | null; inbound_port: number | null }[]>(
        `select admin_port, inbound_port from ${table} where id = ? for update`,
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
      await em.execute(`update ${table} set admin_port = ?, inbound_port = ? where id = ?`, [
        ports.adminPort,
        ports.inboundPort,
        orgAgentId,
      ])
    },
  }
}
