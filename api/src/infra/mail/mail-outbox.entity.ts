import { randomUUID } from 'node:crypto'
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy'
import type { Opt } from '@mikro-orm/core'
import type { MailMessage } from './mailer'

export type MailOutboxStatus = 'pending' | 'sent' | 'dead'

/**
 * One mail to send, written in the transaction of what it announces (an invitation, a verification code),
 * so neither exists without the other. The relay claims rows, sends them and marks them sent.
 */
@Entity({ tableName: 'mail_outbox' })
@Index({ properties: ['status', 'availableAt'] })
// Retention deletes finished rows by age: this index holds only them, so a pass never reads the pending ones.
@Index({
  name: 'mail_outbox_finished_index',
  expression: 'create index "mail_outbox_finished_index" on "mail_outbox" ("created_at") where "status" <> \'pending\'',
})
export class MailOutboxEntry {
  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID()

  /** What the mail is for (`invitation:<id>`); one mail per key. Also the mail's Message-ID. */
  @Unique()
  @Property({ type: 'string', length: 200 })
  idempotencyKey!: string

  @Property({ type: 'json' })
  message!: MailMessage

  @Property({ type: 'string', length: 10 })
  status: Opt<MailOutboxStatus> = 'pending'

  /** Claims so far (each is one send attempt, or a crash during one). */
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  availableAt: Opt<Date> = new Date()

  /** A relay holds the row until then; after it, another may claim it (the holder crashed). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  claimedUntil?: Date | null

  @Property({ type: 'uuid', nullable: true })
  claimToken?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  sentAt?: Date | null

  /** Class and message of the last failure, never the mail's content. */
  @Property({ type: 'text', nullable: true })
  lastError?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date()
}
