import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { InvalidInputError } from '@idplane/common'
import { OrgRole, type OrgRoleName } from './org-role.entity'
import { UserOrgRole } from './user-org-role.entity'
import { User } from '../users/user.entity'
import { Organization } from '../orgs/organization.entity'

/** Role definitions and memberships: who holds which roles in which organization. */
@injectable()
export class RolesService {
  public constructor(private readonly em: EntityManager) {}

  public async listDefinitions(): Promise<OrgRole[]> {
    return this.em.find(OrgRole, {}, { orderBy: { name: 'asc' } })
  }

  public async definitionByName(name: OrgRoleName): Promise<OrgRole> {
    return this.em.findOneOrFail(OrgRole, { name })
  }

  /**
   * Resolves role ids from a request; every id must name a role definition.
   * @throws InvalidInputError naming the field when an id is unknown
   */
  public async definitionsByIds(ids: string[], field = 'orgRoleId'): Promise<OrgRole[]> {
    const unique = [...new Set(ids)]
    const roles = await this.em.find(OrgRole, { id: { $in: unique } })
    if (roles.length !== unique.length) {
      throw new InvalidInputError('Unknown role id', [
        { field, message: 'each role id must be the id of a role from GET /orgs/:orgId/roles' },
      ])
    }
    return roles
  }

  /** Roles a user holds in an organization (none when not a member). */
  public async rolesOf(orgId: string, userId: string): Promise<OrgRoleName[]> {
    const rows = await this.em.find(UserOrgRole, { organization: orgId, user: userId }, { populate: ['orgRole'] })
    return rows.map((row) => row.orgRole.name)
  }

  /** Adds roles to a user in an organization; roles already held are kept once. Flushes. */
  public async grant(orgId: string, userId: string, roles: OrgRole[]): Promise<void> {
    const held = new Set(await this.rolesOf(orgId, userId))
    for (const role of roles) {
      if (held.has(role.name)) continue
      this.em.create(UserOrgRole, {
        organization: this.em.getReference(Organization, orgId),
        user: this.em.getReference(User, userId),
        orgRole: role,
      })
    }
    await this.em.flush()
  }

  /** Replaces all of a user's roles in an organization (spec: PUT /orgs/:orgId/user-roles/:userId). */
  public async replace(orgId: string, userId: string, roles: OrgRole[]): Promise<void> {
    await this.em.transactional(async (em) => {
      await em.nativeDelete(UserOrgRole, { organization: orgId, user: userId })
      for (const role of roles) {
        em.create(UserOrgRole, {
          organization: em.getReference(Organization, orgId),
          user: em.getReference(User, userId),
          orgRole: role,
        })
      }
    })
  }

  public async isMember(orgId: string, userId: string): Promise<boolean> {
    return (await this.em.count(UserOrgRole, { organization: orgId, user: userId })) > 0
  }
}
