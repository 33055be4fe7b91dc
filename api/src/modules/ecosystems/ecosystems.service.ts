import { injectable } from 'inversify'
import { ForbiddenError, Logger, NotFoundError } from '@idplane/common'
import type { Principal } from '../../infra/auth/token.service'
import { ORG_ROLES } from '../memberships/org-roles'
import type { CreateEcosystemDto } from './dto/create-ecosystem.dto'
import type { EcosystemDashboardResponse } from './dto/ecosystem.response'
import { toEcosystemResponse } from './dto/ecosystem.response'
import type { ListEcosystemsQuery } from './dto/list-ecosystems.query'
import type { Ecosystem } from './ecosystem.entity'
import type { EcosystemMembership } from './ecosystem-membership.entity'
import { EcosystemAccess, existingEcosystem } from './ecosystem-access'
import { EcosystemsRepository } from './ecosystems.repository'
import { OrgsRepository } from '../orgs/orgs.repository'

/** Ecosystems themselves: creation, an organization's list, the dashboard of one organization in one. */
@injectable()
export class EcosystemsService {
  private readonly logger: Logger

  public constructor(
    private readonly ecosystems: EcosystemsRepository,
    private readonly orgs: OrgsRepository,
    private readonly access: EcosystemAccess,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'ecosystems' })
  }

  /**
   * Creates an ecosystem led by the organization (its row: ECOSYSTEM_LEAD, ACCEPTED).
   * @throws ForbiddenError unless the caller is an owner or admin of the organization
   * @throws NotFoundError when the organization is gone
   */
  public async create(principal: Principal, orgId: string, fields: CreateEcosystemDto): Promise<Ecosystem> {
    await this.access.assertManagerOf(principal, orgId, 'create an ecosystem for it')
    const ecosystem = await this.ecosystems.transactional(async () => {
      const lead = await this.orgs.findById(orgId)
      if (!lead) throw new NotFoundError('Organization not found')
      return this.ecosystems.create(
        lead,
        { name: fields.name, description: fields.description, tags: fields.tags, logoUrl: fields.logo },
        principal.kind === 'user' ? principal.userId : null,
      )
    })
    this.logger.info('Created ecosystem', { ecosystemId: ecosystem.id, orgId })
    return ecosystem
  }

  /**
   * The ecosystems the organization leads or is an accepted member of, with its role in each.
   * @throws ForbiddenError unless the caller is a platform admin or holds a member role in the organization
   */
  public async listForOrg(principal: Principal, query: ListEcosystemsQuery): Promise<[EcosystemMembership[], number]> {
    const mayRead =
      (await this.access.holds(principal, query.orgId, ORG_ROLES.members)) ||
      (await this.access.isPlatformAdmin(principal))
    if (!mayRead)
      throw new ForbiddenError("Only the organization's members or a platform admin can list its ecosystems")
    return this.ecosystems.listForOrg(query.orgId, {
      sortBy: query.sortBy,
      sortField: query.sortField,
      search: query.search,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
    })
  }

  /**
   * The dashboard of an organization in an ecosystem it leads or is an accepted member of.
   * @throws ForbiddenError unless the caller is a platform admin or an owner or admin of the organization
   * @throws NotFoundError when the ecosystem does not exist or the organization is not (or not yet) in it
   */
  public async dashboard(
    principal: Principal,
    ecosystemId: string,
    orgId: string,
  ): Promise<EcosystemDashboardResponse> {
    const mayRead =
      (await this.access.holds(principal, orgId, ORG_ROLES.ownerAdmin)) ||
      (await this.access.isPlatformAdmin(principal))
    if (!mayRead)
      throw new ForbiddenError('Only an owner or admin of the organization or a platform admin can see this')
    const ecosystem = existingEcosystem(await this.ecosystems.findEcosystem(ecosystemId))
    const row = await this.ecosystems.membership(ecosystemId, orgId)
    if (!row || (row.role !== 'ECOSYSTEM_LEAD' && row.status !== 'ACCEPTED')) {
      throw new NotFoundError('The organization is not a member of this ecosystem')
    }
    const counts = await this.ecosystems.countMembersByStatus(ecosystemId)
    return {
      ecosystem: toEcosystemResponse(ecosystem),
      leadOrg: { id: ecosystem.leadOrganization.id, name: ecosystem.leadOrganization.name },
      org: { id: row.organization.id, name: row.organization.name, role: row.role, status: row.status },
      members: {
        total: counts.ACCEPTED + counts.PENDING + counts.REJECTED,
        accepted: counts.ACCEPTED,
        pending: counts.PENDING,
        rejected: counts.REJECTED,
      },
    }
  }
}
