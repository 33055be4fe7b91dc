import type { Request } from 'express'
import type { Action } from 'routing-controllers'
import { ForbiddenError, InvalidInputError, UnauthenticatedError } from '@idplane/common'
import type { TokenService, Principal } from './token.service'
import type { OrgRoleLookup } from './org-role-lookup'
import type { SessionCheck } from './session-check'

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal
    /** The caller's roles in the organization of the route, once checked. */
    orgRoles?: string[]
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value)
}

/** The spec's organization id is a UUID v4 (the API makes them with randomUUID); any other version is malformed. */
const ORG_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

export function isOrgId(value: string): boolean {
  return ORG_ID_PATTERN.test(value)
}

/** The 400 for an organization id that is not a UUID v4, wherever one arrives (path or query). */
export function invalidOrgIdError(): InvalidInputError {
  return new InvalidInputError('Invalid organization id', [{ field: 'orgId', message: 'orgId must be a UUID v4' }])
}

/** The bearer token of a request, or UnauthenticatedError. Tokens are only ever read from the header. */
export function bearerToken(req: Request): string {
  const header = req.header('authorization')
  const match = header ? /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header.trim()) : null
  if (!match?.[1]) throw new UnauthenticatedError(header ? 'Malformed Authorization header' : 'Authentication required')
  return match[1]
}

/**
 * The one authorization check, wired into routing-controllers' `@Authorized(roles)`:
 * 401 without a valid token or for a revoked session (`sid`); for routes with roles, 400 for a malformed
 * organization id, 403 unless the caller holds one of the roles in the organization of the route (`:orgId`, or `orgId` in the query).
 */
export function createAuthorizationChecker(tokens: TokenService, roleLookup: OrgRoleLookup, sessions: SessionCheck) {
  return async (action: Action, roles: string[]): Promise<boolean> => {
    const req = action.request as Request
    // A middleware before the route (the cloud wallet's turns) may have verified the token already.
    const principal = req.principal ?? tokens.verify(bearerToken(req))
    await sessions.assertActive(principal.sessionId)
    req.principal = principal
    if (roles.length === 0) return true

    const orgId = orgIdOf(req)
    if (orgId === undefined) throw new ForbiddenError('This endpoint needs an organization')
    if (!isOrgId(orgId)) throw invalidOrgIdError()

    const held = await roleLookup.rolesOf(principal, orgId)
    req.orgRoles = held
    if (!held.some((role) => roles.includes(role))) {
      throw new ForbiddenError('You do not have the role this action needs in this organization')
    }
    return true
  }
}

export function createCurrentUserChecker() {
  return (action: Action): Principal | undefined => (action.request as Request).principal
}

function orgIdOf(req: Request): string | undefined {
  const fromPath = req.params?.orgId
  if (typeof fromPath === 'string') return fromPath
  const fromQuery = req.query?.orgId
  return typeof fromQuery === 'string' ? fromQuery : undefined
}
