import { inject, injectable } from 'inversify'
import { ForbiddenError, Logger, NotFoundError } from '@idplane/common'
import type { Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { MailOutbox } from '../../infra/mail/mail-outbox'
import { ModuleRegistry } from '../../infra/module-registry'
import { TOKENS } from '../../infra/tokens'
import { resolveClientAlias } from '../auth/client-aliases'
import { MembershipsRepository } from '../memberships/memberships.repository'
import { ORG_ROLES } from '../memberships/org-roles'
import type { InvitationAnswer } from './dto/ecosystem-invitation.dto'
import type { InvitationStatusQuery, ListInvitationsByRoleQuery } from './dto/list-ecosystem-invitations.query'
import type { Ecosystem } from '../ecosystems/ecosystem.entity'
import type { EcosystemMembership, EcosystemOrgStatus } from '../ecosystems/ecosystem-membership.entity'
import { ECOSYSTEM_EVENT_TYPES, ecosystemEvents } from '../ecosystems/ecosystem-events'
import { buildEcosystemInvitationMail } from './ecosystem-invitation-mail'
import { nextEcosystemOrgState, stateOf } from '../ecosystems/ecosystem-membership.states'
import { EcosystemAccess, existingEcosystem } from '../ecosystems/ecosystem-access'
import { EcosystemsRepository } from '../ecosystems/ecosystems.repository'
import { OrgsRepository } from '../orgs/orgs.repository'
import { EcosystemInvitationsRepository } from './ecosystem-invitations.repository'

/** Inviting organizations into an ecosystem, their answers, and the lists of invitations. */
@injectable()
export class EcosystemInvitationsService {
  private readonly logger: Logger

  public constructor(
    private readonly ecosystems: EcosystemsRepository,
    private readonly orgs: OrgsRepository,
    private readonly invitations: EcosystemInvitationsRepository,
    private readonly access: EcosystemAccess,
    private readonly memberships: MembershipsRepository,
    private readonly outbox: MailOutbox,
    private readonly modules: ModuleRegistry,
    @inject(TOKENS.Config) private readonly config: Config,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'ecosystem-invitations' })
  }

  /**
   * Invites an organization (PENDING); its owners get a mail, the lead and the invited organization an event.
   * @throws NotFoundError when the ecosystem or the organization does not exist
   * @throws ForbiddenError unless the caller is an owner or admin of the lead organization
   * @throws InvalidStateError when the organization is already in the ecosystem (any status, or the lead)
   */
  public async invite(principal: Principal, ecosystemId: string, orgId: string): Promise<EcosystemMembership> {
    await this.access.ledEcosystem(principal, ecosystemId, 'invite organizations')
    const row = await this.ecosystems.transactional(async () => {
      const ecosystem = existingEcosystem(await this.ecosystems.lockEcosystem(ecosystemId))
      const organization = await this.orgs.findById(orgId)
      if (!organization) throw new NotFoundError('Organization not found')
      nextEcosystemOrgState(stateOf(await this.ecosystems.membership(ecosystemId, orgId)), 'invite')
      const invitation = await this.invitations.add(
        ecosystem,
        organization,
        principal.kind === 'user' ? principal.userId : null,
      )
      await this.mailOwners(invitation, ecosystem)
      await this.modules.publish(
        ecosystemEvents(ECOSYSTEM_EVENT_TYPES.invitationSent, invitation, ecosystem.leadOrganization.id),
      )
      return invitation
    })
    this.logger.info('Invited organization to ecosystem', { ecosystemId, orgId })
    return row
  }

  /**
   * The invited organization accepts (it joins) or rejects.
   * @throws ForbiddenError unless the caller is an owner or admin of the invited organization
   * @throws NotFoundError when the ecosystem does not exist or has no invitation for the organization
   * @throws InvalidStateError when the invitation is no longer PENDING
   */
  public async respond(
    principal: Principal,
    ecosystemId: string,
    orgId: string,
    answer: InvitationAnswer,
  ): Promise<EcosystemMembership> {
    await this.access.assertManagerOf(principal, orgId, 'answer its ecosystem invitations')
    const row = await this.ecosystems.transactional(async () => {
      const ecosystem = existingEcosystem(await this.ecosystems.lockEcosystem(ecosystemId))
      const invitation = await this.ecosystems.membership(ecosystemId, orgId)
      if (!invitation) throw new NotFoundError('This organization has no invitation to this ecosystem')
      invitation.status = nextEcosystemOrgState(stateOf(invitation), answer === 'accepted' ? 'accept' : 'reject')
      await this.ecosystems.flush()
      const type =
        answer === 'accepted' ? ECOSYSTEM_EVENT_TYPES.invitationAccepted : ECOSYSTEM_EVENT_TYPES.invitationRejected
      await this.modules.publish(ecosystemEvents(type, invitation, ecosystem.leadOrganization.id))
      return invitation
    })
    this.logger.info('Answered ecosystem invitation', { ecosystemId, orgId, answer })
    return row
  }

  /**
   * As ECOSYSTEM_LEAD: the invitations sent in the ecosystem; as ECOSYSTEM_MEMBER: those the organization
   * received. Every status, newest first.
   * @throws ForbiddenError unless the caller owns the organization, or (lead) when it does not lead the ecosystem
   * @throws NotFoundError (lead) when the ecosystem does not exist
   */
  public async listByRole(
    principal: Principal,
    query: ListInvitationsByRoleQuery,
  ): Promise<[EcosystemMembership[], number]> {
    if (!(await this.access.holds(principal, query.orgId, ORG_ROLES.owner))) {
      throw new ForbiddenError('Only an owner of the organization can list its ecosystem invitations')
    }
    if (query.role === 'ECOSYSTEM_MEMBER') {
      return this.invitations.listReceived(query.orgId, query.ecosystemId, query)
    }
    // ListInvitationsByRoleQuery requires ecosystemId with ECOSYSTEM_LEAD.
    const ecosystemId = query.ecosystemId as string
    const ecosystem = existingEcosystem(await this.ecosystems.findEcosystem(ecosystemId))
    if (ecosystem.leadOrganization.id !== query.orgId.toLowerCase()) {
      throw new ForbiddenError('The organization is not the lead of this ecosystem')
    }
    return this.invitations.listSent(ecosystemId, query)
  }

  /**
   * The caller's view of ecosystem building (docs/decisions.md, "Ecosystems"): the invitations with the
   * status that the organizations where the caller is owner or admin sent as lead or received.
   */
  public async listByStatus(
    principal: Principal,
    query: InvitationStatusQuery,
  ): Promise<[EcosystemMembership[], number]> {
    const orgIds =
      principal.kind === 'client'
        ? [principal.orgId]
        : await this.memberships.organizationsWhereUserHolds(principal.userId, ORG_ROLES.ownerAdmin)
    const status = query.status.toUpperCase() as EcosystemOrgStatus
    return this.invitations.listOfOrgs(orgIds, status, query)
  }

  /** One mail per owner of the invited organization, keyed by invitation and owner (sent once each). */
  private async mailOwners(invitation: EcosystemMembership, ecosystem: Ecosystem): Promise<void> {
    const owners = await this.memberships.holdersOf(invitation.organization.id, 'owner')
    const frontEnd = resolveClientAlias(this.config.clientAliases, undefined)
    await this.outbox.add(
      owners.map((owner) => ({
        idempotencyKey: `ecosystem-invitation:${invitation.id}:${owner.id}`,
        message: buildEcosystemInvitationMail({
          to: owner.email,
          ecosystemId: ecosystem.id,
          ecosystemName: ecosystem.name,
          leadOrgName: ecosystem.leadOrganization.name,
          orgId: invitation.organization.id,
          orgName: invitation.organization.name,
          frontEndUrl: frontEnd.url,
          platformName: frontEnd.name,
        }),
      })),
    )
  }
}
