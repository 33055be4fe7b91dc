import { IsIn, IsOptional, IsString, IsUrl, IsUUID, MaxLength, MinLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'
import { DELIVERY_STATUSES } from '../webhook-delivery.entity'

/** Spec: Limits, `webhookSecret` at least 16 characters. */
export const MIN_WEBHOOK_SECRET_LENGTH = 16
const MAX_WEBHOOK_SECRET_LENGTH = 256

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false }

/** Body of `POST /v1/webhooks/orgs/:orgId/register`. */
export class RegisterWebhookDto {
  @IsString()
  @IsUrl(URL_OPTIONS, { message: 'webhookUrl must be an absolute http(s) URL' })
  @MaxLength(2048)
  webhookUrl: string

  @IsOptional()
  @IsString()
  @MinLength(MIN_WEBHOOK_SECRET_LENGTH)
  @MaxLength(MAX_WEBHOOK_SECRET_LENGTH)
  webhookSecret?: string
}

/** Body of `PATCH /v1/webhooks/orgs/:orgId`: either field or both. */
export class UpdateWebhookDto {
  @IsOptional()
  @IsString()
  @IsUrl(URL_OPTIONS, { message: 'webhookUrl must be an absolute http(s) URL' })
  @MaxLength(2048)
  webhookUrl?: string

  @IsOptional()
  @IsString()
  @MinLength(MIN_WEBHOOK_SECRET_LENGTH)
  @MaxLength(MAX_WEBHOOK_SECRET_LENGTH)
  webhookSecret?: string
}

/** Query of `GET /v1/webhooks/orgs/webhookurl`: at most one of the two (checked by the service). */
export class WebhookUrlQuery {
  @IsOptional()
  @IsString()
  orgId?: string

  @IsOptional()
  @IsUUID()
  tenantId?: string
}

/** Query of `GET /v1/webhooks/orgs/:orgId/deliveries`. */
export class ListDeliveriesQuery extends PageQuery {
  // Declared `string`: a type alias gives no run-time type, and routing-controllers would parse the value as JSON.
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: string
}

/** Path of `POST /v1/webhooks/orgs/:orgId/deliveries/:deliveryId/replay` (`orgId` is checked by `@Authorized`). */
export class DeliveryPathParams {
  @IsString()
  orgId: string

  @IsUUID()
  deliveryId: string
}
