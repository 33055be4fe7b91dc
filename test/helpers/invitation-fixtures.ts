import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { TokenService } from '../../api/src/infra/auth/token.service'
import { OrgRole, type OrgRoleName } from '../../api/src/modules/memberships/org-role.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import type { TestApi } from './api'
import { aUserWithToken, anOrganizationWith, type TestUser } from './tokens'

export type { TestUser }

/** A user with a token; the address is unique and lower-case unless given. */
export function anInvitee(api: TestApi, email = `invitee-${randomUUID().slice(0, 8)}@example.test`): Promise<TestUser> {
  return aUserWithToken(api, email)
}

/** An organization whose members hold the given roles; returns its id and name. */
export async function anOrganizationOf(
  api: TestApi,
  members: { user: TestUser; roles: OrgRoleName[] }[],
): Promise<{ id: string; name: string }> {
  const id = await anOrganizationWith(api, members)
  const organization = await api.runtime.container.get(EntityManager).fork().findOneOrFail(Organization, { id })
  return { id, name: organization.name }
}

/** The seeded role definitions, by name. */
export async function roleIdsByName(api: TestApi): Promise<Record<OrgRoleName, string>> {
  const roles = await api.runtime.container.get(EntityManager).fork().find(OrgRole, {})
  return Object.fromEntries(roles.map((role) => [role.name, role.id])) as Record<OrgRoleName, string>
}

/** An organization's machine-to-machine access token (acts as admin of that organization). */
export function clientTokenFor(api: TestApi, orgId: string): string {
  return api.runtime.container.get(TokenService).signForClient({ clientId: randomUUID(), orgId }, randomUUID())
    .accessToken
}

/** The roles a user holds in an organization, sorted. */
export async function rolesHeld(api: TestApi, orgId: string, userId: string): Promise<OrgRoleName[]> {
  const rows = await api.runtime.container
    .get(EntityManager)
    .fork()
    .getConnection()
    .execute<
      { name: OrgRoleName }[]
    >('select r.name from user_org_roles u join org_roles r on r.id = u.org_role_id where u.organization_id = ? and u.user_id = ?', [orgId, userId])
  return rows.map((row) => row.name).sort()
}
