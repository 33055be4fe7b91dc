import { Body, CurrentUser, HttpCode, Patch, Post } from 'routing-controllers'
import type { Principal } from '../../../infra/auth/token.service'
import { created, ok, type Envelope } from '../../../infra/http/envelope'
import { WalletController, WalletRoute } from '../wallet-route'
import { RegisterWebhookDto, UpdateWebhookDto } from '../../webhooks/dto/register-webhook.dto'
import { WEBHOOK_SCHEMA, type WebhookResponse } from '../../webhooks/dto/webhook.response'
import { BaseWalletService } from '../base-wallet.service'
import { ConfigureBaseWalletDto, CreateWalletDto } from '../dto/wallet.dto'
import {
  BASE_WALLET_SCHEMA,
  CLOUD_WALLET_SCHEMA,
  type BaseWalletResponse,
  type CloudWalletResponse,
} from '../dto/wallet.response'
import { CloudWalletsService } from './cloud-wallets.service'

/**
 * Spec: Cloud wallet: the base wallet (platform admin), the caller's own wallet and its webhook. Every route needs
 * a signed-in user (an organization client gets 403).
 */
@WalletController()
export class CloudWalletsController {
  public constructor(
    private readonly base: BaseWalletService,
    private readonly wallets: CloudWalletsService,
  ) {}

  @Post('/configure/base-wallet')
  @HttpCode(201)
  @WalletRoute(
    'Configure the multi-tenant agent that holds the cloud wallets. Platform admin only.',
    BASE_WALLET_SCHEMA,
    [403, 409, 502],
  )
  async configureBaseWallet(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: ConfigureBaseWalletDto,
  ): Promise<Envelope<BaseWalletResponse>> {
    return created(await this.base.configure(principal, body), 'Base wallet configured')
  }

  @Post('/create-wallet')
  @HttpCode(201)
  @WalletRoute("Create the caller's cloud wallet (one per user)", CLOUD_WALLET_SCHEMA, [403, 409, 502, 503])
  async createWallet(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: CreateWalletDto,
  ): Promise<Envelope<CloudWalletResponse>> {
    return created(await this.wallets.create(principal, body), 'Wallet created')
  }

  @Post('/webhooks/wallet/register')
  @HttpCode(201)
  @WalletRoute(
    "Register the webhook of the caller's cloud wallet (replaces an earlier one); read it with GET /webhooks/orgs/webhookurl?tenantId=",
    WEBHOOK_SCHEMA,
    [403, 404],
  )
  async registerWebhook(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: RegisterWebhookDto,
  ): Promise<Envelope<WebhookResponse>> {
    return created(await this.wallets.registerWebhook(principal, body), 'Webhook registered')
  }

  @Patch('/webhooks/wallet')
  @WalletRoute("Change the URL, secret or both of the caller's cloud-wallet webhook", WEBHOOK_SCHEMA, [403, 404])
  async updateWebhook(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: UpdateWebhookDto,
  ): Promise<Envelope<WebhookResponse>> {
    return ok(await this.wallets.updateWebhook(principal, body), 'Webhook updated')
  }
}
