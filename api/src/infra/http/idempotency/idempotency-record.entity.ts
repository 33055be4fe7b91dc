import { randomUUID } from 'node:crypto'
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy'
import type { Opt } from '@mikro-orm/core'

export type IdempotencyState = 'pending' | 'done'

/**
 * The first answer to a creating POST sent with an `Idempotency-Key` (infra/http/idempotency/idempotency.ts), kept
 * so that a retry with the same key gets it again instead of acting twice. One row per key and scope (the
 * organization of the route, or the caller where the route has none); rows expire (IDEMPOTENCY_KEY_TTL_SECONDS).
 */
@Entity({ tableName: 'idempotency_keys' })
@Unique({ properties: ['scope', 'key'] })
@Index({ properties: ['expiresAt'] })
export class IdempotencyRecord {
  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID()

  /** `org:<orgId>`, or `user:<userId>` / `client:<clientId>` on routes without an organization. */
  @Property({ type: 'string', length: 100 })
  scope!: string

  @Property({ type: 'string', length: 255 })
  key!: string

  /** SHA-256 (hex) of the caller, method, path and body: the same key with another request is refused. */
  @Property({ type: 'string', length: 64 })
  fingerprint!: string

  @Property({ type: 'string', length: 10 })
  state: Opt<IdempotencyState> = 'pending'

  @Property({ type: 'integer', nullable: true })
  responseStatus?: number | null

  @Property({ type: 'json', nullable: true })
  responseBody?: unknown

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date()

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date
}
