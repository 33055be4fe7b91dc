import { injectable } from 'inversify'
import { LockMode, type FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { containsPattern } from '../../infra/db/like-pattern'
import { Organization } from '../orgs/organization.entity'
import { INVITATION_STATUSES, Invitation, type InvitationStatus } from './invitation.entity'
import type { Invitee } from './invitees'
import { OrgRepository } from '../../infra/db/base.repository'

export interface InvitationPageQuery {
  pageNumber: number
  pageSize: number
  search?: string
}

/**
 * Invitation queries. Organization-side lookups take `orgId` first and invitee-side lookups take the
 * invitee's e-mail first, so a read across organizations or across people cannot be written by accident.
 * Inside `transactional()` every query here (and other repositories', OrgsRepository's organization lock
 * included) joins the transaction: the global em resolves to the transaction's fork.
 */
@injectable()
export class InvitationsRepository extends OrgRepository<Invitation> {
  public constructor(em: EntityManager) {
    super(em, Invitation)
  }

  /** Those of `emails` that already have a pending invitation to the organization. */
  public async pendingEmails(orgId: string, emails: string[]): Promise<string[]> {
    if (emails.length === 0) return []
    const rows = await this.em.find(Invitation, { organization: orgId, status: 'pending', email: { $in: emails } })
    return [...new Set(rows.map((row) => row.email))]
  }

  /** Creates pending invitations; flushes. */
  public async add(orgId: string, invitees: Invitee[], invitedBy: string | null): Promise<Invitation[]> {
    const organization = this.em.getReference(Organization, orgId)
    const created = invitees.map((invitee) =>
      this.em.create(Invitation, { organization, email: invitee.email, orgRoleIds: invitee.orgRoleIds, invitedBy }),
    )
    await this.em.flush()
    return created
  }

  /** Invitations of every status, newest first; `search` matches the e-mail, case-insensitively. */
  public listForOrg(orgId: string, query: InvitationPageQuery): Promise<[Invitation[], number]> {
    const where: FilterQuery<Invitation> = {}
    if (query.search) where.email = { $ilike: containsPattern(query.search) }
    return this.pageInOrg(orgId, where, query, { createdAt: 'desc' })
  }

  /** One invitation of the organization, locked until the transaction ends. */
  public lockForOrg(orgId: string, invitationId: string): Promise<Invitation | null> {
    return this.em.findOne(
      Invitation,
      { organization: orgId, id: invitationId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    )
  }

  public async remove(invitation: Invitation): Promise<void> {
    await this.em.remove(invitation).flush()
  }

  /** The invitee's own invitations with their organization, newest first; `search` matches the organization name. */
  public listForEmail(email: string, query: InvitationPageQuery): Promise<[Invitation[], number]> {
    const where: FilterQuery<Invitation> = { email }
    if (query.search) where.organization = { name: { $ilike: containsPattern(query.search) } }
    return this.findPage(where, query, { createdAt: 'desc' }, { populate: ['organization'] })
  }

  /**
   * The invitation a mailed link names, with its organization, for the invitation page. Not scoped by
   * organization or address: the random id in the link is what grants the look (docs/decisions.md).
   */
  public findForLink(invitationId: string): Promise<Invitation | null> {
    return this.em.findOne(Invitation, { id: invitationId }, { populate: ['organization'] })
  }

  /** One invitation addressed to `email`, locked until the transaction ends. */
  public lockForEmail(email: string, invitationId: string): Promise<Invitation | null> {
    return this.em.findOne(Invitation, { email, id: invitationId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
  }

  /** The organization's invitations by status. */
  public async countByStatus(orgId: string): Promise<Record<InvitationStatus, number>> {
    const counts: Record<InvitationStatus, number> = { pending: 0, accepted: 0, rejected: 0 }
    for (const status of INVITATION_STATUSES) {
      counts[status] = await this.em.count(Invitation, { organization: orgId, status })
    }
    return counts
  }
}
