import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/**
 * A trust framework of organizations (spec: Ecosystem). The lead organization created it; deleting that
 * organization deletes its ecosystems (and by cascade their memberships).
 */
@Entity({ tableName: 'ecosystems' })
@Index({ properties: ['name'] })
@Index({ properties: ['leadOrganization'] })
export class Ecosystem extends BaseEntity {
  @Property({ type: 'string', length: 50 })
  name!: string

  @Property({ type: 'string', length: 255 })
  description!: string

  /** Comma-separated, as the client sent it (spec: `tags`). */
  @Property({ type: 'string', length: 500, nullable: true })
  tags?: string | null

  /** The spec's create field `logo`: an http(s) URL. */
  @Property({ type: 'string', length: 2048, nullable: true })
  logoUrl?: string | null

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  leadOrganization!: Organization

  /** The user who created it; null for an organization's M2M client. */
  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null
}
