import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy'

export const ORG_ROLE_NAMES = [
  'owner',
  'admin',
  'issuer',
  'verifier',
  'member',
  'holder',
  'super_admin',
  'platform_admin',
] as const
export type OrgRoleName = (typeof ORG_ROLE_NAMES)[number]

/** A role definition; the eight rows are seeded by the foundation migration with fixed UUIDs. */
@Entity({ tableName: 'org_roles' })
export class OrgRole {
  @PrimaryKey({ type: 'uuid' })
  id!: string

  @Property({ type: 'string', length: 50 })
  @Unique()
  name!: OrgRoleName

  @Property({ type: 'string', length: 200 })
  description!: string
}
