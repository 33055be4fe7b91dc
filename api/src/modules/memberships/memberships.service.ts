import { injectable } from 'inversify'
import { InvalidInputError } from '@idplane/common'
import type { Organization } from '../orgs/organization.entity'
import type { User } from '../users/user.entity'
import type { OrgRole, OrgRoleName } from './org-role.entity'
import { MembershipsRepository, type PageWindow } from './memberships.repository'

/**
 * Role definitions and memberships, as other modules use them: who holds which roles in which organization,
 * granting roles (organization creation, accepted invitations) and the organization lock.
 */
@injectable()
export class MembershipsService {
  public constructor(private readonly memberships: MembershipsRepository) {}

  public async listDefinitions(): Promise<OrgRole[]> {
    return this.memberships.listDefinitions()
  }

  public async definitionByName(name: OrgRoleName): Promise<OrgRole> {
    return this.memberships.definitionByName(name)
  }

  /**
   * Resolves role ids from a request; every id must name a role definition.
   * @throws InvalidInputError naming the field when an id is unknown
   */
  public async definitionsByIds(ids: string[], field = 'orgRoleId'): Promise<OrgRole[]> {
    const unique = [...new Set(ids)]
    const roles = await this.memberships.definitionsWithIds(unique)
    if (roles.length !== unique.length) {
      throw new InvalidInputError('Unknown role id', [
        { field, message: 'each role id must be the id of a role from GET /orgs/:orgId/roles' },
      ])
    }
    return roles
  }

  /** Roles a user holds in an organization (none when not a member). */
  public async rolesOf(orgId: string, userId: string): Promise<OrgRoleName[]> {
    return this.memberships.roleNamesOf(orgId, userId)
  }

  /** Adds roles to a user in an organization; roles already held are kept once. */
  public async grant(orgId: string, userId: string, roles: OrgRole[]): Promise<void> {
    const held = new Set(await this.rolesOf(orgId, userId))
    await this.memberships.add(
      orgId,
      userId,
      roles.filter((role) => !held.has(role.name)),
    )
  }

  /** Replaces all of a user's roles in an organization (spec: PUT /orgs/:orgId/user-roles/:userId). */
  public async replace(orgId: string, userId: string, roles: OrgRole[]): Promise<void> {
    await this.memberships.replace(orgId, userId, roles)
  }

  public async isMember(orgId: string, userId: string): Promise<boolean> {
    return this.memberships.isMember(orgId, userId)
  }

  /**
   * The organization lock: the organization, held until the surrounding transaction ends so that membership
   * changes of one organization happen one at a time; null when it does not exist.
   */
  public async lockOrganization(orgId: string): Promise<Organization | null> {
    return this.memberships.lockOrganization(orgId)
  }

  /** Those of `emails` that belong to a member of the organization. */
  public async memberEmails(orgId: string, emails: string[]): Promise<string[]> {
    return this.memberships.memberEmails(orgId, emails)
  }

  /** How many users hold the owner role in the organization. */
  public async countOwners(orgId: string): Promise<number> {
    return this.memberships.countOwners(orgId)
  }

  /** The users holding a role in the organization, for example its owners (mail recipients). */
  public async holdersOf(orgId: string, role: OrgRoleName): Promise<User[]> {
    return this.memberships.holdersOf(orgId, role)
  }

  /** Ids of the organizations in which the user holds at least one of the roles. */
  public async organizationsWhereUserHolds(userId: string, roles: readonly OrgRoleName[]): Promise<string[]> {
    return this.memberships.organizationsWhereUserHolds(userId, roles)
  }

  /** Members of an organization (users holding any role in it), searched by name or e-mail. */
  public async findMembers(orgId: string, search: string | undefined, window: PageWindow): Promise<[User[], number]> {
    return this.memberships.findMembers(orgId, search, window)
  }

  /** Roles each of the given users holds in one organization. */
  public async rolesOfMembers(orgId: string, userIds: string[]): Promise<Map<string, OrgRole[]>> {
    return this.memberships.rolesOfMembers(orgId, userIds)
  }

  /** Roles a user holds in each of the given organizations. */
  public async rolesOfUserIn(userId: string, orgIds: string[]): Promise<Map<string, OrgRole[]>> {
    return this.memberships.rolesOfUserIn(userId, orgIds)
  }
}
