import { injectable } from 'inversify'
import type { PlatformEvent, PlatformEventListener } from '../../infra/platform-events'
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository'
import { WebhookRelay } from './webhook-relay'
import type { WebhookEventData } from './webhook-request'

/**
 * Turns published platform events into deliveries, in the publisher's transaction: one per event and target (the
 * organization's registered webhook, its `notificationWebhook`, the tenant's webhook), looked up and stored by one
 * statement (WebhookDeliveriesRepository.addForEvents). A URL that is two of these gets the event once, signed when
 * the registered webhook has a secret. No HTTP here: the relay does that.
 */
@injectable()
export class WebhookEventListener implements PlatformEventListener {
  public constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly relay: WebhookRelay,
  ) {}

  public async onEvents(events: readonly PlatformEvent[]): Promise<void> {
    if ((await this.deliveries.addForEvents(events.map(eventData))) > 0) this.relay.expectCommit()
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
