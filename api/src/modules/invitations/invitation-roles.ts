import type { OrgRole } from '../memberships/org-role.entity'
import type { Invitation } from './invitation.entity'

export interface OrgRoleRef {
  id: string
  name: string
}

/** An invitation with its role ids resolved to `{ id, name }` (spec: Organization invitation, orgRoles). */
export interface RoledInvitation {
  invitation: Invitation
  orgRoles: OrgRoleRef[]
}

/** Resolves stored role ids against the role definitions; ids without a definition are left out. */
export function withRoles(invitations: Invitation[], definitions: OrgRole[]): RoledInvitation[] {
  const byId = new Map(definitions.map((role) => [role.id.toLowerCase(), role]))
  return invitations.map((invitation) => ({
    invitation,
    orgRoles: invitation.orgRoleIds.flatMap((id) => {
      const role = byId.get(id.toLowerCase())
      return role ? [{ id: role.id, name: role.name }] : []
    }),
  }))
}
