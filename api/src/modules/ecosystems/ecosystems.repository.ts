import { injectable } from 'inversify'
import { LockMode, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { containsPattern } from '../../infra/db/like-pattern'
import { Organization } from '../orgs/organization.entity'
import { Ecosystem } from './ecosystem.entity'
import { ECOSYSTEM_ORG_STATUSES, EcosystemMembership, type EcosystemOrgStatus } from './ecosystem-membership.entity'
import type { EcosystemSortField, EcosystemSortOrder } from './dto/list-ecosystems.query'
import { BaseRepository, type PageRequest } from '../../infra/db/base.repository'
import { pageOffset } from '../../infra/http/pagination'

export interface EcosystemPageQuery extends PageRequest {
  sortBy: EcosystemSortOrder
  sortField: EcosystemSortField
  search?: string
}

export interface NewEcosystem {
  name: string
  description: string
  tags?: string
  logoUrl?: string
}

/**
 * Ecosystems and the membership lookups every ecosystem module needs (one organization's row, its ecosystems, the
 * member counts); invitations and member lists are their modules' repositories. Queries about one ecosystem take
 * its id first, and those about one organization's view take the organization id first. Inside `transactional()` every query joins the
 * transaction (the global em resolves to the transaction's fork).
 */
@injectable()
export class EcosystemsRepository extends BaseRepository<Ecosystem> {
  public constructor(em: EntityManager) {
    super(em, Ecosystem)
  }

  /** Creates the ecosystem and the lead's own row (ECOSYSTEM_LEAD, ACCEPTED); flushes. */
  public async create(lead: Organization, fields: NewEcosystem, createdBy: string | null): Promise<Ecosystem> {
    const ecosystem = this.em.create(Ecosystem, {
      name: fields.name,
      description: fields.description,
      tags: fields.tags ?? null,
      logoUrl: fields.logoUrl ?? null,
      leadOrganization: lead,
      createdBy,
    })
    this.em.create(EcosystemMembership, { ecosystem, organization: lead, role: 'ECOSYSTEM_LEAD', status: 'ACCEPTED' })
    await this.em.flush()
    return ecosystem
  }

  public findEcosystem(ecosystemId: string): Promise<Ecosystem | null> {
    return this.em.findOne(Ecosystem, { id: ecosystemId }, { populate: ['leadOrganization'] })
  }

  /**
   * The ecosystem, locked until the transaction ends: membership changes of one ecosystem happen one at a
   * time, so two answers to one invitation cannot both pass the state table.
   */
  public lockEcosystem(ecosystemId: string): Promise<Ecosystem | null> {
    return this.em.findOne(
      Ecosystem,
      { id: ecosystemId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['leadOrganization'] },
    )
  }

  /** The rows of an organization that leads an ecosystem or is an accepted member of it, with their ecosystem. */
  public listForOrg(orgId: string, query: EcosystemPageQuery): Promise<[EcosystemMembership[], number]> {
    const where: FilterQuery<EcosystemMembership> = {
      organization: orgId,
      $or: [{ role: 'ECOSYSTEM_LEAD' }, { status: 'ACCEPTED' }],
    }
    if (query.search) where.ecosystem = { name: { $ilike: containsPattern(query.search) } }
    const field = query.sortField === 'name' ? 'name' : 'createdAt'
    const orderBy = { ecosystem: { [field]: query.sortBy, id: 'asc' } } as QueryOrderMap<EcosystemMembership>
    return this.em.findAndCount(EcosystemMembership, where, {
      populate: ['ecosystem', 'ecosystem.leadOrganization'],
      orderBy,
      limit: query.pageSize,
      offset: pageOffset(query),
    })
  }

  /** One organization's row in an ecosystem, with both loaded. */
  public membership(ecosystemId: string, orgId: string): Promise<EcosystemMembership | null> {
    return this.em.findOne(
      EcosystemMembership,
      { ecosystem: ecosystemId, organization: orgId },
      { populate: ['ecosystem', 'organization'] },
    )
  }

  /** The rows of the given organizations in an ecosystem, with both loaded. */
  public memberships(ecosystemId: string, orgIds: readonly string[]): Promise<EcosystemMembership[]> {
    return this.em.find(
      EcosystemMembership,
      { ecosystem: ecosystemId, organization: { $in: [...orgIds] } },
      { populate: ['ecosystem', 'organization'] },
    )
  }

  /** Member rows of the ecosystem by status (the lead's row not counted). */
  public async countMembersByStatus(ecosystemId: string): Promise<Record<EcosystemOrgStatus, number>> {
    const counts = { ACCEPTED: 0, REJECTED: 0, PENDING: 0 } satisfies Record<EcosystemOrgStatus, number>
    for (const status of ECOSYSTEM_ORG_STATUSES) {
      counts[status] = await this.em.count(EcosystemMembership, {
        ecosystem: ecosystemId,
        role: 'ECOSYSTEM_MEMBER',
        status,
      })
    }
    return counts
  }
}
