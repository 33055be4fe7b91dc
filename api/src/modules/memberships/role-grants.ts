import { ForbiddenError } from '@idplane/common'
import type { OrgRoleName } from './org-role.entity'

/**
 * Roles a caller can hand out or take away only when they hold that role in the organization themselves
 * (docs/decisions.md, Invitations and membership): an admin cannot make anyone an owner, demote an owner, or
 * grant the platform roles.
 */
export const PRIVILEGED_ROLES: readonly OrgRoleName[] = ['owner', 'super_admin', 'platform_admin']

/**
 * Checks that the caller may grant every role in `granted`.
 * @throws ForbiddenError naming the privileged roles the caller does not hold
 */
export function assertMayGrant(callerRoles: readonly OrgRoleName[], granted: readonly OrgRoleName[]): void {
  const refused = privilegedNotHeld(callerRoles, granted)
  if (refused.length > 0) {
    throw new ForbiddenError(`Only a holder of the ${refused.join(', ')} role can grant it`)
  }
}

/**
 * Checks a replacement of a user's roles: every privileged role added or removed must be held by the caller.
 * @throws ForbiddenError naming the privileged roles the caller does not hold
 */
export function assertMayChangeRoles(
  callerRoles: readonly OrgRoleName[],
  current: readonly OrgRoleName[],
  next: readonly OrgRoleName[],
): void {
  const changed = [...next.filter((role) => !current.includes(role)), ...current.filter((role) => !next.includes(role))]
  const refused = privilegedNotHeld(callerRoles, changed)
  if (refused.length > 0) {
    throw new ForbiddenError(`Only a holder of the ${refused.join(', ')} role can grant or remove it`)
  }
}

/** Whether a replacement would leave the organization without an owner. */
export function removesLastOwner(current: readonly OrgRoleName[], next: readonly OrgRoleName[], ownerCount: number) {
  return current.includes('owner') && !next.includes('owner') && ownerCount <= 1
}

function privilegedNotHeld(callerRoles: readonly OrgRoleName[], roles: readonly OrgRoleName[]): OrgRoleName[] {
  return [...new Set(roles)].filter((role) => PRIVILEGED_ROLES.includes(role) && !callerRoles.includes(role))
}
