import type { AnyEntity, EntityClass } from '@mikro-orm/core'
import type { ApiModule } from '../api-module'
import { entitiesOf } from '../module-registry'
import { MailOutboxEntry } from '../mail/mail-outbox.entity'
import { IdempotencyRecord } from '../http/idempotency/idempotency-record.entity'

/** Entities of the platform's own plumbing (infra/), persisted beside every module's. */
const INFRA_ENTITIES: EntityClass<AnyEntity>[] = [MailOutboxEntry, IdempotencyRecord]

/** Everything the API persists: infra's entities and each module's (listed so discovery never scans files). */
export function persistedEntities(modules: readonly ApiModule[]): EntityClass<AnyEntity>[] {
  return [...INFRA_ENTITIES, ...entitiesOf(modules)]
}
