import { Entity, Index, OneToMany, Property, Unique } from '@mikro-orm/decorators/legacy'
import { Collection, type Opt } from '@mikro-orm/core'
import { BaseEntity } from '../../infra/db/base.entity'
// A type-only import: UserOrgRole imports Organization, and a value import both ways breaks whichever loads
// second under decorator metadata (jest loads entities in any order).
import type { UserOrgRole } from '../memberships/user-org-role.entity'

@Entity({ tableName: 'organizations' })
@Index({ properties: ['name'] })
export class Organization extends BaseEntity {
  @Property({ type: 'string', length: 200 })
  name!: string

  /** Public-profile path segment, unique, derived from the name at creation. */
  @Property({ type: 'string', length: 220 })
  @Unique()
  slug!: string

  @Property({ type: 'text' })
  description!: string

  /** A URL or a data:image/...;base64 value; empty string by default (spec: Organization). */
  @Property({ type: 'text' })
  logoUrl: Opt<string> = ''

  @Property({ type: 'string', length: 2048, nullable: true })
  website?: string | null

  @Property({ type: 'string', length: 200, nullable: true })
  registrationNumber?: string | null

  @Property({ type: 'string', length: 2048, nullable: true })
  notificationWebhook?: string | null

  @Property({ type: 'boolean' })
  isPublic: Opt<boolean> = false

  @Property({ type: 'integer', nullable: true })
  countryId?: number | null

  @Property({ type: 'integer', nullable: true })
  stateId?: number | null

  @Property({ type: 'integer', nullable: true })
  cityId?: number | null

  @Property({ type: 'uuid', nullable: true })
  createdBy?: string | null

  // MikroORM 7's `entity` takes only a class, which would need a value import; `type` names it instead.
  @OneToMany({ type: 'UserOrgRole', mappedBy: 'organization' })
  userOrgRoles = new Collection<UserOrgRole>(this)
}

/** What a member reads of an organization: its columns, no relations, not tracked by the unit of work. */
export type OrganizationView = Pick<
  Organization,
  | 'id'
  | 'name'
  | 'slug'
  | 'description'
  | 'logoUrl'
  | 'website'
  | 'registrationNumber'
  | 'notificationWebhook'
  | 'isPublic'
  | 'countryId'
  | 'stateId'
  | 'cityId'
  | 'createdAt'
  | 'updatedAt'
>
