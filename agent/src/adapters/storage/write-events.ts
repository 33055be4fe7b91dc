/**
 * How a record write leaves an event for the platform in the same SQL statement (a transactional outbox): the
 * storage asks for a draft before the write, stores it with the write when the record's state changed, and
 * reports the outcome. agent/src/events implements it; the storage knows nothing of event kinds or delivery.
 */
export interface OutboxDraft {
  /** uuid of the event, minted once: every retry resends it, so the platform can drop duplicates. */
  id: string
  kind: string
  /** The event body as JSON text, holding the record exactly as written. */
  body: string
  /** What the event must stay in order with when it is sent (outbox-sender.ts, `eventOrderKey`). */
  orderKey?: string
}

/** The record being written, as the storage has it. */
export interface WrittenRecord {
  readonly type: string
  readonly id: string
}

export interface WriteEvents {
  /** The event a write of this record would announce, or undefined when writes of its type announce nothing. */
  draft(contextId: string, record: WrittenRecord, recordJson: string): OutboxDraft | undefined
  /** After the statement: `stored` tells whether the event row was committed with the write. */
  settled(draft: OutboxDraft, stored: boolean): void
}
