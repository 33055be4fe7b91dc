import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { ModuleRegistry } from '../../api/src/infra/module-registry'
import { platformEvent, type PlatformEvent } from '../../api/src/infra/platform-events'
import type {
  NewDelivery,
  WebhookDeliveriesRepository,
} from '../../api/src/modules/webhooks/webhook-deliveries.repository'
import type { TestApi } from './api'

/** Short delivery settings for tests: 2 s timeout, 200 ms relay rounds. Add a retry schedule per test. */
export const FAST_WEBHOOK_ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RELAY_INTERVAL_MS: '200',
} as const

/** Publishes events the way a module does: through ModuleRegistry.publish inside one transaction. */
export async function publishEvents(
  api: TestApi,
  orgId: string,
  count: number,
  type = 'connection.state-changed',
): Promise<PlatformEvent[]> {
  const events = Array.from({ length: count }, (_, index) =>
    platformEvent(type, { orgId }, { id: `record-${index}`, state: 'completed', index }),
  )
  const em = api.runtime.container.get(EntityManager)
  await em.transactional(async () => {
    await api.runtime.container.get(ModuleRegistry).publish(events)
  })
  return events
}

/**
 * A new delivery to an organization's `notificationWebhook` (no organization or webhook row needed: `orgId` null, an
 * unreachable URL of its own); its owner is `tenantId` when given.
 */
export function aNewDelivery(tenantId?: string, eventId: string = randomUUID()): NewDelivery {
  return {
    data: {
      id: eventId,
      type: 'connection.state-changed',
      orgId: null,
      ...(tenantId === undefined ? {} : { tenantId }),
      occurredAt: new Date().toISOString(),
      record: {},
    },
    target: 'notificationWebhook',
    targetUrl: `http://127.0.0.1:9/${eventId}`,
    webhookId: null,
  }
}

/** Stores one pending delivery (aNewDelivery) through the repository; returns its event id. */
export async function aPendingDelivery(deliveries: WebhookDeliveriesRepository, tenantId?: string): Promise<string> {
  const delivery = aNewDelivery(tenantId)
  await deliveries.add([delivery])
  return delivery.data.id
}
