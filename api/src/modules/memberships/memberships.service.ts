import { injectable } from 'inversify'
import { InvalidInputError } from '@idplane/common'
import type { OrgRole } from './org-role.entity'
import { MembershipsRepository } from './memberships.repository'

/**
 * The membership rules other modules share: resolving the role ids of a request and granting roles (organization
 * creation, accepted invitations). Plain reads and writes of memberships are MembershipsRepository's.
 */
@injectable()
export class MembershipsService {
  public constructor(private readonly memberships: MembershipsRepository) {}

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

  /** Adds roles to a user in an organization; roles already held are kept once. */
  public async grant(orgId: string, userId: string, roles: OrgRole[]): Promise<void> {
    const held = new Set(await this.memberships.roleNamesOf(orgId, userId))
    await this.memberships.add(
      orgId,
      userId,
      roles.filter((role) => !held.has(role.name)),
    )
  }
}
