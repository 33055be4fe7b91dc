import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import jwt from 'jsonwebtoken'
import { EntityManager } from '@mikro-orm/postgresql'
import { lazily } from '@idplane/common/lazily'
import { TokenService } from '../../api/src/infra/auth/token.service'
import { MembershipsService } from '../../api/src/modules/memberships/memberships.service'
import { MembershipsRepository } from '../../api/src/modules/memberships/memberships.repository'
import { User } from '../../api/src/modules/users/user.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import type { OrgRoleName } from '../../api/src/modules/memberships/org-role.entity'
import type { TestApi } from './api'

export interface TestUser {
  id: string
  email: string
  token: string
}

/** A user inserted directly (no mail round trip) with a valid access token. */
export async function aUserWithToken(api: TestApi, email = `user-${randomUUID()}@example.test`): Promise<TestUser> {
  const em = api.runtime.container.get(EntityManager).fork()
  const user = em.create(User, {
    email,
    firstName: 'Test',
    lastName: 'User',
    passwordHash: 'scrypt$unused',
    isEmailVerified: true,
  })
  await em.flush()
  const { accessToken } = api.runtime.container.get(TokenService).signForUser(user, randomUUID())
  return { id: user.id, email, token: accessToken }
}

/** An organization inserted directly, with `members` holding the given roles. */
export async function anOrganizationWith(
  api: TestApi,
  members: { user: TestUser; roles: OrgRoleName[] }[],
): Promise<string> {
  const em = api.runtime.container.get(EntityManager).fork()
  const suffix = randomUUID().slice(0, 8)
  const org = em.create(Organization, {
    name: `Org ${suffix}`,
    slug: `org-${suffix}`,
    description: 'An organization for tests',
  })
  await em.flush()
  const memberships = new MembershipsRepository(em)
  const roles = new MembershipsService(memberships)
  for (const member of members) {
    await roles.grant(
      org.id,
      member.user.id,
      await Promise.all(member.roles.map((role) => memberships.definitionByName(role))),
    )
  }
  return org.id
}

/** A token the API would accept but for its expiry time. */
export function expiredToken(api: TestApi, user: { id: string; email: string }): string {
  const privateKey = readFileSync(path.join(api.config.jwt.keyDir, 'private.pem'), 'utf8')
  const past = Math.floor(Date.now() / 1000) - 3600
  return jwt.sign({ typ: 'user', email: user.email, sid: randomUUID(), iat: past - 60, exp: past }, privateKey, {
    algorithm: 'RS256',
    subject: user.id,
    issuer: api.config.jwt.issuer,
    audience: api.config.jwt.audience,
  })
}

/**
 * A key no API knows (each API makes its own at start), made once per test file: an RSA key takes about 50-100 ms to
 * make, and the authorization matrix asks for a token signed with it on every route.
 */
const foreignKey = lazily(() => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)

/** A well-formed token with the right claims, signed by a key the API does not know. */
export function foreignKeyToken(api: TestApi, user: { id: string; email: string }): string {
  return jwt.sign({ typ: 'user', email: user.email, sid: randomUUID() }, foreignKey(), {
    algorithm: 'RS256',
    expiresIn: 600,
    subject: user.id,
    issuer: api.config.jwt.issuer,
    audience: api.config.jwt.audience,
  })
}
