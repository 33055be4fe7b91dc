import type { User } from '../../users/user.entity'
import type { OrgRole } from '../../memberships/org-role.entity'
import { arrayOf, email, object, string, uuid } from '../../../infra/http/data-schema'

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

/** A role definition `{ id, name }`. */
export const ORG_ROLE_SCHEMA = object<{ id: string; name: string }>('OrgRole', { id: uuid, name: string })

/** `{ orgRole: { id, name } }`, as members and organization list items carry their roles. */
export const ROLE_HOLDING_SCHEMA = object<{ orgRole: { id: string; name: string } }>(undefined, {
  orgRole: ORG_ROLE_SCHEMA,
})

/** MemberResponse in the OpenAPI document. */
export const MEMBER_SCHEMA = object<MemberResponse>('Member', {
  id: uuid,
  email,
  firstName: string,
  lastName: string,
  userOrgRoles: arrayOf(ROLE_HOLDING_SCHEMA),
})
