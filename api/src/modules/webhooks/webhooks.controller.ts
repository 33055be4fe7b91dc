import { injectable } from 'inversify'
import {
  Authorized,
  Body,
  CurrentUser,
  Get,
  HttpCode,
  JsonController,
  Param,
  Patch,
  Post,
  QueryParams,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { Principal } from '../../infra/auth/token.service'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { ResponseData } from '../../infra/http/response-doc'
import { ORG_ROLES } from '../memberships/org-roles'
import { RegisterWebhookDto, UpdateWebhookDto, WebhookUrlQuery } from './dto/register-webhook.dto'
import { WEBHOOK_SCHEMA, toWebhookResponse, type WebhookResponse } from './dto/webhook.response'
import { WebhooksService } from './webhooks.service'

/**
 * Webhooks (spec: Webhooks) under `/v1` like the rest of the interface; the unversioned `/webhooks/orgs/...` paths
 * are deprecated aliases (webhooks.module.ts, `deprecatedAliases`).
 */
@injectable()
@JsonController('/v1/webhooks/orgs')
@OpenAPI({ tags: ['Webhooks'] })
export class WebhooksController {
  public constructor(private readonly webhooks: WebhooksService) {}

  @Post('/:orgId/register')
  @HttpCode(201)
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: "Register the organization's webhook (replaces an earlier one); the secret is never returned" })
  @ResponseData(WEBHOOK_SCHEMA)
  async register(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: RegisterWebhookDto,
  ): Promise<Envelope<WebhookResponse>> {
    return created(toWebhookResponse(await this.webhooks.registerForOrg(orgId, body)), 'Webhook registered')
  }

  @Get('/webhookurl')
  @Authorized()
  @OpenAPI({
    summary:
      "The registered webhook of an organization (orgId: owner, admin, issuer, verifier) or of the caller's cloud-wallet tenant (tenantId); with neither, the caller's own organization or wallet when it has only one, else 400",
  })
  @ResponseData(WEBHOOK_SCHEMA)
  async read(
    @CurrentUser() principal: Principal,
    @QueryParams() query: WebhookUrlQuery,
  ): Promise<Envelope<WebhookResponse>> {
    return ok(toWebhookResponse(await this.webhooks.read(principal, query)), 'Webhook URL fetched')
  }

  @Patch('/:orgId')
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: "Change the organization's webhook URL, secret or both" })
  @ResponseData(WEBHOOK_SCHEMA)
  async update(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: UpdateWebhookDto,
  ): Promise<Envelope<WebhookResponse>> {
    return ok(toWebhookResponse(await this.webhooks.updateForOrg(orgId, body)), 'Webhook updated')
  }
}
