import { randomUUID } from 'node:crypto'

import type { OutboxDraft, WriteEvents, WrittenRecord } from '../adapters/storage/write-events'
import { tenantIdOfContext } from '../tenancy/tenant-session-coordinator'
import { eventBody } from '@idplane/common/agent-contract/events'

import { recordJsonForEvent } from '../openid4vc/openid4vc-events'
import { FORWARDED_RECORD_TYPES } from './event-mapper'
import { eventOrderKey } from './outbox/outbox-sender'

/** What the outbox needs of the sender: ids held while their statement runs, then sent or let go. */
export interface EventHandOff {
  reserve(id: string): void
  enqueue(event: { id: string; body: string; attempts: number; orderKey?: string }): void
  release(id: string): void
}

/**
 * The storage's WriteEvents for the platform's event contract: a draft for every write of a forwarded record type
 * (connection, credential, proof, basic message, question-answer), whose row the storage stores only when the
 * record is new or its state changed; committed events go straight to the sender. Without a sender (no
 * AGENT_EVENT_URL) nothing is drafted: no one would ever take the rows.
 */
export class StateChangeOutbox implements WriteEvents {
  public constructor(
    private readonly agentLabel: string,
    private readonly sender: EventHandOff,
    private readonly now: () => Date = () => new Date(),
    private readonly newId: () => string = randomUUID,
  ) {}

  public draft(contextId: string, record: WrittenRecord, recordJson: string): OutboxDraft | undefined {
    const { type } = record
    const kind = FORWARDED_RECORD_TYPES[type]
    if (!kind) return undefined
    const id = this.newId()
    const tenantId = tenantIdOfContext(contextId)
    const body = eventBody(
      {
        id,
        kind,
        agentLabel: this.agentLabel,
        ...(tenantId ? { tenantId } : {}),
        occurredAt: this.now().toISOString(),
      },
      recordJsonForEvent(type, recordJson),
    )
    this.sender.reserve(id)
    // From the record object rather than by parsing the body again when it is sent.
    const { connectionId } = record as { connectionId?: unknown }
    const orderKey = eventOrderKey(kind, tenantId, record.id, connectionId)
    return { id, kind, body, orderKey }
  }

  public settled(draft: OutboxDraft, stored: boolean): void {
    if (stored) this.sender.enqueue({ id: draft.id, body: draft.body, attempts: 0, orderKey: draft.orderKey })
    else this.sender.release(draft.id)
  }
}
