import { Entity, ManyToOne, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { User } from '../users/user.entity'
import { Organization } from '../orgs/organization.entity'
import { OrgRole } from './org-role.entity'

/** Membership: one row per (user, organization, role). */
@Entity({ tableName: 'user_org_roles' })
@Unique({ properties: ['user', 'organization', 'orgRole'] })
export class UserOrgRole extends BaseEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @ManyToOne(() => OrgRole, { deleteRule: 'restrict' })
  orgRole!: OrgRole
}
