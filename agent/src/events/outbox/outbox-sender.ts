import type { Logger } from '@idplane/common'
import { batchBody } from '@idplane/common/agent-contract/events'

import { httpPost } from '../../transport/http-request'
import { retryDelayMs } from './backoff'
import type { OutboxRepository, PendingEvent } from './outbox.repository'

const BATCH_SIZE = 20
/**
 * Requests in flight at once. One at a time, a backlog (100 exchanges at once) waited behind each request's round trip
 * and the platform's transaction for it; several overlap those (docs/benchmarks.md, "The organization event path").
 */
const MAX_BATCHES_IN_FLIGHT = 4

export type DeliveryResult = 'delivered' | 'failed'

export interface OutboxSenderOptions {
  url: string
  token: string
  /** How often the outbox table is read for events due again (retries, and what a previous run left). */
  pollIntervalMs?: number
  requestTimeoutMs?: number
  onResult?: (result: DeliveryResult) => void
}

/**
 * Sends outbox events to the platform, at least once, in batches of up to 20 per request: an event's row is deleted
 * only after a 2xx; any other answer or a network error schedules a retry with exponential backoff. A crash between the POST and the delete
 * resends the same event with the same id, which the platform deduplicates.
 *
 * Events this process writes are handed over in memory as their statement commits (`reserve`, then `enqueue` or
 * `release`), so a fresh event costs no read. The table is read at start and every poll interval for the rest:
 * retries that fell due and events a killed process left behind. Ids held in memory are left out of those reads,
 * so an event is never in flight twice.
 */
export class OutboxSender {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = true
  private nudged = false
  private pollDue = true
  /** Events to send now, in commit order. */
  private readonly queue: PendingEvent[] = []
  /** Ids this process holds: reserved (statement running), queued or in flight. */
  private readonly held = new Set<string>()

  public constructor(
    private readonly outbox: OutboxRepository,
    private readonly options: OutboxSenderOptions,
    private readonly logger: Logger,
  ) {}

  public start(): void {
    this.stopped = false
    this.pollDue = true
    this.schedule(0)
  }

  /** An event row is about to be written: keep table reads from taking it before it is enqueued. */
  public reserve(id: string): void {
    this.held.add(id)
  }

  /** The event's row committed: send it. */
  public enqueue(event: PendingEvent): void {
    this.held.add(event.id)
    this.queue.push(event)
    this.nudge()
  }

  /** The reserved event's row was not written. */
  public release(id: string): void {
    this.held.delete(id)
  }

  public async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.running
  }

  /** Wakes the sender now instead of at the next poll. */
  private nudge(): void {
    if (this.stopped) return
    // A nudge during a drain may come after the drain took its last batch: drain once more when it ends.
    if (this.running) this.nudged = true
    else this.schedule(0)
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      if (delayMs > 0) this.pollDue = true
      this.nudged = false
      this.running = this.drain().finally(() => {
        this.running = undefined
        if (!this.stopped) this.schedule(this.nudged ? 0 : (this.options.pollIntervalMs ?? 1000))
      })
    }, delayMs)
  }

  /**
   * Sends until nothing is left, up to MAX_BATCHES_IN_FLIGHT requests at a time. The events of a connection (or of a
   * record without one) stay in commit order: a batch takes no event whose key (orderKeyOf) a request in flight
   * carries, nor any after one it left.
   */
  private async drain(): Promise<void> {
    const inFlight = new Set<Promise<void>>()
    const keysInFlight = new Set<string>()
    try {
      for (;;) {
        if (this.stopped) break
        if (this.queue.length === 0 && this.pollDue) await this.readDue()
        const batch = this.takeBatch(keysInFlight)
        if (batch.length === 0) {
          if (inFlight.size === 0) break
          await Promise.race(inFlight)
          continue
        }
        const keys = new Set(batch.map(orderKeyOf))
        for (const key of keys) keysInFlight.add(key)
        const sending: Promise<void> = this.send(batch).finally(() => {
          inFlight.delete(sending)
          for (const key of keys) keysInFlight.delete(key)
        })
        inFlight.add(sending)
        if (inFlight.size >= MAX_BATCHES_IN_FLIGHT) await Promise.race(inFlight)
      }
    } catch (error) {
      this.logger.warn('Outbox drain failed', { error })
      this.pollDue = true
    }
    await Promise.all(inFlight)
  }

  /** Up to BATCH_SIZE queued events, in commit order, whose keys no request in flight carries. */
  private takeBatch(keysInFlight: ReadonlySet<string>): PendingEvent[] {
    const batch: PendingEvent[] = []
    const left: PendingEvent[] = []
    const waiting = new Set(keysInFlight)
    for (const event of this.queue) {
      const key = orderKeyOf(event)
      if (batch.length < BATCH_SIZE && !waiting.has(key)) batch.push(event)
      else {
        left.push(event)
        waiting.add(key)
      }
    }
    // Not splice(..., ...left): a long backlog would overflow the call's arguments.
    this.queue.length = 0
    for (const event of left) this.queue.push(event)
    return batch
  }

  private async send(batch: PendingEvent[]): Promise<void> {
    try {
      const delivered = await this.deliverBatch(batch)
      // One statement for the whole batch; a crash before it resends the batch (at least once, same ids).
      const ids = batch.filter((_event, index) => delivered[index]).map((event) => event.id)
      await this.outbox.delivered(ids)
      for (const id of ids) this.held.delete(id)
    } catch (error) {
      this.logger.warn('Outbox drain failed', { error })
      // The batch's rows are still in the table: the next poll takes them again.
      for (const event of batch) this.held.delete(event.id)
      this.pollDue = true
    }
  }

  private async readDue(): Promise<void> {
    const due = await this.outbox.due(BATCH_SIZE, [...this.held])
    // A full batch may leave more behind: read again once it is sent.
    this.pollDue = due.length === BATCH_SIZE
    for (const event of due) {
      this.held.add(event.id)
      this.queue.push(event)
    }
  }

  /**
   * POSTs the batch as one `{ "events": [...] }` request (the bodies spliced in as written). A 400 for a batch of several
   * means one of them is refused: each is then sent alone, so the refused one does not hold the others back.
   * @returns per event, whether the sink took it
   */
  private async deliverBatch(batch: readonly PendingEvent[]): Promise<boolean[]> {
    if (batch.length === 1) return [await this.deliver(batch[0])]
    const body = batchBody(batch.map((event) => event.body))
    const outcome = await this.post(body)
    if (outcome === 'delivered') {
      for (let index = 0; index < batch.length; index++) this.options.onResult?.('delivered')
      return batch.map(() => true)
    }
    if (outcome === 'HTTP 400') return Promise.all(batch.map((event) => this.deliver(event)))
    await Promise.all(batch.map((event) => this.fail(event, outcome)))
    return batch.map(() => false)
  }

  /** @returns whether the sink took the event */
  private async deliver(event: PendingEvent): Promise<boolean> {
    const outcome = await this.post(event.body)
    if (outcome === 'delivered') {
      this.options.onResult?.('delivered')
      return true
    }
    await this.fail(event, outcome)
    return false
  }

  /** @returns 'delivered' for a 2xx, otherwise why not */
  private async post(body: string): Promise<string> {
    try {
      const { status } = await httpPost(
        this.options.url,
        body,
        { 'content-type': 'application/json', authorization: `Bearer ${this.options.token}` },
        this.options.requestTimeoutMs ?? 10000,
      )
      return status >= 200 && status < 300 ? 'delivered' : `HTTP ${status}`
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }

  /** Hands the event back to the table, due again after the backoff delay. */
  private async fail(event: PendingEvent, reason: string): Promise<void> {
    const delay = retryDelayMs(event.attempts + 1)
    try {
      await this.outbox.markFailed(event.id, delay, reason)
    } finally {
      this.held.delete(event.id)
    }
    this.options.onResult?.('failed')
    this.logger.warn('Event delivery failed', {
      eventId: event.id,
      attempts: event.attempts + 1,
      retryInMs: delay,
      reason,
    })
  }
}

/**
 * What an event must stay in order with: its connection (a connection's own events and those of the credentials,
 * proofs and messages exchanged over it, so the platform never learns of an offer before the connection it went
 * over), else its record (kind, tenant, id).
 */
export function eventOrderKey(
  kind: unknown,
  tenantId: unknown,
  recordId: unknown,
  connectionId: unknown,
): string | undefined {
  const tenant = typeof tenantId === 'string' ? tenantId : ''
  if (kind === 'connection' && typeof recordId === 'string') return `connection|${tenant}|${recordId}`
  if (typeof connectionId === 'string') return `connection|${tenant}|${connectionId}`
  if (typeof recordId === 'string') return `${String(kind)}|${tenant}|${recordId}`
  return undefined
}

/**
 * An event's order key: the one its producer gave it, else (a row read from the table: a retry, or what a killed
 * process left) read from its body, once; the event's own id when the body cannot be read.
 */
const orderKeys = new WeakMap<PendingEvent, string>()
function orderKeyOf(event: PendingEvent): string {
  if (event.orderKey !== undefined) return event.orderKey
  let key = orderKeys.get(event)
  if (key === undefined) {
    try {
      const body = JSON.parse(event.body) as {
        kind?: unknown
        tenantId?: unknown
        record?: { id?: unknown; connectionId?: unknown }
      }
      key = eventOrderKey(body.kind, body.tenantId, body.record?.id, body.record?.connectionId)
    } catch {
      // An unreadable body keeps its own key: it goes out, and the platform refuses it alone.
    }
    key ??= event.id
    orderKeys.set(event, key)
  }
  return key
}
