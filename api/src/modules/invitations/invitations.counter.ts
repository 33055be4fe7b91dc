import { injectable } from 'inversify'
import type { OrganizationCounter } from '../../infra/api-module'
import type { InvitationStatus } from './invitation.entity'
import { InvitationsRepository } from './invitations.repository'

type InvitationCounts = { invitations: Record<InvitationStatus, number> }

/** The organization's invitations by status; the dashboard shows the pending ones. */
@injectable()
export class InvitationsCounter implements OrganizationCounter<InvitationCounts> {
  public constructor(private readonly invitations: InvitationsRepository) {}

  public async count(orgId: string): Promise<InvitationCounts> {
    return { invitations: await this.invitations.countByStatus(orgId) }
  }

  public summarize(counts: InvitationCounts) {
    return { pendingInvitations: counts.invitations.pending }
  }
}
