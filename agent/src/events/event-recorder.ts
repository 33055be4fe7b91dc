import type { Logger } from '@idplane/common'

import { type CredoEventLike, FORWARDED_EVENTS, toAgentEvent } from './event-mapper'
import type { OutboxRepository } from './outbox/outbox.repository'

export interface EventSource {
  on(type: string, listener: (event: CredoEventLike) => void): void
  off(type: string, listener: (event: CredoEventLike) => void): void
}

/**
 * Writes every forwarded state change to the outbox. Writes are chained so the outbox keeps the order in
 * which Credo emitted the events; `flush` waits for the chain (used at shutdown).
 */
export class EventRecorder {
  private chain: Promise<void> = Promise.resolve()
  private readonly listener = (event: CredoEventLike) => this.record(event)

  public constructor(
    private readonly events: EventSource,
    private readonly outbox: OutboxRepository,
    private readonly agentLabel: string,
    private readonly baseContextId: string,
    private readonly logger: Logger,
    private readonly onRecorded: () => void = () => undefined,
  ) {}

  public start(): void {
    for (const type of Object.keys(FORWARDED_EVENTS)) this.events.on(type, this.listener)
  }

  public async stop(): Promise<void> {
    for (const type of Object.keys(FORWARDED_EVENTS)) this.events.off(type, this.listener)
    await this.chain
  }

  private record(event: CredoEventLike): void {
    const body = toAgentEvent(event, this.agentLabel, this.baseContextId)
    if (!body) return
    this.chain = this.chain
      .then(() => this.outbox.add(body))
      .then(this.onRecorded)
      .catch((error: unknown) => this.logger.error('Could not write event to the outbox', { eventId: body.id, error }))
  }
}
