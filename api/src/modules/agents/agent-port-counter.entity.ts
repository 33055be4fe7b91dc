import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy'

/**
 * The process runtime's port counters: one row, incremented atomically (`update ... returning`) in the
 * transaction that records the ports on the agent (DESIGN.md, "Port rules").
 */
@Entity({ tableName: 'agent_port_counters' })
export class AgentPortCounter {
  @PrimaryKey({ type: 'string', length: 50 })
  name!: string

  @Property({ type: 'integer' })
  admin!: number

  @Property({ type: 'integer' })
  inbound!: number
}
