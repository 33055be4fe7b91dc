import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/** Widths of the text columns; longer agent values are cut (record-order.ts, textOf). */
export const CONNECTION_TEXT_LIMITS = { id: 100, state: 40, role: 40, did: 2000, label: 500, protocol: 200 } as const

/**
 * An organization's connection as its agent last reported it (events, or the agent's answer to a call). The API
 * shows the agent's Credo record id as the connection's `id` (`connectionId`, unique per organization): that is
 * the id every agent route and every other record (credential, proof, message) names; the row's own `id` stays
 * internal.
 */
@Entity({ tableName: 'connections' })
@Unique({ properties: ['organization', 'connectionId'] })
@Index({ properties: ['organization', 'agentCreatedAt'] })
export class Connection extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  /** The agent's record id. */
  @Property({ type: 'string', length: CONNECTION_TEXT_LIMITS.id })
  connectionId!: string

  @Property({ type: 'string', length: CONNECTION_TEXT_LIMITS.state })
  state!: string

  @Property({ type: 'string', length: CONNECTION_TEXT_LIMITS.role, nullable: true })
  role?: string | null

  @Property({ type: 'text', nullable: true })
  did?: string | null

  @Property({ type: 'text', nullable: true })
  theirDid?: string | null

  @Property({ type: 'string', length: CONNECTION_TEXT_LIMITS.label, nullable: true })
  theirLabel?: string | null

  @Property({ type: 'string', length: CONNECTION_TEXT_LIMITS.label, nullable: true })
  alias?: string | null

  @Property({ type: 'boolean', nullable: true })
  autoAcceptConnection?: boolean | null

  @Property({ type: 'string', length: CONNECTION_TEXT_LIMITS.protocol, nullable: true })
  protocol?: string | null

  @Property({ type: 'string', length: CONNECTION_TEXT_LIMITS.id, nullable: true })
  outOfBandId?: string | null

  @Property({ type: 'string', length: CONNECTION_TEXT_LIMITS.id, nullable: true })
  threadId?: string | null

  /** When the agent created its record (the list's `createdAt` and `createDateTime` sort). */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentCreatedAt!: Date

  /** The agent record's last write: the version the ordering rule compares (record-order.ts). */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentUpdatedAt!: Date
}
