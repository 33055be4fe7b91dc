import { inject, injectable } from 'inversify'
import { NotFoundError } from '@idplane/common'
import type { ActivityCounts, DashboardEntries } from '../../infra/api-module'
import { ModuleRegistry } from '../../infra/module-registry'
import { toPage, type Page } from '../../infra/http/pagination'
import { MembershipsRepository } from '../memberships/memberships.repository'
import type { User } from '../users/user.entity'
import type { OrgRole } from '../memberships/org-role.entity'
import { OrgsRepository } from './orgs.repository'
import type { OrgStore } from './orgs.service'
import type { ListMembersQuery } from './dto/list-members.query'

/**
 * Who belongs to an organization and what refers to it: the member list, the dashboard summary and the
 * activity counts. The counts are the modules' own (ApiModule.counter): each module counts its records.
 */
@injectable()
export class OrgMembersService {
  public constructor(
    @inject(OrgsRepository) private readonly orgs: OrgStore,
    private readonly memberships: MembershipsRepository,
    private readonly modules: ModuleRegistry,
  ) {}

  public async listMembers(orgId: string, query: ListMembersQuery): Promise<Page<{ user: User; roles: OrgRole[] }>> {
    const [users, total] = await this.memberships.findMembers(orgId, query.search, query)
    const roles = await this.memberships.rolesOfMembers(
      orgId,
      users.map((user) => user.id),
    )
    return toPage(
      users.map((user) => ({ user, roles: roles.get(user.id) ?? [] })),
      total,
      query,
    )
  }

  /** @throws NotFoundError when the organization does not exist */
  public async dashboard(orgId: string): Promise<DashboardEntries> {
    await this.assertExists(orgId)
    return this.modules.dashboardFor(orgId)
  }

  /** @throws NotFoundError when the organization does not exist */
  public async activityCounts(orgId: string): Promise<ActivityCounts> {
    await this.assertExists(orgId)
    return this.modules.countsFor(orgId)
  }

  private async assertExists(orgId: string): Promise<void> {
    if (!(await this.orgs.findById(orgId))) throw new NotFoundError('Organization not found')
  }
}
