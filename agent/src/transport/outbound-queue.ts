import { randomUUID } from 'node:crypto'

import type { Logger } from '@idplane/common'

import type { SqlClient } from '../adapters/sql/sql-client'
import { retryDelayMs } from '../events/outbox/backoff'

export interface QueuedMessage {
  id: string
  endpoint: string
  /** The packed envelope as JSON text, sent again byte for byte (its encryption is for the recipient's keys). */
  payload: string
  attempts: number
}

/** Sends one queued envelope; throws when it could not be delivered (a network error, no answer). */
export type Deliver = (message: QueuedMessage) => Promise<void>

export interface OutboundQueueOptions {
  /** Attempts (the first, failed, one included) before a message is dropped. */
  maxAttempts: number
  /** How often the table is read for messages due again. @default 1000 ms */
  pollIntervalMs?: number
  /** Delay before attempt `n + 1` after `n` failed ones. @default exponential with full jitter, 5 minutes at most */
  delayMs?: (attempts: number) => number
  /** How long a message in its first attempt is left alone. @default FIRST_ATTEMPT_LEASE_MS */
  firstAttemptLeaseMs?: number
}

const BATCH_SIZE = 20
/** Rows of delivered messages deleted in one statement at most (also done at every poll). */
const DELETE_BATCH_SIZE = 200
const DEFAULT_POLL_INTERVAL_MS = 1000

/**
 * How long a message written with its first attempt waits before the queue may send it again: longer than an
 * attempt can take (SEND_TIMEOUT_MS of the transport, 15 s), so only a message whose attempt was cut (the process
 * killed) is sent again.
 */
export const FIRST_ATTEMPT_LEASE_MS = 30_000

/**
 * The durable outbound queue (issue 23 item 6, issue 28): every DIDComm message is written to the agent's own
 * database (`outbound_messages`) as its first attempt starts and deleted once the other agent took it. One whose
 * delivery failed on the network (the other agent down or restarting) is sent again with backoff, by this process
 * or, after a restart, the next one, until the other agent takes it or `maxAttempts` is reached; one whose first
 * attempt was cut by the process dying is sent again after FIRST_ATTEMPT_LEASE_MS. Credo has by then moved the
 * exchange on (`request-sent`): the message arriving late completes it, and an exchange whose message never arrives
 * ends by its timeout (credo/exchange-timeouts.ts). A message sent again that the other agent had already taken is
 * dropped there (transport/taken-envelopes.ts).
 */
export class OutboundQueue {
  private deliver: Deliver | undefined
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = true
  private readonly inFlight = new Set<string>()
  /** Delivered on their first attempt, not yet deleted (still in `inFlight`, so the poll leaves them alone). */
  private takenIds: string[] = []

  public constructor(
    private readonly sql: SqlClient,
    private readonly options: OutboundQueueOptions,
    private readonly logger: Logger,
  ) {}

  /** Starts sending what is due, with `deliver` (the transport's own send). */
  public start(deliver: Deliver): void {
    this.deliver = deliver
    this.stopped = false
    this.schedule(0)
  }

  public async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.running
    await this.deleteTaken()
  }

  /** Deletes the rows of messages delivered on their first attempt. */
  private async deleteTaken(): Promise<void> {
    const ids = this.takenIds
    if (ids.length === 0) return
    this.takenIds = []
    try {
      await this.sql.query('DELETE FROM outbound_messages WHERE id = ANY($1::uuid[])', [ids])
    } catch (error) {
      // Kept for the next batch; until then the poll leaves them alone.
      this.takenIds.push(...ids)
      throw error
    }
    for (const id of ids) this.inFlight.delete(id)
  }

  /**
   * Writes a message as its first attempt starts, so a process killed during the attempt does not lose it.
   * @returns its id, for `taken` or `failed`; undefined when messages get one attempt only (nothing to keep)
   */
  public async begin(endpoint: string, payload: string): Promise<string | undefined> {
    if (this.options.maxAttempts <= 1) return undefined
    const id = randomUUID()
    this.inFlight.add(id)
    try {
      await this.sql.query(
        `INSERT INTO outbound_messages (id, endpoint, payload, attempts, next_attempt_at)
         VALUES ($1, $2, $3, 0, now() + ($4::text || ' milliseconds')::interval)`,
        [id, endpoint, payload, String(this.options.firstAttemptLeaseMs ?? FIRST_ATTEMPT_LEASE_MS)],
      )
    } catch (error) {
      this.inFlight.delete(id)
      throw error
    }
    return id
  }

  /**
   * The first attempt delivered the message (or it may not be sent at all): forgotten. Rows are deleted a batch at a
   * time with the next poll (one statement for many messages); one left by a process that died before its batch is
   * sent again after the lease, and the receiver drops it as already taken (transport/taken-envelopes.ts).
   */
  public taken(id: string | undefined): void {
    if (id === undefined) return
    this.takenIds.push(id)
    if (this.takenIds.length >= DELETE_BATCH_SIZE)
      this.deleteTaken().catch((error: unknown) => this.logger.warn('Could not delete delivered messages', { error }))
  }

  /** The first attempt failed on the network: the next follows the backoff. */
  public async failed(id: string | undefined, endpoint: string, reason: string): Promise<void> {
    if (id === undefined) {
      this.logger.warn('Dropped an undeliverable DIDComm message', { endpoint, attempts: 1, reason })
      return
    }
    try {
      await this.sql.query(
        `UPDATE outbound_messages SET attempts = 1, last_error = $3,
         next_attempt_at = now() + ($2::text || ' milliseconds')::interval WHERE id = $1`,
        [id, String(Math.round(this.delayAfter(1))), reason.slice(0, 500)],
      )
    } finally {
      this.inFlight.delete(id)
    }
    this.logger.info('Queued a DIDComm message for another attempt', { endpoint, reason })
  }

  /** Messages not yet delivered (in their first attempt or waiting for another), for tests and metrics. */
  public async size(): Promise<number> {
    const { rows } = await this.sql.query<{ count: string }>(
      'SELECT count(*)::text AS count FROM outbound_messages WHERE NOT (id = ANY($1::uuid[]))',
      [this.takenIds],
    )
    return Number(rows[0]?.count ?? 0)
  }

  private delayAfter(attempts: number): number {
    return (this.options.delayMs ?? retryDelayMs)(attempts)
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .catch((error: unknown) => this.logger.warn('Outbound queue read failed', { error }))
        .finally(() => this.schedule(this.options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS))
    }, delayMs)
    this.timer.unref()
  }

  private async drain(): Promise<void> {
    await this.deleteTaken()
    const deliver = this.deliver
    if (!deliver) return
    const { rows } = await this.sql.query<QueuedMessage>(
      `SELECT id::text AS id, endpoint, payload, attempts FROM outbound_messages
       WHERE next_attempt_at <= now() AND NOT (id = ANY($2::uuid[])) ORDER BY seq LIMIT $1`,
      [BATCH_SIZE, [...this.inFlight]],
    )
    // Messages to different endpoints go in parallel; one slow receiver does not hold the others.
    await Promise.all(rows.map((message) => this.attempt(deliver, message)))
  }

  private async attempt(deliver: Deliver, message: QueuedMessage): Promise<void> {
    if (this.stopped) return
    this.inFlight.add(message.id)
    try {
      await deliver(message)
      await this.sql.query('DELETE FROM outbound_messages WHERE id = $1', [message.id])
      this.logger.info('Delivered a queued DIDComm message', {
        endpoint: message.endpoint,
        attempts: message.attempts + 1,
      })
    } catch (error) {
      const attempts = message.attempts + 1
      const reason = error instanceof Error ? error.message : String(error)
      if (attempts >= this.options.maxAttempts) {
        await this.sql.query('DELETE FROM outbound_messages WHERE id = $1', [message.id])
        this.logger.warn('Dropped an undeliverable DIDComm message', { endpoint: message.endpoint, attempts, reason })
        return
      }
      await this.sql.query(
        `UPDATE outbound_messages SET attempts = $2, last_error = $4,
         next_attempt_at = now() + ($3::text || ' milliseconds')::interval WHERE id = $1`,
        [message.id, attempts, String(Math.round(this.delayAfter(attempts))), reason.slice(0, 500)],
      )
    } finally {
      this.inFlight.delete(message.id)
    }
  }
}
