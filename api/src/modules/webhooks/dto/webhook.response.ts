import { boolean, dateTime, integer, nullable, object, oneOf, string, uri, uuid } from '../../../infra/http/data-schema'
import type { Webhook } from '../webhook.entity'
import {
  DELIVERY_STATUSES,
  DELIVERY_TARGETS,
  type DeliveryStatus,
  type DeliveryTarget,
  type WebhookDelivery,
} from '../webhook-delivery.entity'

/** The webhook record (spec: "not shown"; docs/decisions.md, "Webhooks"). The secret is never returned. */
export interface WebhookResponse {
  id: string
  orgId: string | null
  tenantId: string | null
  webhookUrl: string
  hasSecret: boolean
  createdAt: string
  updatedAt: string
}

export function toWebhookResponse(webhook: Webhook): WebhookResponse {
  return {
    id: webhook.id,
    orgId: webhook.organization?.id ?? null,
    tenantId: webhook.tenantId ?? null,
    webhookUrl: webhook.url,
    hasSecret: webhook.sealedSecret !== null && webhook.sealedSecret !== undefined,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  }
}

/** An item of `GET /webhooks/orgs/:orgId/deliveries`. */
export interface DeliveryResponse {
  id: string
  eventId: string
  eventType: string
  target: DeliveryTarget
  targetUrl: string
  status: DeliveryStatus
  attempts: number
  lastResponseCode: number | null
  lastError: string | null
  occurredAt: string
  nextAttemptAt: string | null
  deliveredAt: string | null
  createdAt: string
  updatedAt: string
}

export function toDeliveryResponse(delivery: WebhookDelivery): DeliveryResponse {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    target: delivery.target,
    targetUrl: delivery.targetUrl,
    status: delivery.status,
    attempts: delivery.attempts,
    lastResponseCode: delivery.lastResponseCode ?? null,
    lastError: delivery.lastError ?? null,
    occurredAt: delivery.occurredAt.toISOString(),
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
  }
}

/** The answer of the ping extension: the event it published and how many deliveries it made. */
export interface PingResponse {
  eventId: string
  type: string
  occurredAt: string
}

export const WEBHOOK_SCHEMA = object<WebhookResponse>('Webhook', {
  id: uuid,
  orgId: nullable(uuid),
  tenantId: nullable(string),
  webhookUrl: uri,
  hasSecret: boolean,
  createdAt: dateTime,
  updatedAt: dateTime,
})

export const DELIVERY_SCHEMA = object<DeliveryResponse>('WebhookDelivery', {
  id: uuid,
  eventId: string,
  eventType: string,
  target: oneOf(DELIVERY_TARGETS),
  targetUrl: uri,
  status: oneOf(DELIVERY_STATUSES),
  attempts: integer,
  lastResponseCode: nullable(integer),
  lastError: nullable(string),
  occurredAt: dateTime,
  nextAttemptAt: nullable(dateTime),
  deliveredAt: nullable(dateTime),
  createdAt: dateTime,
  updatedAt: dateTime,
})

export const PING_SCHEMA = object<PingResponse>('WebhookPing', { eventId: string, type: string, occurredAt: dateTime })
