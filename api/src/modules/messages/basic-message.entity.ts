import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'
import { MESSAGE_TEXT_LIMITS } from './question-answer.entity'

/**
 * A basic message sent or received over one of the organization's connections. Messages never change once
 * written, so the first event (or agent answer) makes the record and later ones are repeats.
 */
@Entity({ tableName: 'basic_messages' })
@Unique({ properties: ['organization', 'messageId'] })
@Index({ properties: ['organization', 'connectionId', 'agentCreatedAt'] })
export class BasicMessage extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  /** The agent's record id. */
  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.id })
  messageId!: string

  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.id })
  connectionId!: string

  /** `sender` or `receiver`. */
  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.role })
  role!: string

  @Property({ type: 'text' })
  content!: string

  /** When the sender says it sent the message (the message's `sent_time`), as it wrote it. */
  @Property({ type: 'string', length: 64, nullable: true })
  sentTime?: string | null

  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.id, nullable: true })
  threadId?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentCreatedAt!: Date
}
