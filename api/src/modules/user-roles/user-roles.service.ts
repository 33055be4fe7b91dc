import { injectable } from 'inversify'
import { ConflictError, Logger, NotFoundError } from '@idplane/common'
import { MembershipsRepository } from '../memberships/memberships.repository'
import { MembershipsService } from '../memberships/memberships.service'
import type { OrgCaller } from '../memberships/org-caller.decorator'
import { OrgsRepository } from '../orgs/orgs.repository'
import { assertMayChangeRoles, removesLastOwner } from '../memberships/role-grants'

/** Changing a member's roles (spec: `PUT /orgs/:orgId/user-roles/:userId`). */
@injectable()
export class UserRolesService {
  private readonly logger: Logger

  public constructor(
    private readonly memberships: MembershipsRepository,
    private readonly roles: MembershipsService,
    private readonly orgs: OrgsRepository,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'user-roles' })
  }

  /**
   * Replaces all of a member's roles in the organization.
   * @throws InvalidInputError for an unknown role id
   * @throws NotFoundError when the user is not a member of the organization
   * @throws ForbiddenError when a privileged role the caller does not hold would be granted or removed
   * @throws ConflictError when the organization would be left without an owner
   */
  public async replace(orgId: string, caller: OrgCaller, userId: string, roleIds: readonly string[]): Promise<void> {
    const roles = await this.roles.definitionsByIds([...roleIds])
    const next = roles.map((role) => role.name)
    await this.memberships.transactional(async () => {
      // The organization row lock serializes role changes, so two owners cannot demote each other at once.
      if (!(await this.orgs.lock(orgId))) throw new NotFoundError('Organization not found')
      const current = await this.memberships.roleNamesOf(orgId, userId)
      if (current.length === 0) throw new NotFoundError('User is not a member of this organization')
      assertMayChangeRoles(caller.roles, current, next)
      if (removesLastOwner(current, next, await this.memberships.countOwners(orgId))) {
        throw new ConflictError('An organization must keep at least one owner')
      }
      await this.memberships.replace(orgId, userId, roles)
    })
    this.memberships.forgetRecentRoles(orgId, userId)
    this.logger.info('Replaced member roles', { orgId, userId, roles: next })
  }
}
