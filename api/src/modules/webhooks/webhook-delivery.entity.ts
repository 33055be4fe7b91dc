import { timeOrderedId } from '../../infra/db/time-ordered-id'
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy'
import type { Opt } from '@mikro-orm/core'
import { Organization } from '../orgs/organization.entity'
import { Webhook } from './webhook.entity'

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** Who a delivery goes to: the registered webhook (signed when it has a secret) or `notificationWebhook`. */
export const DELIVERY_TARGETS = ['webhook', 'notificationWebhook'] as const
export type DeliveryTarget = (typeof DELIVERY_TARGETS)[number]

/**
 * One event to POST to one target: written in the transaction that published the event (the truth that it must
 * be delivered), then claimed and sent by the outbox relay. See docs/decisions.md, "Webhooks".
 */
@Entity({ tableName: 'webhook_deliveries' })
@Unique({ properties: ['eventId', 'targetUrl'] })
@Index({ properties: ['status', 'nextAttemptAt'] })
// Only deliveries being attempted have a claim: the per-owner count of the claim reads this small index.
@Index({
  name: 'webhook_deliveries_claimed_index',
  expression:
    'create index "webhook_deliveries_claimed_index" on "webhook_deliveries" ("claimed_until") where "claimed_until" is not null',
})
@Index({ properties: ['organization', 'createdAt'] })
// Retention deletes finished deliveries by the time of their last attempt: this index holds only finished ones.
@Index({
  name: 'webhook_deliveries_finished_index',
  expression:
    'create index "webhook_deliveries_finished_index" on "webhook_deliveries" ("updated_at") where "status" <> \'pending\'',
})
export class WebhookDelivery {
  /** Time-ordered, so the deliveries of one insert (an event batch) are claimed in the order they were written. */
  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = timeOrderedId()

  @Property({ type: 'string', length: 200 })
  eventId!: string

  @Property({ type: 'string', length: 100 })
  eventType!: string

  @ManyToOne(() => Organization, { deleteRule: 'cascade', nullable: true })
  organization?: Organization | null

  @Property({ type: 'string', length: 200, nullable: true })
  tenantId?: string | null

  /** Set for deliveries to a registered webhook, whose current URL and secret are used at each attempt. */
  @ManyToOne(() => Webhook, { deleteRule: 'cascade', nullable: true })
  webhook?: Webhook | null

  @Property({ type: 'string', length: 30 })
  target!: DeliveryTarget

  /** The URL of the last attempt (at first the target's URL when the event happened). */
  @Property({ type: 'string', length: 2048 })
  targetUrl!: string

  /** The `data` of the body: { id, type, orgId, tenantId?, occurredAt, record }. */
  @Property({ type: 'json' })
  payload!: Record<string, unknown>

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  occurredAt!: Date

  @Property({ type: 'string', length: 10 })
  status: Opt<DeliveryStatus> = 'pending'

  /** Attempts started (a claim by a worker is one attempt, also when the worker died during it). */
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0

  /** When the next attempt is due: the relay claims pending deliveries in this order once it has passed. */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  nextAttemptAt: Opt<Date> = new Date()

  /** A worker holds the delivery until then (one attempt at a time). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  claimedUntil?: Date | null

  @Property({ type: 'uuid', nullable: true })
  claimToken?: string | null

  @Property({ type: 'integer', nullable: true })
  lastResponseCode?: number | null

  /** Why the last attempt failed (a status line or an error class and message), never the response body. */
  @Property({ type: 'text', nullable: true })
  lastError?: string | null

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  deliveredAt?: Date | null

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date()

  @Property({ type: 'datetime', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date()
}
