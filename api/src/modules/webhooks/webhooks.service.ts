import { inject, injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { ForbiddenError, InvalidInputError, NotFoundError } from '@idplane/common'
import { invalidOrgIdError, isOrgId } from '../../infra/auth/authorization'
import { OrgRoleLookup } from '../../infra/auth/org-role-lookup'
import type { Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { SecretBox } from '../../infra/crypto/secret-box'
import { checkTargetUrl } from '@idplane/common/net/delivery-target'
import { TOKENS } from '../../infra/tokens'
import type { Webhook } from './webhook.entity'
import { MembershipsRepository } from '../memberships/memberships.repository'
import type { OrgRoleName } from '../memberships/org-role.entity'
import { WebhooksRepository } from './webhooks.repository'

/** Roles that may read an organization's webhook URL (spec: Webhooks). */
export const WEBHOOK_READER_ROLES: readonly OrgRoleName[] = ['owner', 'admin', 'issuer', 'verifier']

/** Registration, reading and changing of webhooks; secrets are sealed with the row id as context. */
@injectable()
export class WebhooksService {
  public constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly box: SecretBox,
    private readonly roles: OrgRoleLookup,
    private readonly memberships: MembershipsRepository,
    @inject(TOKENS.Config) private readonly config: Config,
  ) {}

  /**
   * Registers the organization's webhook, replacing the URL and secret of one registered before (a secret left
   * out means none).
   * @throws InvalidInputError for a private or loopback target while NETWORK_ALLOW_PRIVATE_TARGETS is off
   */
  public async registerForOrg(orgId: string, input: { webhookUrl: string; webhookSecret?: string }): Promise<Webhook> {
    this.checkUrl(input.webhookUrl)
    return this.onceMore(() =>
      this.webhooks.transactional(async () => {
        const webhook =
          (await this.webhooks.findForOrg(orgId)) ?? (await this.webhooks.create({ orgId }, input.webhookUrl))
        webhook.url = input.webhookUrl
        webhook.sealedSecret = input.webhookSecret === undefined ? null : this.box.seal(input.webhookSecret, webhook.id)
        await this.webhooks.flush()
        return webhook
      }),
    )
  }

  /**
   * Registers a cloud-wallet tenant's webhook (for the cloud-wallet module's `POST /v1/webhooks/wallet/register`).
   * Only `ownerUserId` may read it back.
   */
  public async registerForTenant(
    tenantId: string,
    ownerUserId: string,
    input: { webhookUrl: string; webhookSecret?: string },
  ): Promise<Webhook> {
    this.checkUrl(input.webhookUrl)
    return this.onceMore(() =>
      this.webhooks.transactional(async () => {
        const webhook =
          (await this.webhooks.findForTenant(tenantId)) ??
          (await this.webhooks.create({ tenantId, ownerUserId }, input.webhookUrl))
        webhook.url = input.webhookUrl
        webhook.ownerUserId = ownerUserId
        webhook.sealedSecret = input.webhookSecret === undefined ? null : this.box.seal(input.webhookSecret, webhook.id)
        await this.webhooks.flush()
        return webhook
      }),
    )
  }

  /**
   * The webhook of `orgId` (the caller needs owner, admin, issuer or verifier there) or of `tenantId` (only the
   * user whose wallet the tenant is; anyone else gets 404, as for a tenant without one). With neither (the spec
   * makes both optional): the caller's own, when that is one thing only: the one organization where it may read
   * webhooks (a client token: its organization) and no wallet webhook, or its wallet's webhook and no such
   * organization.
   * @throws InvalidInputError for both, for neither when the caller's own is none or several, or for a malformed orgId
   * @throws ForbiddenError without a reader role in the organization
   * @throws NotFoundError when no webhook is registered
   */
  public async read(principal: Principal, query: { orgId?: string; tenantId?: string }): Promise<Webhook> {
    if (query.orgId !== undefined && query.tenantId !== undefined) {
      throw new InvalidInputError('Give either orgId or tenantId, not both', [
        { field: 'orgId', message: 'give orgId or tenantId, not both' },
        { field: 'tenantId', message: 'give orgId or tenantId, not both' },
      ])
    }
    if (query.orgId !== undefined) return this.readForOrg(principal, query.orgId)
    if (query.tenantId !== undefined) {
      const webhook = await this.webhooks.findForTenant(query.tenantId)
      if (!webhook || principal.kind !== 'user' || webhook.ownerUserId !== principal.userId) {
        throw new NotFoundError('No webhook is registered for this tenant')
      }
      return webhook
    }
    return this.readOwn(principal)
  }

  private async readForOrg(principal: Principal, orgId: string): Promise<Webhook> {
    if (!isOrgId(orgId)) throw invalidOrgIdError()
    const held = await this.roles.rolesOf(principal, orgId)
    if (!held.some((role) => (WEBHOOK_READER_ROLES as readonly string[]).includes(role))) {
      throw new ForbiddenError('You do not have the role this action needs in this organization')
    }
    const webhook = await this.webhooks.findForOrg(orgId)
    if (!webhook) throw new NotFoundError('No webhook is registered for this organization')
    return webhook
  }

  /** The caller's own webhook when only one owner can be meant; a wallet counts once it has a webhook. */
  private async readOwn(principal: Principal): Promise<Webhook> {
    const orgIds =
      principal.kind === 'client'
        ? [principal.orgId]
        : await this.memberships.organizationsWhereUserHolds(principal.userId, WEBHOOK_READER_ROLES)
    const walletWebhook = principal.kind === 'user' ? await this.webhooks.findOwnedByUser(principal.userId) : null
    const [onlyOrgId] = orgIds
    if (orgIds.length === 1 && !walletWebhook && onlyOrgId) return this.readForOrg(principal, onlyOrgId)
    if (orgIds.length === 0 && walletWebhook) return walletWebhook
    const why =
      orgIds.length + (walletWebhook ? 1 : 0) === 0
        ? 'you have no organization or wallet webhook of your own'
        : 'you have several organizations or wallets'
    throw new InvalidInputError(`Give orgId or tenantId: ${why}`, [
      { field: 'orgId', message: 'the organization whose webhook to read' },
      { field: 'tenantId', message: 'your cloud-wallet tenant whose webhook to read' },
    ])
  }

  /**
   * Changes the URL, the secret or both of the organization's webhook.
   * @throws InvalidInputError when neither is given, or for a refused target
   * @throws NotFoundError when none is registered
   */
  public async updateForOrg(orgId: string, input: { webhookUrl?: string; webhookSecret?: string }): Promise<Webhook> {
    if (input.webhookUrl === undefined && input.webhookSecret === undefined) {
      throw new InvalidInputError('Nothing to change', [
        { field: 'webhookUrl', message: 'give webhookUrl, webhookSecret or both' },
      ])
    }
    if (input.webhookUrl !== undefined) this.checkUrl(input.webhookUrl)
    return this.webhooks.transactional(async () => {
      const webhook = await this.webhooks.findForOrg(orgId)
      if (!webhook) throw new NotFoundError('No webhook is registered for this organization')
      if (input.webhookUrl !== undefined) webhook.url = input.webhookUrl
      if (input.webhookSecret !== undefined) webhook.sealedSecret = this.box.seal(input.webhookSecret, webhook.id)
      await this.webhooks.flush()
      return webhook
    })
  }

  /**
   * Changes the URL, the secret or both of a cloud-wallet tenant's webhook (for the cloud-wallet module).
   * @throws InvalidInputError when neither is given, or for a refused target
   * @throws NotFoundError when the tenant has none
   */
  public async updateForTenant(
    tenantId: string,
    input: { webhookUrl?: string; webhookSecret?: string },
  ): Promise<Webhook> {
    if (input.webhookUrl === undefined && input.webhookSecret === undefined) {
      throw new InvalidInputError('Nothing to change', [
        { field: 'webhookUrl', message: 'give webhookUrl, webhookSecret or both' },
      ])
    }
    if (input.webhookUrl !== undefined) this.checkUrl(input.webhookUrl)
    return this.webhooks.transactional(async () => {
      const webhook = await this.webhooks.findForTenant(tenantId)
      if (!webhook) throw new NotFoundError('No webhook is registered for your wallet')
      if (input.webhookUrl !== undefined) webhook.url = input.webhookUrl
      if (input.webhookSecret !== undefined) webhook.sealedSecret = this.box.seal(input.webhookSecret, webhook.id)
      await this.webhooks.flush()
      return webhook
    })
  }

  /**
   * Runs a registration again when a concurrent one created the owner's row first (unique owner): the second run
   * finds that row and replaces it, as a later registration does.
   */
  private async onceMore<T>(register: () => Promise<T>): Promise<T> {
    try {
      return await register()
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error
      return register()
    }
  }

  private checkUrl(url: string): void {
    // Names are checked again, after DNS resolution, before each delivery (checkDeliveryTarget).
    checkTargetUrl(url, { allowPrivateTargets: this.config.network.allowPrivateTargets, field: 'webhookUrl' })
  }
}
