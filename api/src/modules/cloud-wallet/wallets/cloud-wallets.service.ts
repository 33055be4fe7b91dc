import { injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { ConflictError, Logger } from '@idplane/common'
import type { Principal } from '../../../infra/auth/token.service'
import type { RegisterWebhookDto, UpdateWebhookDto } from '../../webhooks/dto/register-webhook.dto'
import { toWebhookResponse, type WebhookResponse } from '../../webhooks/dto/webhook.response'
import { WebhooksService } from '../../webhooks/webhooks.service'
import { BaseWalletService } from '../base-wallet.service'
import { CloudWalletsRepository } from '../cloud-wallets.repository'
import type { CreateWalletDto } from '../dto/wallet.dto'
import { toCloudWalletResponse, type CloudWalletResponse } from '../dto/wallet.response'
import { WalletAccess, asUser } from '../wallet-access'

/** The holder's cloud wallet itself (spec: Cloud wallet): one tenant of the base agent per user, and its webhook. */
@injectable()
export class CloudWalletsService {
  private readonly log: Logger

  public constructor(
    private readonly base: BaseWalletService,
    private readonly wallets: CloudWalletsRepository,
    private readonly access: WalletAccess,
    private readonly webhooks: WebhooksService,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'cloud-wallet' })
  }

  /**
   * @throws ForbiddenError for an organization's client (wallets are people's)
   * @throws InvalidStateError (409) while no base wallet is configured
   * @throws ConflictError when the user already has a wallet
   */
  public async create(principal: Principal, body: CreateWalletDto): Promise<CloudWalletResponse> {
    const user = asUser(principal)
    const base = await this.base.client()
    if (await this.wallets.findForUser(user.userId)) throw alreadyHasWallet()
    const tenant = await base.createTenant({
      label: body.label.trim(),
      ...(body.connectionImageUrl ? { connectionImageUrl: body.connectionImageUrl } : {}),
    })
    try {
      const wallet = await this.wallets.create({
        userId: user.userId,
        email: user.email,
        tenantId: tenant.id,
        label: body.label.trim(),
        connectionImageUrl: body.connectionImageUrl,
      })
      return toCloudWalletResponse(wallet)
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error
      // A concurrent create of the same user won: the tenant made here holds nothing and is removed.
      await base.deleteTenant(tenant.id).catch((cause: unknown) =>
        this.log.warn('Could not delete the tenant of a losing wallet create', {
          tenantId: tenant.id,
          error: (cause as Error).message,
        }),
      )
      throw alreadyHasWallet()
    }
  }

  /**
   * Registers (or replaces) the webhook of the caller's wallet: the wallet's exchange events are delivered to it.
   * @throws NotFoundError when the caller has no wallet
   */
  public async registerWebhook(principal: Principal, body: RegisterWebhookDto): Promise<WebhookResponse> {
    const { user, wallet } = await this.access.ownWallet(principal)
    return toWebhookResponse(await this.webhooks.registerForTenant(wallet.tenantId, user.userId, body))
  }

  /**
   * Changes the URL, the secret or both of the caller's wallet webhook.
   * @throws NotFoundError when the caller has no wallet, or no webhook
   */
  public async updateWebhook(principal: Principal, body: UpdateWebhookDto): Promise<WebhookResponse> {
    const { wallet } = await this.access.ownWallet(principal)
    return toWebhookResponse(await this.webhooks.updateForTenant(wallet.tenantId, body))
  }
}

function alreadyHasWallet(): ConflictError {
  return new ConflictError('You already have a cloud wallet')
}
