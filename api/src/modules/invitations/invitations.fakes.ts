import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '@idplane/common'
import { ORG_ROLE_NAMES, OrgRole, type OrgRoleName } from '../memberships/org-role.entity'
import type { MembershipsRepository } from '../memberships/memberships.repository'
import type { MembershipsService } from '../memberships/memberships.service'
import type { OrgsRepository } from '../orgs/orgs.repository'
import type { UsersRepository } from '../users/users.repository'
import { Organization } from '../orgs/organization.entity'
import { User } from '../users/user.entity'
import { Invitation } from './invitation.entity'
import type { InvitationsRepository } from './invitations.repository'

/** Hand-written doubles for the invitations and memberships unit tests (no database, no queue). */

/** A double of a class: only its public members, as far as the test supplies them. */
export function fake<T>(implementation: Partial<T>): T {
  return implementation as T
}

export const ROLE_DEFINITIONS: OrgRole[] = ORG_ROLE_NAMES.map((name) =>
  Object.assign(new OrgRole(), { id: randomUUID(), name, description: name }),
)

export function roleId(name: OrgRoleName): string {
  const role = ROLE_DEFINITIONS.find((candidate) => candidate.name === name)
  if (!role) throw new Error(`No role ${name}`)
  return role.id
}

export function anOrganization(overrides: Partial<Organization> = {}): Organization {
  return Object.assign(
    new Organization(),
    { id: randomUUID(), name: 'Acme', slug: 'acme', description: 'd' },
    overrides,
  )
}

export function anInvitation(organization: Organization, overrides: Partial<Invitation> = {}): Invitation {
  return Object.assign(
    new Invitation(),
    { organization, email: 'bob@example.com', orgRoleIds: [roleId('member')], invitedBy: null },
    overrides,
  )
}

/**
 * Users, organizations, memberships and invitations in memory, behind the repositories' and MembershipsService's
 * public methods.
 */
export class InMemoryDirectory {
  public readonly organizations: Organization[] = []
  public readonly users: User[] = []
  public readonly invitations: Invitation[] = []
  /** `${orgId}/${userId}` -> role names */
  public readonly memberships = new Map<string, OrgRoleName[]>()
  public transactions = 0

  public addUser(email: string, overrides: Partial<User> = {}): User {
    const user = Object.assign(new User(), { email, firstName: 'Alice', lastName: 'Doe', passwordHash: 'x' }, overrides)
    this.users.push(user)
    return user
  }

  public setRoles(orgId: string, userId: string, roles: OrgRoleName[]): void {
    this.memberships.set(`${orgId}/${userId}`, roles)
  }

  public rolesOfSync(orgId: string, userId: string): OrgRoleName[] {
    return this.memberships.get(`${orgId}/${userId}`) ?? []
  }

  private async transactional<T>(work: () => Promise<T>): Promise<T> {
    this.transactions += 1
    return work()
  }

  private lockOrganization(orgId: string): Promise<Organization | null> {
    return Promise.resolve(this.organizations.find((org) => org.id === orgId) ?? null)
  }

  private countOwners(orgId: string): Promise<number> {
    return Promise.resolve(
      [...this.memberships].filter(([key, roles]) => key.startsWith(`${orgId}/`) && roles.includes('owner')).length,
    )
  }

  public repository(): InvitationsRepository {
    return fake<InvitationsRepository>({
      transactional: (work) => this.transactional(work),
      pendingEmails: async (orgId, emails) =>
        this.invitations
          .filter((row) => row.organization.id === orgId && row.status === 'pending' && emails.includes(row.email))
          .map((row) => row.email),
      add: async (orgId, invitees, invitedBy) => {
        const organization = this.organizations.find((org) => org.id === orgId) ?? anOrganization({ id: orgId })
        const created = invitees.map((invitee) =>
          anInvitation(organization, { email: invitee.email, orgRoleIds: invitee.orgRoleIds, invitedBy }),
        )
        this.invitations.push(...created)
        return created
      },
      lockForOrg: async (orgId, invitationId) =>
        this.invitations.find((row) => row.id === invitationId && row.organization.id === orgId) ?? null,
      remove: async (invitation) => {
        this.invitations.splice(this.invitations.indexOf(invitation), 1)
      },
      lockForEmail: async (email, invitationId) =>
        this.invitations.find((row) => row.id === invitationId && row.email === email) ?? null,
      flush: async () => undefined,
    })
  }

  public usersRepository(): UsersRepository {
    return fake<UsersRepository>({
      findById: async (userId) => this.users.find((user) => user.id === userId) ?? null,
    })
  }

  public orgsRepository(): OrgsRepository {
    return fake<OrgsRepository>({
      lock: (orgId) => this.lockOrganization(orgId),
    })
  }

  public membershipsRepository(): MembershipsRepository {
    return fake<MembershipsRepository>({
      transactional: (work) => this.transactional(work),
      countOwners: (orgId) => this.countOwners(orgId),
      memberEmails: async (orgId, emails) =>
        this.users
          .filter((user) => emails.includes(user.email) && this.rolesOfSync(orgId, user.id).length > 0)
          .map((user) => user.email),
      listDefinitions: async () => ROLE_DEFINITIONS,
      roleNamesOf: async (orgId, userId) => this.rolesOfSync(orgId, userId),
      forgetRecentRoles: () => undefined,
      replace: async (orgId, userId, roles) => {
        this.setRoles(
          orgId,
          userId,
          roles.map((role) => role.name),
        )
      },
    })
  }

  public roles(): MembershipsService {
    return fake<MembershipsService>({
      definitionsByIds: async (ids, field = 'orgRoleId') => {
        const unique = [...new Set(ids)]
        const found = ROLE_DEFINITIONS.filter((role) => unique.includes(role.id))
        if (found.length !== unique.length) throw new InvalidInputError('Unknown role id', [{ field, message: 'x' }])
        return found
      },
      grant: async (orgId, userId, roles) => {
        const held = this.rolesOfSync(orgId, userId)
        this.setRoles(orgId, userId, [...new Set([...held, ...roles.map((role) => role.name)])])
      },
    })
  }
}
