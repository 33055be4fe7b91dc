import type { Request } from 'express'
import { createParamDecorator, type Action } from 'routing-controllers'
import type { OrgRoleName } from './org-role.entity'
import { isOrgRoleName } from './org-roles'

/** Who acts on an organization route: the user (null for an M2M client) and the roles `@Authorized` found. */
export interface OrgCaller {
  userId: string | null
  roles: OrgRoleName[]
}

/**
 * Injects the OrgCaller of a route guarded by `@Authorized(roles)`; the authorization checker has already
 * loaded the caller's roles in the route's organization, so they are not queried twice.
 */
export function CurrentOrgCaller() {
  return createParamDecorator({
    required: true,
    value: (action: Action): OrgCaller => {
      const req = action.request as Request
      const principal = req.principal
      return {
        userId: principal?.kind === 'user' ? principal.userId : null,
        roles: (req.orgRoles ?? []).filter(isOrgRoleName),
      }
    },
  })
}
