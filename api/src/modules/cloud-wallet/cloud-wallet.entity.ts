import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { User } from '../users/user.entity'

/**
 * One user's wallet: a tenant of the base wallet's agent. One per user (unique user), so a second create is a 409
 * even when two requests race; deleting the user deletes the row (the tenant stays on the agent).
 */
@Entity({ tableName: 'cloud_wallets' })
export class CloudWallet extends BaseEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade', unique: true })
  user!: User

  /** The sign-in address when the wallet was made (from the token). */
  @Property({ type: 'string', length: 320 })
  email!: string

  /** The tenant id on the base agent (X-Tenant-Id of every call for this wallet). */
  @Property({ type: 'string', length: 100 })
  @Unique()
  tenantId!: string

  @Property({ type: 'string', length: 100 })
  label!: string

  @Property({ type: 'string', length: 2048, nullable: true })
  connectionImageUrl?: string | null
}
