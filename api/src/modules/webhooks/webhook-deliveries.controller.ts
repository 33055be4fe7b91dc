import { injectable } from 'inversify'
import { Authorized, Get, HttpCode, JsonController, Param, Params, Post, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { pageOf } from '../../infra/http/data-schema'
import { toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { ORG_ROLES } from '../memberships/org-roles'
import { DeliveryPathParams, ListDeliveriesQuery } from './dto/register-webhook.dto'
import {
  DELIVERY_SCHEMA,
  PING_SCHEMA,
  toDeliveryResponse,
  type DeliveryResponse,
  type PingResponse,
} from './dto/webhook.response'
import type { DeliveryStatus } from './webhook-delivery.entity'
import { WebhookDeliveriesService } from './webhook-deliveries.service'

/** Extensions (docs/api-usage.md, "Webhooks"): the delivery log, replay, and a test event. */
@injectable()
@JsonController('/v1/webhooks/orgs/:orgId')
@OpenAPI({ tags: ['Webhooks'] })
export class WebhookDeliveriesController {
  public constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Get('/deliveries')
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: "Extension: the organization's webhook deliveries, newest first, paginated" })
  @ResponseData(pageOf(DELIVERY_SCHEMA))
  async list(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListDeliveriesQuery,
  ): Promise<Envelope<Page<DeliveryResponse>>> {
    const [deliveries, total] = await this.deliveries.list(orgId, {
      ...query,
      status: query.status as DeliveryStatus | undefined,
    })
    return ok(toPage(deliveries.map(toDeliveryResponse), total, query), 'Webhook deliveries fetched')
  }

  @Post('/deliveries/:deliveryId/replay')
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: 'Extension: deliver a delivered or dead delivery again (same id, attempts from zero)' })
  @ResponseData(DELIVERY_SCHEMA, { errors: [409] })
  async replay(@Params() params: DeliveryPathParams): Promise<Envelope<DeliveryResponse>> {
    return ok(toDeliveryResponse(await this.deliveries.replay(params.orgId, params.deliveryId)), 'Delivery re-queued')
  }

  @Post('/ping')
  @HttpCode(201)
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: "Extension: send a webhook.ping event to the organization's webhook and notificationWebhook" })
  @ResponseData(PING_SCHEMA)
  async ping(@Param('orgId') orgId: string): Promise<Envelope<PingResponse>> {
    const event = await this.deliveries.ping(orgId)
    return created({ eventId: event.id, type: event.type, occurredAt: event.occurredAt }, 'Ping event published')
  }
}
