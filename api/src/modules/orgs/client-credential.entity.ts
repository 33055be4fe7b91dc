import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from './organization.entity'

/** Machine-to-machine credentials of an organization; the secret is stored only as a scrypt hash. */
@Entity({ tableName: 'client_credentials' })
export class ClientCredential extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  @Unique()
  organization!: Organization

  @Property({ type: 'uuid' })
  @Unique()
  clientId!: string

  @Property({ type: 'string', hidden: true })
  secretHash!: string

  /** Last four characters, to show a masked secret on read. */
  @Property({ type: 'string', length: 8 })
  secretHint!: string

  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null
}
