import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/** Widths of the text columns of message records; longer agent values are cut. */
export const MESSAGE_TEXT_LIMITS = { id: 100, state: 40, role: 40, text: 10_000 } as const

/**
 * A question asked or received over one of the organization's connections (Credo's question-answer protocol),
 * as the agent last reported it. `questionAnswerId` is the agent's record id, shown as the API's `id`.
 */
@Entity({ tableName: 'question_answers' })
@Unique({ properties: ['organization', 'questionAnswerId'] })
@Index({ properties: ['organization', 'agentCreatedAt'] })
export class QuestionAnswer extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.id })
  questionAnswerId!: string

  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.id })
  connectionId!: string

  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.id, nullable: true })
  threadId?: string | null

  /** `questioner` or `responder`. */
  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.role, nullable: true })
  role?: string | null

  @Property({ type: 'string', length: MESSAGE_TEXT_LIMITS.state })
  state!: string

  @Property({ type: 'text' })
  questionText!: string

  @Property({ type: 'text', nullable: true })
  questionDetail?: string | null

  @Property({ type: 'json', columnType: 'jsonb' })
  validResponses!: { text: string }[]

  /** The answer, once given (by this organization or the other side). */
  @Property({ type: 'text', nullable: true })
  response?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentCreatedAt!: Date

  /** The agent record's last write: the version the ordering rule compares. */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentUpdatedAt!: Date
}
