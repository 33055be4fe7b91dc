import { inject, injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { ForbiddenError, InvalidInputError, NotFoundError } from '@idplane/common'
import { isUuid } from '../../infra/auth/authorization'
import { OrgRoleLookup } from '../../infra/auth/org-role-lookup'
import type { Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { SecretBox } from '../../infra/crypto/secret-box'
import { checkTargetUrl } from '@idplane/common/net/delivery-target'
import { TOKENS } from '../../infra/tokens'
import type { Webhook } from './webhook.entity'
import { WebhooksRepository } from './webhooks.repository'

/** Roles that may read an organization's webhook URL (spec: Webhooks). */
export const WEBHOOK_READER_ROLES: readonly string[] = ['owner', 'admin', 'issuer', 'verifier']

/** Registration, reading and changing of webhooks; secrets are sealed with the row id as context. */
@injectable()
export class WebhooksService {
  public constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly box: SecretBox,
    private readonly roles: OrgRoleLookup,
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
   * user whose wallet the tenant is; anyone else gets 404, as for a tenant without one).
   * @throws InvalidInputError unless exactly one of orgId and tenantId is given, or for a malformed orgId
   * @throws ForbiddenError without a reader role in the organization
   * @throws NotFoundError when no webhook is registered
   */
  public async read(principal: Principal, query: { orgId?: string; tenantId?: string }): Promise<Webhook> {
    if ((query.orgId === undefined) === (query.tenantId === undefined)) {
      throw new InvalidInputError('Give either orgId or tenantId', [
        { field: 'orgId', message: 'exactly one of orgId and tenantId is required' },
      ])
    }
    if (query.orgId !== undefined) {
      if (!isUuid(query.orgId))
        throw new InvalidInputError('Invalid organization id', [{ field: 'orgId', message: 'orgId must be a UUID' }])
      const held = await this.roles.rolesOf(principal, query.orgId)
      if (!held.some((role) => WEBHOOK_READER_ROLES.includes(role))) {
        throw new ForbiddenError('You do not have the role this action needs in this organization')
      }
      const webhook = await this.webhooks.findForOrg(query.orgId)
      if (!webhook) throw new NotFoundError('No webhook is registered for this organization')
      return webhook
    }
    const webhook = await this.webhooks.findForTenant(query.tenantId ?? '')
    if (!webhook || principal.kind !== 'user' || webhook.ownerUserId !== principal.userId) {
      throw new NotFoundError('No webhook is registered for this tenant')
    }
    return webhook
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
