import { Entity, Index, Property } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'

/** One mailed verification code. Single-use; expires; verifying marks the address usable for sign-up. */
@Entity({ tableName: 'email_verifications' })
@Index({ properties: ['email', 'createdAt'] })
export class EmailVerification extends BaseEntity {
  @Property({ type: 'string', length: 320 })
  email!: string

  /** sha256 of the code; the code itself exists only in the mail. */
  @Property({ type: 'string', length: 64, hidden: true })
  codeHash!: string

  @Property({ type: 'string', length: 64 })
  clientAlias!: string

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date

  /** Set when the code was presented successfully; a second use is refused. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  verifiedAt?: Date | null

  /** Set when a sign-up consumed this verification. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  consumedAt?: Date | null

  @Property({ type: 'integer' })
  failedAttempts: Opt<number> = 0
}
