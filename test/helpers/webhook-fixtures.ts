import { EntityManager } from '@mikro-orm/postgresql'
import { ModuleRegistry } from '../../api/src/infra/module-registry'
import { platformEvent, type PlatformEvent } from '../../api/src/infra/platform-events'
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
