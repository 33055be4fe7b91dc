import { Entity, ManyToOne, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { User } from '../users/user.entity'
import { OrgRole } from './org-role.entity'

/** What a membership knows of its organization: a reference by id. */
export interface MemberOrganization {
  id: string
}

/** Membership: one row per (user, organization, role). */
@Entity({ tableName: 'user_org_roles' })
@Unique({ properties: ['user', 'organization', 'orgRole'] })
export class UserOrgRole extends BaseEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User

  /**
   * The organization (the orgs module's `Organization`), of which a membership needs only the id. The orgs module
   * builds on memberships (API_MODULES order), so the relation names the entity rather than importing it.
   */
  @ManyToOne({ type: 'Organization', deleteRule: 'cascade' })
  organization!: MemberOrganization

  @ManyToOne(() => OrgRole, { deleteRule: 'restrict' })
  orgRole!: OrgRole
}
