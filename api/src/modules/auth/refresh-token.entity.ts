import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { User } from '../users/user.entity'

/**
 * A refresh token, stored as a hash. Every use rotates it (usedAt set, a successor issued in the same
 * family); presenting a used token again is treated as theft and revokes the whole family.
 */
@Entity({ tableName: 'refresh_tokens' })
@Index({ properties: ['familyId'] })
export class RefreshToken extends BaseEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User

  @Property({ type: 'uuid' })
  familyId!: string

  @Property({ type: 'string', length: 64, hidden: true })
  @Unique()
  tokenHash!: string

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  usedAt?: Date | null

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revokedAt?: Date | null
}
