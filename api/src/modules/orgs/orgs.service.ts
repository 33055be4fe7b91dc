import { inject, injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { ConflictError, ForbiddenError, Logger, NotFoundError } from '@idplane/common'
import type { Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { orgsConfig, type OrgsConfig } from './orgs.config'
import { checkTargetUrl } from '@idplane/common/net/delivery-target'
import { TOKENS } from '../../infra/tokens'
import { toPage, type Page } from '../../infra/http/pagination'
import { ModuleRegistry } from '../../infra/module-registry'
import { MembershipsRepository } from '../memberships/memberships.repository'
import { MembershipsService } from '../memberships/memberships.service'
import { ORG_ROLE_NAMES, type OrgRole } from '../memberships/org-role.entity'
import type { Organization, OrganizationView } from './organization.entity'
import { SessionRevocationsService } from '../auth/session-revocations.service'
import { ClientCredentialsRepository } from './client-credentials.repository'
import { OrgsRepository } from './orgs.repository'
import { parseLogo } from './logo'
import { nextFreeSlug, slugify } from './slug'
import type { CreateOrganizationDto } from './dto/create-organization.dto'
import type { UpdateOrganizationDto } from './dto/update-organization.dto'
import type { ListOrganizationsQuery } from './dto/list-organizations.query'
import type { PublicProfilesQuery } from './dto/public-profiles.query'

/** Attempts at a free slug when concurrent creations race for the same one (the unique index decides). */
const SLUG_ATTEMPTS = 5

/** The public surface of OrgsRepository, so unit tests can hand in a fake. */
export type OrgStore = Pick<OrgsRepository, keyof OrgsRepository>

/** Organizations: creation (the caller becomes owner), reads, partial updates and deletion. */
@injectable()
export class OrgsService {
  private readonly logger: Logger

  private readonly settings: OrgsConfig

  public constructor(
    @inject(OrgsRepository) private readonly orgs: OrgStore,
    private readonly memberships: MembershipsService,
    private readonly membershipsRepository: MembershipsRepository,
    private readonly modules: ModuleRegistry,
    logger: Logger,
    private readonly sessions: SessionRevocationsService,
    private readonly credentials: ClientCredentialsRepository,
    @inject(TOKENS.Config) private readonly config: Config,
  ) {
    this.settings = sectionOf(config, orgsConfig)
    this.logger = logger.child({ component: 'orgs' })
  }

  /**
   * Creates an organization with a unique slug derived from its name; the caller becomes its owner.
   * @throws ForbiddenError for a machine-to-machine client (it belongs to one organization already)
   * @throws InvalidInputError for a bad logo, or a webhook URL with credentials or a private target
   * @throws ConflictError when the user created LIMIT_ORGS_PER_USER organizations already
   */
  public async create(principal: Principal, input: CreateOrganizationDto): Promise<Organization> {
    const userId = requireUser(principal, 'Machine-to-machine clients cannot create organizations')
    const logoUrl = input.logo === undefined ? '' : parseLogo(input.logo, { allowUrl: true })
    if (input.notificationWebhook !== undefined) {
      // Names are checked again after DNS resolution when a delivery is made (checkDeliveryTarget).
      checkTargetUrl(input.notificationWebhook, {
        allowPrivateTargets: this.config.network.allowPrivateTargets,
        field: 'notificationWebhook',
      })
    }
    const base = slugify(input.name)
    for (let attempt = 1; ; attempt++) {
      const slug = nextFreeSlug(base, await this.orgs.slugsStartingWith(base))
      try {
        const org = await this.orgs.transactional(async () => {
          await this.checkOrgQuota(userId)
          const created = await this.orgs.add({
            name: input.name,
            slug,
            description: input.description,
            logoUrl,
            website: input.website ?? null,
            notificationWebhook: input.notificationWebhook ?? null,
            registrationNumber: input.registrationNumber ?? null,
            countryId: input.countryId ?? null,
            stateId: input.stateId ?? null,
            cityId: input.cityId ?? null,
            createdBy: userId,
          })
          await this.memberships.grant(created.id, userId, [await this.membershipsRepository.definitionByName('owner')])
          return created
        })
        this.logger.info('Created Organization', { orgId: org.id, slug, userId })
        return org
      } catch (error) {
        // Another request took the slug between the read and the insert: read again and retry.
        if (!(error instanceof UniqueConstraintViolationException) || attempt >= SLUG_ATTEMPTS) throw error
      }
    }
  }

  /**
   * The caller's organizations with the caller's roles in each.
   * @throws ForbiddenError for a machine-to-machine client (docs/decisions.md: it reads its organization by id)
   */
  public async listForCaller(
    principal: Principal,
    query: ListOrganizationsQuery,
  ): Promise<Page<{ org: Organization; roles: OrgRole[] }>> {
    const userId = requireUser(principal, 'Machine-to-machine clients read their organization with GET /v1/orgs/:orgId')
    const [orgs, total] = await this.orgs.findForMember(
      userId,
      { search: query.search, role: ORG_ROLE_NAMES.find((name) => name === query.role) },
      query,
    )
    const roles = await this.membershipsRepository.rolesOfUserIn(
      userId,
      orgs.map((org) => org.id),
    )
    return toPage(
      orgs.map((org) => ({ org, roles: roles.get(org.id) ?? [] })),
      total,
      query,
    )
  }

  /**
   * The organization as its members read it (not tracked: change it through `update`).
   * @throws NotFoundError when the organization does not exist
   */
  public async view(orgId: string): Promise<OrganizationView> {
    const org = await this.orgs.viewById(orgId)
    if (!org) throw new NotFoundError('Organization not found')
    return org
  }

  /** @throws NotFoundError when the organization does not exist */
  public async get(orgId: string): Promise<Organization> {
    const org = await this.orgs.findById(orgId)
    if (!org) throw new NotFoundError('Organization not found')
    return org
  }

  /**
   * Changes only the supplied fields. The slug stays as created, so public-profile links keep working.
   * @throws NotFoundError when the organization does not exist
   * @throws InvalidInputError for a logo that is not a valid base64 image
   */
  public async update(orgId: string, input: UpdateOrganizationDto): Promise<Organization> {
    const org = await this.get(orgId)
    if (input.name !== undefined) org.name = input.name
    if (input.description !== undefined) org.description = input.description
    if (input.logo !== undefined) org.logoUrl = parseLogo(input.logo, { allowUrl: false })
    if (input.website !== undefined) org.website = input.website
    if (input.isPublic !== undefined) org.isPublic = input.isPublic
    if (input.countryId !== undefined) org.countryId = input.countryId
    if (input.stateId !== undefined) org.stateId = input.stateId
    if (input.cityId !== undefined) org.cityId = input.cityId
    await this.orgs.save()
    this.logger.info('Updated Organization', { orgId, fields: Object.keys(input) })
    return org
  }

  /**
   * Deletes the organization irreversibly: first every module's deletion hook (ApiModule.onOrganizationDeleted,
   * for what lives outside the database), then the row, whose foreign keys cascade to its memberships,
   * invitations, DIDs, client credentials and every per-organization record.
   * @throws NotFoundError when the organization does not exist
   */
  public async delete(orgId: string): Promise<void> {
    await this.get(orgId)
    await this.modules.organizationDeleted(orgId)
    const deleted = await this.orgs.transactional(async () => {
      // Its M2M tokens end with it (their session is the client credential the delete cascades to).
      const credential = await this.credentials.findForOrg(orgId)
      if (credential) await this.sessions.revoke([credential.clientId], 'organization-deleted')
      return this.orgs.delete(orgId)
    })
    if (deleted === 0) throw new NotFoundError('Organization not found')
    // Its memberships went with it: the roles this process reuses for authorization go too (403 for every member).
    this.membershipsRepository.forgetRecentRolesIn(orgId)
    this.logger.info('Deleted Organization', { orgId })
  }

  /** Organizations per user (LIMIT_ORGS_PER_USER; 0: none), counted under a per-user lock in the transaction. */
  private async checkOrgQuota(userId: string): Promise<void> {
    const limit = this.settings.orgsPerUser
    if (limit === 0) return
    if ((await this.orgs.countCreatedByLocked(userId)) >= limit) {
      throw new ConflictError(`You have created ${limit} organizations, the most one user may create; delete one first`)
    }
  }

  public async listPublic(query: PublicProfilesQuery): Promise<Page<Organization>> {
    const [orgs, total] = await this.orgs.findPublic(query.search, query)
    return toPage(orgs, total, query)
  }

  /** @throws NotFoundError when no organization has the slug or it is not public */
  public async getPublic(slug: string): Promise<Organization> {
    const org = await this.orgs.findPublicBySlug(slug)
    if (!org) throw new NotFoundError('Organization profile not found')
    return org
  }
}

function requireUser(principal: Principal, message: string): string {
  if (principal.kind !== 'user') throw new ForbiddenError(message)
  return principal.userId
}
