import { injectable } from 'inversify'
import type { Principal } from '../../infra/auth/token.service'
import { OrgRoleLookup } from '../../infra/auth/org-role-lookup'
import type { OrgRoleName } from './org-role.entity'
import { MembershipsRepository } from './memberships.repository'
import { CLIENT_ROLE } from './org-roles'

/** The role lookup behind `@Authorized(roles)`: a user's memberships, or an M2M client's fixed role in its organization. */
@injectable()
export class MemberRoleLookup extends OrgRoleLookup {
  public constructor(private readonly memberships: MembershipsRepository) {
    super()
  }

  public async rolesOf(principal: Principal, orgId: string): Promise<OrgRoleName[]> {
    if (principal.kind === 'client') return principal.orgId === orgId ? [CLIENT_ROLE] : []
    return this.memberships.recentRoleNamesOf(orgId, principal.userId)
  }
}
