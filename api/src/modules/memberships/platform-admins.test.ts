import 'reflect-metadata'
import { ConfigError, EnvReader } from '@idplane/common'
import type { Config } from '../../infra/config'
import type { Principal } from '../../infra/auth/token.service'
import type { MembershipsRepository } from './memberships.repository'
import { PlatformAdmins } from './platform-admins'
import { platformAdminsConfig } from './platform-admins.config'

const core = {} as Config

function read(value?: string) {
  const env = new EnvReader(value === undefined ? {} : { PLATFORM_ADMIN_EMAILS: value })
  const section = platformAdminsConfig.read(env, core)
  return { section, env }
}

/** PlatformAdmins over a membership store that knows who holds platform_admin somewhere. */
function platformAdmins(emails: string | undefined, holders: string[] = []) {
  const repository = {
    holdsRoleInAnyOrganization: async (userId: string, role: string) =>
      role === 'platform_admin' && holders.includes(userId),
  } as unknown as MembershipsRepository
  const config = { sections: { platformAdmins: read(emails).section } } as unknown as Config
  return new PlatformAdmins(repository, config)
}

const user = (userId: string, email: string): Principal => ({ kind: 'user', userId, email, sessionId: 's' })

describe('PLATFORM_ADMIN_EMAILS', () => {
  it('is empty by default', () => {
    expect(read().section.emails).toEqual([])
  })

  it('trims, lower-cases and deduplicates the addresses', () => {
    expect(read(' Ada@Example.com, grace@example.com,,ada@example.com ').section.emails).toEqual([
      'ada@example.com',
      'grace@example.com',
    ])
  })

  it('reports a malformed address by the variable name', () => {
    const { env } = read('ada@example.com, not an address')
    expect(() => env.assertValid('api')).toThrow(ConfigError)
    expect(() => env.assertValid('api')).toThrow('PLATFORM_ADMIN_EMAILS')
  })
})

describe('PlatformAdmins', () => {
  it('makes a configured address a platform admin, whatever its case', async () => {
    const admins = platformAdmins('ada@example.com')
    expect(await admins.isPlatformAdmin(user('u1', 'ADA@example.com'))).toBe(true)
    expect(await admins.isPlatformAdmin(user('u2', 'grace@example.com'))).toBe(false)
  })

  it('makes a holder of the platform_admin role in any organization a platform admin', async () => {
    const admins = platformAdmins(undefined, ['u2'])
    expect(await admins.isPlatformAdmin(user('u2', 'grace@example.com'))).toBe(true)
    expect(await admins.isPlatformAdmin(user('u3', 'linus@example.com'))).toBe(false)
  })

  it('never counts an M2M client', async () => {
    const admins = platformAdmins('ada@example.com', ['c1'])
    const client: Principal = { kind: 'client', clientId: 'c1', orgId: 'o1', sessionId: 's' }
    expect(await admins.isPlatformAdmin(client)).toBe(false)
  })
})
