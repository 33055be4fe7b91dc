import { inject, injectable } from 'inversify'
import { NotFoundError } from '@idplane/common'
import { pageOffset, toPage, type Page } from '../../infra/http/pagination'
import type { User } from '../users/user.entity'
import type { OrgRole } from '../roles/org-role.entity'
import { OrgsRepository, type OrganizationCounts } from './orgs.repository'
import type { OrgStore } from './orgs.service'
import type { ListMembersQuery } from './dto/list-members.query'

export interface DashboardSummary {
  members: number
  pendingInvitations: number
  dids: number
  hasClientCredentials: boolean
}

/**
 * Who belongs to an organization and what refers to it: the member list, the dashboard summary and the
 * activity counts. Counts cover only records that exist today (members, invitations, DIDs, client
 * credentials); schemas, credentials and proofs join when their modules do.
 */
@injectable()
export class OrgMembersService {
  public constructor(@inject(OrgsRepository) private readonly orgs: OrgStore) {}

  public async listMembers(orgId: string, query: ListMembersQuery): Promise<Page<{ user: User; roles: OrgRole[] }>> {
    const [users, total] = await this.orgs.findMembers(orgId, query.search, {
      limit: query.pageSize,
      offset: pageOffset(query),
    })
    const roles = await this.orgs.rolesOfMembers(
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
  public async dashboard(orgId: string): Promise<DashboardSummary> {
    const counts = await this.activityCounts(orgId)
    return {
      members: counts.members,
      pendingInvitations: counts.invitations.pending,
      dids: counts.dids,
      hasClientCredentials: counts.clientCredentials > 0,
    }
  }

  /** @throws NotFoundError when the organization does not exist */
  public async activityCounts(orgId: string): Promise<OrganizationCounts> {
    if (!(await this.orgs.findById(orgId))) throw new NotFoundError('Organization not found')
    return this.orgs.countReferences(orgId)
  }
}
