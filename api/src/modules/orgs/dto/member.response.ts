import type { User } from '../../users/user.entity'
import type { OrgRole } from '../../memberships/org-role.entity'

/** A member of `GET /v1/orgs/:orgId/users`: profile fields and the roles held in that organization. */
export interface MemberResponse {
  id: string
  email: string
  firstName: string
  lastName: string
  userOrgRoles: { orgRole: { id: string; name: string } }[]
}

export function toMemberResponse(user: User, roles: OrgRole[]): MemberResponse {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    userOrgRoles: roles.map((role) => ({ orgRole: { id: role.id, name: role.name } })),
  }
}
