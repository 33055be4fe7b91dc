import { createHmac } from 'node:crypto'

/** The `data` of a delivered body (docs/api-usage.md, "Webhooks"). */
export interface WebhookEventData {
  id: string
  type: string
  orgId: string | null
  tenantId?: string
  occurredAt: string
  record: Record<string, unknown>
}

/** Header with the unix time (seconds) the request was signed at. */
export const TIMESTAMP_HEADER = 'X-Timestamp'
/** Header with the hex HMAC-SHA256 of `<X-Timestamp>.<body>` under the webhook secret (only with a secret). */
export const SIGNATURE_HEADER = 'X-Signature'
/** Header naming the delivery (stable across retries and replays of one delivery). */
export const DELIVERY_ID_HEADER = 'X-Delivery-Id'

/** The body of one delivery, as sent: `{ webhookUrl, data }` (spec: Events 3). */
export function deliveryBody(webhookUrl: string, data: WebhookEventData): string {
  return JSON.stringify({ webhookUrl, data })
}

/** hex HMAC-SHA256 of `<timestamp>.<body>` under `secret`. */
export function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

/** The headers of one attempt: JSON, the timestamp, the delivery id and, with a secret, the signature. */
export function deliveryHeaders(
  body: string,
  options: { deliveryId: string; secret?: string; now?: Date },
): Record<string, string> {
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000)
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'idplane-webhooks',
    [TIMESTAMP_HEADER]: String(timestamp),
    [DELIVERY_ID_HEADER]: options.deliveryId,
    ...(options.secret === undefined ? {} : { [SIGNATURE_HEADER]: signature(options.secret, timestamp, body) }),
  }
}
