import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

export const AGENT_EVENT_KINDS = ['connection', 'credential', 'proof', 'basic-message', 'question-answer'] as const
export type AgentEventKind = (typeof AGENT_EVENT_KINDS)[number]

/** An event an agent posted; agents deliver at least once, so the event id is unique per organization. */
@Entity({ tableName: 'agent_events' })
@Unique({ properties: ['organization', 'eventId'] })
export class AgentEvent extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 200 })
  eventId!: string

  @Property({ type: 'string', length: 30 })
  kind!: AgentEventKind

  @Property({ type: 'string', length: 256 })
  agentLabel!: string

  @Property({ type: 'string', length: 200, nullable: true })
  tenantId?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  occurredAt!: Date

  @Property({ type: 'json' })
  record!: Record<string, unknown>
}
