import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { MembershipsService } from '../../api/src/modules/memberships/memberships.service'
import { MembershipsRepository } from '../../api/src/modules/memberships/memberships.repository'
import type { OrgRoleName } from '../../api/src/modules/memberships/org-role.entity'
import type { OrganizationResponse } from '../../api/src/modules/orgs/dto/organization.response'
import type { TestApi } from './api'
import { aUserWithToken, type TestUser } from './tokens'

export type { TestUser }

/**
 * A user with an access token; with `orgId`, a member of that organization holding `roles` (default member).
 * Inserted directly until the auth module's sign-up helper is used instead.
 */
export async function aMember(api: TestApi, orgId?: string, roles: OrgRoleName[] = ['member']): Promise<TestUser> {
  const user = await aUserWithToken(api)
  if (orgId !== undefined) await grantRoles(api, orgId, user.id, roles)
  return user
}

/** Gives an existing user roles in an organization (kept once when already held). */
export async function grantRoles(api: TestApi, orgId: string, userId: string, roles: OrgRoleName[]): Promise<void> {
  const memberships = new MembershipsRepository(api.runtime.container.get(EntityManager).fork())
  await new MembershipsService(memberships).grant(
    orgId,
    userId,
    await Promise.all(roles.map((role) => memberships.definitionByName(role))),
  )
  // Granted behind the API's back, as another replica would: the API's reused roles must not outlive it.
  api.runtime.container.get(MembershipsRepository).forgetRecentRoles(orgId, userId)
}

/** The body of POST /v1/orgs with a unique name; overrides replace or add fields. */
export function anOrganizationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: `Test Org ${randomUUID().slice(0, 8)}`, description: 'An organization for tests', ...overrides }
}

/** An organization created through POST /v1/orgs by the owner of `ownerToken`. */
export async function anOrganization(
  api: TestApi,
  ownerToken: string,
  overrides: Record<string, unknown> = {},
): Promise<OrganizationResponse> {
  const res = await request(api.app)
    .post('/v1/orgs')
    .set('Authorization', `Bearer ${ownerToken}`)
    .send(anOrganizationBody(overrides))
  if (res.status !== 201) throw new Error(`POST /v1/orgs answered ${res.status}: ${JSON.stringify(res.body)}`)
  return res.body.data as OrganizationResponse
}
