import { injectable } from 'inversify'
import type { FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import type { Organization } from '../orgs/organization.entity'
import type { Ecosystem } from '../ecosystems/ecosystem.entity'
import { EcosystemMembership, type EcosystemOrgStatus } from '../ecosystems/ecosystem-membership.entity'
import { OrgRepository, type PageRequest } from '../../infra/db/base.repository'

/**
 * Ecosystem invitations: an invitation is a member row of an ecosystem (EcosystemMembership, role
 * ECOSYSTEM_MEMBER) from its PENDING start to its answer (docs/decisions.md, "Ecosystem invitations and members").
 */
@injectable()
export class EcosystemInvitationsRepository extends OrgRepository<EcosystemMembership> {
  public constructor(em: EntityManager) {
    super(em, EcosystemMembership)
  }

  /** A new PENDING member row (the invitation); flushes. */
  public async add(
    ecosystem: Ecosystem,
    organization: Organization,
    invitedBy: string | null,
  ): Promise<EcosystemMembership> {
    const row = this.em.create(EcosystemMembership, {
      ecosystem,
      organization,
      role: 'ECOSYSTEM_MEMBER',
      status: 'PENDING',
      invitedBy,
    })
    await this.em.flush()
    return row
  }

  /** The invitations sent in an ecosystem (its member rows, every status), newest first. */
  public listSent(ecosystemId: string, page: PageRequest): Promise<[EcosystemMembership[], number]> {
    return this.pageOf({ ecosystem: ecosystemId, role: 'ECOSYSTEM_MEMBER' }, page)
  }

  /** The invitations an organization received (every status), newest first; optionally of one ecosystem. */
  public listReceived(
    orgId: string,
    ecosystemId: string | undefined,
    page: PageRequest,
  ): Promise<[EcosystemMembership[], number]> {
    const where: FilterQuery<EcosystemMembership> = { organization: orgId, role: 'ECOSYSTEM_MEMBER' }
    if (ecosystemId) where.ecosystem = ecosystemId
    return this.pageOf(where, page)
  }

  /**
   * Invitations with one status that the organizations sent (as lead) or received, newest first: the view of
   * `GET /ecosystem/invitation/status`.
   */
  public listOfOrgs(
    orgIds: readonly string[],
    status: EcosystemOrgStatus,
    page: PageRequest,
  ): Promise<[EcosystemMembership[], number]> {
    if (orgIds.length === 0) return Promise.resolve([[], 0])
    const ids = [...orgIds]
    return this.pageOf(
      {
        role: 'ECOSYSTEM_MEMBER',
        status,
        $or: [{ organization: { $in: ids } }, { ecosystem: { leadOrganization: { $in: ids } } }],
      },
      page,
    )
  }

  /** Newest first, with the ecosystem and organization. */
  private pageOf(where: FilterQuery<EcosystemMembership>, page: PageRequest): Promise<[EcosystemMembership[], number]> {
    return this.findPage(where, page, { createdAt: 'desc' }, { populate: ['ecosystem', 'organization'] })
  }
}
