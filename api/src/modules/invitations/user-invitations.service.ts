import { injectable } from 'inversify'
import { ForbiddenError, Logger, NotFoundError } from '@idplane/common'
import type { Principal } from '../../infra/auth/token.service'
import { MembershipsRepository } from '../memberships/memberships.repository'
import { MembershipsService } from '../memberships/memberships.service'
import { UsersRepository } from '../users/users.repository'
import type { InvitationResponseStatus } from './dto/update-invitation-status.dto'
import { withRoles, type RoledInvitation } from './invitation-roles'
import { nextInvitationState } from './invitation.states'
import { InvitationsRepository, type InvitationPageQuery } from './invitations.repository'
import { normalizeEmail } from './invitees'

/** The invited user's side: their own invitations, matched by the e-mail address in their token. */
@injectable()
export class UserInvitationsService {
  private readonly logger: Logger

  public constructor(
    private readonly invitations: InvitationsRepository,
    private readonly memberships: MembershipsService,
    private readonly roleDefinitions: MembershipsRepository,
    private readonly users: UsersRepository,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'user-invitations' })
  }

  /**
   * The caller's invitations of every status, newest first; an address invited before its account existed
   * is matched all the same.
   * @throws ForbiddenError for an M2M client (invitations are addressed to people)
   */
  public async listMine(principal: Principal, query: InvitationPageQuery): Promise<[RoledInvitation[], number]> {
    const invitee = invitedUserOf(principal)
    const [invitations, total] = await this.invitations.listForEmail(invitee.email, query)
    return [withRoles(invitations, await this.roleDefinitions.listDefinitions()), total]
  }

  /**
   * Accepts or rejects one of the caller's invitations. Accepting makes the caller a member with the
   * invited roles, in the same transaction as the status change.
   * @throws ForbiddenError for an M2M client
   * @throws NotFoundError when the invitation is not addressed to the caller (or was removed)
   * @throws InvalidStateError when it is no longer pending
   */
  public async respond(principal: Principal, invitationId: string, status: InvitationResponseStatus): Promise<void> {
    const invitee = invitedUserOf(principal)
    const orgId = await this.invitations.transactional(async () => {
      const invitation = await this.invitations.lockForEmail(invitee.email, invitationId)
      if (!invitation) throw new NotFoundError('Invitation not found')
      invitation.status = nextInvitationState(invitation.status, status === 'accepted' ? 'accept' : 'reject')
      if (invitation.status === 'accepted') {
        if (!(await this.users.findById(invitee.userId))) throw new NotFoundError('User not found')
        const roles = await this.memberships.definitionsByIds(invitation.orgRoleIds)
        await this.memberships.grant(invitation.organization.id, invitee.userId, roles)
      }
      await this.invitations.flush()
      return invitation.organization.id
    })
    this.logger.info('Answered invitation', { invitationId, orgId, userId: invitee.userId, status })
  }
}

/** The person an invitation may be addressed to; e-mail normalized as invitations store it. */
function invitedUserOf(principal: Principal): { userId: string; email: string } {
  if (principal.kind !== 'user') throw new ForbiddenError('Only a signed-in user has invitations')
  return { userId: principal.userId, email: normalizeEmail(principal.email) }
}
