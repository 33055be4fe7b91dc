import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { ModuleRegistry } from '../../api/src/infra/module-registry'
import { platformEvent, type PlatformEvent } from '../../api/src/infra/platform-events'
import type { WebhookDeliveriesRepository } from '../../api/src/modules/webhooks/webhook-deliveries.repository'
import type { WebhookEventData } from '../../api/src/modules/webhooks/webhook-request'
import type { TestApi } from './api'

/** Short delivery settings for tests: 2 s timeout, 200 ms relay rounds. Add a retry schedule per test. */
export const FAST_WEBHOOK_ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RELAY_INTERVAL_MS: '200',
} as const

/**
 * FAST_WEBHOOK_ENV with one delivery of an owner in flight at a time, for tests that assert the order deliveries
 * arrive in: they arrive in the order they were queued (at the default of 3, two in flight may arrive in either order;
 * docs/decisions.md, "Webhooks").
 */
export const ORDERED_WEBHOOK_ENV = { ...FAST_WEBHOOK_ENV, WEBHOOK_OWNER_CONCURRENCY: '1' } as const

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

/** The API's SQL connection (EntityManager.getConnection()). */
type Sql = ReturnType<EntityManager['getConnection']>

/** The URL of the tenants' webhooks registered here: nothing listens on port 9. */
const UNREACHABLE_HOOK = 'http://127.0.0.1:9/hook'

/** A cloud-wallet tenant's event (an owner without an organization), as the listener stores it. */
export function aTenantEvent(tenantId: string, eventId: string = randomUUID()): WebhookEventData {
  return {
    id: eventId,
    type: 'connection.state-changed',
    orgId: null,
    tenantId,
    occurredAt: new Date().toISOString(),
    record: {},
  }
}

/** Registers UNREACHABLE_HOOK as `tenantId`'s webhook unless it has one. */
export async function aTenantWebhook(sql: Sql, tenantId: string): Promise<void> {
  await sql.execute(
    `insert into webhooks (id, tenant_id, url, created_at, updated_at) values (?, ?, ?, now(), now())
     on conflict (tenant_id) do nothing`,
    [randomUUID(), tenantId, UNREACHABLE_HOOK],
  )
}

/**
 * Stores one pending delivery of a tenant's event the way published events are stored (addForEvents, in a
 * transaction), to the tenant's webhook (registered first when it has none); returns its event id.
 */
export async function aPendingDelivery(
  sql: Sql,
  deliveries: WebhookDeliveriesRepository,
  tenantId = `tenant-${randomUUID()}`,
): Promise<string> {
  await aTenantWebhook(sql, tenantId)
  const event = aTenantEvent(tenantId)
  await deliveries.transactional(() => deliveries.addForEvents([event]))
  return event.id
}
