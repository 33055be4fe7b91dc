import type { Logger } from '@idplane/common'

import { retryDelayMs } from './backoff'
import type { OutboxRepository, PendingEvent } from './outbox.repository'

const BATCH_SIZE = 20

export type DeliveryResult = 'delivered' | 'failed'

export interface OutboxSenderOptions {
  url: string
  token: string
  pollIntervalMs?: number
  requestTimeoutMs?: number
  onResult?: (result: DeliveryResult) => void
}

/**
 * Sends outbox events to the platform, at least once: an event is marked delivered only after a 2xx; any
 * other answer or a network error schedules a retry with exponential backoff. A crash between the POST and
 * the mark resends the same event with the same id, which the platform deduplicates.
 */
export class OutboxSender {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = false
  private nudged = false

  public constructor(
    private readonly outbox: OutboxRepository,
    private readonly options: OutboxSenderOptions,
    private readonly logger: Logger,
  ) {}

  public start(): void {
    this.stopped = false
    this.schedule(0)
  }

  /** Wakes the sender now (an event was just written) instead of at the next poll. */
  public nudge(): void {
    if (this.stopped) return
    // A nudge during a drain may come after its last read found nothing: drain once more when it ends.
    if (this.running) this.nudged = true
    else this.schedule(0)
  }

  public async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.running
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.nudged = false
      this.running = this.drain().finally(() => {
        this.running = undefined
        if (!this.stopped) this.schedule(this.nudged ? 0 : (this.options.pollIntervalMs ?? 1000))
      })
    }, delayMs)
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return
        const batch = await this.outbox.due(BATCH_SIZE)
        if (batch.length === 0) return
        const delivered = await Promise.all(batch.map((event) => this.deliver(event)))
        // One write marks the whole batch; a crash before it resends the batch (at least once, same ids).
        await this.outbox.markDelivered(batch.filter((_event, index) => delivered[index]).map((event) => event.id))
        // A short batch was everything due when it was read; whatever was written since nudged (`schedule` drains
        // again at once), and retries that fall due later are found by the next poll. Saves a read per drain.
        if (batch.length < BATCH_SIZE) return
      }
    } catch (error) {
      this.logger.warn('Outbox drain failed', { error })
    }
  }

  /** @returns whether the sink took the event */
  private async deliver(event: PendingEvent): Promise<boolean> {
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.token}` },
        body: JSON.stringify(event.body),
        signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 10000),
      })
      if (response.ok) {
        this.options.onResult?.('delivered')
        return true
      }
      await this.fail(event, `HTTP ${response.status}`)
    } catch (error) {
      await this.fail(event, error instanceof Error ? error.message : String(error))
    }
    return false
  }

  private async fail(event: PendingEvent, reason: string): Promise<void> {
    const delay = retryDelayMs(event.attempts + 1)
    await this.outbox.markFailed(event.id, delay, reason)
    this.options.onResult?.('failed')
    this.logger.warn('Event delivery failed', {
      eventId: event.id,
      attempts: event.attempts + 1,
      retryInMs: delay,
      reason,
    })
  }
}
