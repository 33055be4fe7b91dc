import { Entity, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'

@Entity({ tableName: 'users' })
export class User extends BaseEntity {
  /** Stored lower-cased; the unique index makes sign-up races a 409, not a duplicate. */
  @Property({ type: 'string', length: 320 })
  @Unique()
  email!: string

  @Property({ type: 'string', length: 100 })
  firstName!: string

  @Property({ type: 'string', length: 100 })
  lastName!: string

  /** scrypt, see infra/auth/password-hasher.ts. */
  @Property({ type: 'string', hidden: true, lazy: true })
  passwordHash!: string

  @Property({ type: 'boolean' })
  isEmailVerified: Opt<boolean> = false

  @Property({ type: 'string', length: 64, nullable: true })
  clientAlias?: string | null
}
