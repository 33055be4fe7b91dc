import { inject, injectable } from 'inversify'
import { ConflictError, Logger, NotFoundError } from '@idplane/common'
import type { ClientAlias, Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { authConfig, type AuthConfig } from '../auth/auth.config'
import { MailOutbox } from '../../infra/mail/mail-outbox'
import { RateLimiter, rateLimitKey } from '../../infra/rate-limit/rate-limiter'
import { TOKENS } from '../../infra/tokens'
import { resolveClientAlias } from '../auth/client-aliases'
import { MembershipsRepository } from '../memberships/memberships.repository'
import { MembershipsService } from '../memberships/memberships.service'
import { OrgsRepository } from '../orgs/orgs.repository'
import type { OrgCaller } from '../memberships/org-caller.decorator'
import { assertMayGrant } from '../memberships/role-grants'
import type { Organization } from '../orgs/organization.entity'
import type { User } from '../users/user.entity'
import { UsersRepository } from '../users/users.repository'
import type { Invitation } from './invitation.entity'
import { buildInvitationMail } from './invitation-mail'
import { withRoles, type RoledInvitation } from './invitation-roles'
import { nextInvitationState } from './invitation.states'
import { InvitationsRepository, type InvitationPageQuery } from './invitations.repository'
import { mergeInvitees } from './invitees'

export interface InvitationBatchResult {
  /** Addresses invited now (one mail each). */
  sent: string[]
  /** Addresses that already had a pending invitation to the organization: no second invitation, no mail. */
  skipped: string[]
}

/** Rate-limit counter of invitation mails per organization (config auth.invitationMailLimit). */
export const INVITATION_MAIL_RATE_LIMIT_SCOPE = 'invitation-mail-org'

/** The organization's side of invitations (spec: Invitations and membership). */
@injectable()
export class InvitationsService {
  private readonly logger: Logger

  private readonly auth: AuthConfig

  public constructor(
    private readonly invitations: InvitationsRepository,
    private readonly memberships: MembershipsService,
    private readonly members: MembershipsRepository,
    private readonly orgs: OrgsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: MailOutbox,
    @inject(TOKENS.Config) private readonly config: Config,
    logger: Logger,
    private readonly rateLimiter: RateLimiter,
  ) {
    this.auth = sectionOf(config, authConfig)
    this.logger = logger.child({ component: 'invitations' })
  }

  /**
   * Invites each address (once, however often it is listed) with its roles and mails it a link.
   * @throws InvalidInputError for an unknown role id or client alias
   * @throws ForbiddenError when a privileged role is granted by a caller who does not hold it
   * @throws NotFoundError when the organization is gone
   * @throws ConflictError when an address belongs to a member already (nothing is sent then)
   * @throws RateLimitedError past auth.invitationMailLimit mails per organization
   */
  public async invite(
    orgId: string,
    caller: OrgCaller,
    items: readonly { email: string; orgRoleId: readonly string[] }[],
    clientAlias?: string,
  ): Promise<InvitationBatchResult> {
    const invitees = mergeInvitees(items)
    const roles = await this.memberships.definitionsByIds(
      invitees.flatMap((invitee) => invitee.orgRoleIds),
      'invitations.orgRoleId',
    )
    assertMayGrant(
      caller.roles,
      roles.map((role) => role.name),
    )
    const frontEnd = resolveClientAlias(this.config.clientAliases, clientAlias)
    const emails = invitees.map((invitee) => invitee.email)
    // Every address counts (skipped ones too): the endpoint must not serve as a mail relay.
    await this.rateLimiter.enforce(
      [
        {
          key: rateLimitKey(INVITATION_MAIL_RATE_LIMIT_SCOPE, orgId),
          rule: this.auth.invitationMailLimit,
          cost: invitees.length,
        },
      ],
      'Too many invitation mails for this organization; try again later',
    )

    return this.invitations.transactional(async () => {
      const organization = await this.orgs.lock(orgId)
      if (!organization) throw new NotFoundError('Organization not found')
      const members = await this.members.memberEmails(orgId, emails)
      if (members.length > 0) {
        throw new ConflictError(
          `Already a member of this organization: ${members.join(', ')}; change a member's roles with PUT /orgs/:orgId/user-roles/:userId`,
        )
      }
      const pending = new Set(await this.invitations.pendingEmails(orgId, emails))
      const fresh = invitees.filter((invitee) => !pending.has(invitee.email))
      const created = await this.invitations.add(orgId, fresh, caller.userId)
      // Written to the outbox in this transaction: a mail exists exactly when its invitation does.
      await this.mailInvitations(created, organization, caller.userId, frontEnd)
      this.logger.info('Created invitations', { orgId, created: created.length, skipped: pending.size })
      return { sent: created.map((invitation) => invitation.email), skipped: [...pending] }
    })
  }

  private async mailInvitations(
    invitations: Invitation[],
    organization: Organization,
    inviterId: string | null,
    frontEnd: ClientAlias,
  ): Promise<void> {
    const inviter = inviterId ? await this.users.findById(inviterId) : null
    await this.outbox.add(
      invitations.map((invitation) => ({
        idempotencyKey: `invitation:${invitation.id}`,
        message: buildInvitationMail({
          to: invitation.email,
          invitationId: invitation.id,
          orgName: organization.name,
          inviter: inviter ? displayName(inviter) : undefined,
          frontEndUrl: frontEnd.url,
          platformName: frontEnd.name,
        }),
      })),
    )
  }

  /** Invitations of every status, newest first, with their roles. */
  public async listForOrg(orgId: string, query: InvitationPageQuery): Promise<[RoledInvitation[], number]> {
    const [invitations, total] = await this.invitations.listForOrg(orgId, query)
    return [withRoles(invitations, await this.members.listDefinitions()), total]
  }

  /**
   * Removes a pending invitation; its mailed link then no longer resolves.
   * @throws NotFoundError when the invitation is not one of this organization's
   * @throws InvalidStateError when it was already accepted or rejected
   */
  public async remove(orgId: string, invitationId: string): Promise<void> {
    await this.invitations.transactional(async () => {
      const invitation = await this.invitations.lockForOrg(orgId, invitationId)
      if (!invitation) throw new NotFoundError('Invitation not found')
      nextInvitationState(invitation.status, 'remove')
      await this.invitations.remove(invitation)
    })
    this.logger.info('Removed invitation', { orgId, invitationId })
  }
}

function displayName(user: User): string {
  const name = `${user.firstName} ${user.lastName}`.trim()
  return name ? `${name} (${user.email})` : user.email
}
