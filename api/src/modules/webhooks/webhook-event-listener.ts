import { injectable } from 'inversify'
import type { PlatformEvent, PlatformEventListener } from '../../infra/platform-events'
import { WebhooksRepository, type EventTargets } from './webhooks.repository'
import { WebhookDeliveriesRepository, type NewDelivery } from './webhook-deliveries.repository'
import { WebhookRelay } from './webhook-relay'
import type { WebhookEventData } from './webhook-request'

/**
 * Turns published platform events into deliveries, in the publisher's transaction: one per event and target (the
 * organization's registered webhook, its `notificationWebhook`, the tenant's webhook). A URL that is two of these
 * gets the event once, signed when the registered webhook has a secret. No HTTP here: the relay does that.
 */
@injectable()
export class WebhookEventListener implements PlatformEventListener {
  public constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly relay: WebhookRelay,
  ) {}

  public async onEvents(events: readonly PlatformEvent[]): Promise<void> {
    const rows: NewDelivery[] = []
    for (const event of events) {
      // Looked up once per owner and transaction (the repository remembers them for the transaction).
      const targets = await this.webhooks.targetsOf(event.orgId, event.tenantId)
      rows.push(...deliveriesOf(eventData(event), targets))
    }
    if (rows.length === 0) return
    await this.deliveries.add(rows)
    this.relay.expectCommit()
  }
}

/** The `data` of the delivered body. */
export function eventData(event: PlatformEvent): WebhookEventData {
  return {
    id: event.id,
    type: event.type,
    orgId: event.orgId,
    ...(event.tenantId === undefined ? {} : { tenantId: event.tenantId }),
    occurredAt: event.occurredAt,
    record: event.record,
  }
}

/** One delivery per distinct URL; registered webhooks first, so a shared URL keeps the signature. */
export function deliveriesOf(data: WebhookEventData, targets: EventTargets): NewDelivery[] {
  const byUrl = new Map<string, NewDelivery>()
  for (const webhook of targets.webhooks) {
    if (!byUrl.has(webhook.url))
      byUrl.set(webhook.url, { data, target: 'webhook', targetUrl: webhook.url, webhookId: webhook.id })
  }
  const notification = targets.notificationWebhook
  if (notification && !byUrl.has(notification)) {
    byUrl.set(notification, { data, target: 'notificationWebhook', targetUrl: notification, webhookId: null })
  }
  return [...byUrl.values()]
}
