import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { AGENT_EVENT_LIMITS, type AgentEventKind } from '@idplane/common/agent-contract/events'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/** An event an agent posted; agents deliver at least once, so the event id is unique per organization. */
@Entity({ tableName: 'agent_events' })
@Unique({ properties: ['organization', 'eventId'] })
export class AgentEvent extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: AGENT_EVENT_LIMITS.id })
  eventId!: string

  @Property({ type: 'string', length: 30 })
  kind!: AgentEventKind

  @Property({ type: 'string', length: AGENT_EVENT_LIMITS.agentLabel })
  agentLabel!: string

  @Property({ type: 'string', length: AGENT_EVENT_LIMITS.tenantId, nullable: true })
  tenantId?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  occurredAt!: Date

  @Property({ type: 'json' })
  record!: Record<string, unknown>
}
