import { randomUUID } from 'node:crypto'

/**
 * An event of the platform: something happened to one of an organization's (or a cloud-wallet tenant's)
 * records. Modules publish them inside the transaction that changed the record; listeners (the webhooks module)
 * store what they need in that same transaction, so an event is never lost and never announced for a change
 * that was rolled back.
 */
export interface PlatformEvent {
  /** Unique; receivers deduplicate by it (delivery is at least once). */
  id: string
  /** `<family>.<what happened>`, for example `connection.state-changed` (docs/api-usage.md, "Events"). */
  type: string
  /** The organization the record belongs to; null for a cloud-wallet tenant's record. */
  orgId: string | null
  /** The cloud-wallet tenant the record belongs to. */
  tenantId?: string
  /** ISO 8601 instant of the change. */
  occurredAt: string
  /** The record as the API shows it in a single read. */
  record: Record<string, unknown>
}

/** Receives published events; called in the publisher's transaction, so it must not do slow work (no HTTP). */
export interface PlatformEventListener {
  onEvents(events: readonly PlatformEvent[]): Promise<void>
}

/** A new event with a fresh id and the current time. */
export function platformEvent(
  type: string,
  owner: { orgId: string | null; tenantId?: string },
  record: Record<string, unknown>,
): PlatformEvent {
  return {
    id: randomUUID(),
    type,
    orgId: owner.orgId,
    ...(owner.tenantId === undefined ? {} : { tenantId: owner.tenantId }),
    occurredAt: new Date().toISOString(),
    record,
  }
}
