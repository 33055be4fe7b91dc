/**
 * The platform's work queue: webhook deliveries, outbound mail and bulk jobs go through it (DESIGN.md,
 * "Events and webhooks"). Two implementations share these semantics: AmqpQueue (RabbitMQ, `AMQP_URL` set)
 * and InProcessQueue (embedded mode, files under the data directory). See docs/queue-and-mail.md.
 *
 * Delivery is at least once: a handler may see a message again (after a crash, a lost connection or a
 * retry), so handlers must be idempotent; `message.id` is stable across redeliveries and retries.
 */
export interface QueueMessage<T = unknown> {
  /** Stable across redeliveries and retries; the publisher may choose it (for deduplication). */
  id: string
  queue: string
  payload: T
  /** 1 on the first delivery, incremented each time a failed handler sends the message to a retry. */
  attempt: number
  /** The publisher's headers; dead letters also carry `x-death-reason` and `x-dead-lettered-at`. */
  headers: Record<string, string>
}

export type QueueHandler<T = unknown> = (message: QueueMessage<T>) => Promise<void>

export interface ConsumeOptions {
  /** Handlers running at once for this consumer. @default 10 */
  prefetch?: number
  /** Deliveries (first one included) before a failing message goes to `<queue>.dead`. @default 6 */
  maxAttempts?: number
  /**
   * Delay before retry n (index n - 1); the last value repeats when the list is shorter than the attempts.
   * @default DEFAULT_RETRY_DELAYS_MS (1 s, 5 s, 25 s, 2 min, 10 min)
   */
  retryDelaysMs?: number[]
}

/** Exponential (x5) retry schedule: 1 s, 5 s, 25 s, 2 min, 10 min. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 25_000, 120_000, 600_000]
/** One first delivery plus one retry per default delay. */
export const DEFAULT_MAX_ATTEMPTS = DEFAULT_RETRY_DELAYS_MS.length + 1
export const DEFAULT_PREFETCH = 10

/** Suffix of the queue that keeps messages whose handler failed `maxAttempts` times. */
export const DEAD_LETTER_SUFFIX = '.dead'
/** Header set on dead letters: the last handler error (its message only). */
export const DEATH_REASON_HEADER = 'x-death-reason'
/** Header set on dead letters: ISO time the message was dead-lettered. */
export const DEAD_LETTERED_AT_HEADER = 'x-dead-lettered-at'

export abstract class Queue {
  /**
   * Connects (AMQP) or loads pending messages (in-process). Idempotent.
   * @throws UpstreamError when the broker cannot be reached or the data directory cannot be read
   */
  public abstract start(): Promise<void>

  /**
   * Persists a message. Resolves only once it is safe (broker publisher confirm, or the file written),
   * with the message id (`options.id` or a generated uuid).
   * @throws UpstreamError when the message could not be persisted within the publish bound
   */
  public abstract publish<T>(
    queue: string,
    payload: T,
    options?: { id?: string; headers?: Record<string, string> },
  ): Promise<string>

  /** Starts a consumer. A rejected handler sends the message to a delayed retry, then to `<queue>.dead`. */
  public abstract consume<T>(queue: string, handler: QueueHandler<T>, options?: ConsumeOptions): Promise<void>

  /** For /health/ready: connected (AMQP) or started and not closed (in-process). */
  public abstract isHealthy(): Promise<boolean>

  /** Stops consuming, waits for in-flight handlers (bounded), then releases connections and timers. */
  public abstract close(): Promise<void>

  /** Reads up to `limit` dead letters of `queue` (oldest first) without removing them. */
  public abstract deadLetters(queue: string, limit?: number): Promise<QueueMessage[]>
}
