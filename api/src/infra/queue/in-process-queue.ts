import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { injectable } from 'inversify'
import { Registry } from 'prom-client'
import { ConflictError, InvalidInputError, InvalidStateError, Logger, UpstreamError } from '@idplane/common'
import { waitAll } from './async-utils'
import { FileMessageStore, StoredEntry } from './file-message-store'
import { ConsumeOptions, Queue, QueueHandler, QueueMessage } from './queue'
import { QueueMetrics } from './queue-metrics'
import {
  RetryPolicy,
  assertQueueName,
  deadLetterHeaders,
  describeFailure,
  failureOutcome,
  toRetryPolicy,
} from './retry-policy'

/** How long close() waits for running handlers before it returns anyway. @default 30 s */
export const DEFAULT_CLOSE_TIMEOUT_MS = 30_000

export interface InProcessQueueOptions {
  /** Messages live under `<dataDir>/queue/`. One process owns a data directory (embedded mode). */
  dataDir: string
  logger: Logger
  registry: Registry
  /** @default DEFAULT_CLOSE_TIMEOUT_MS */
  closeTimeoutMs?: number
}

interface Pending extends StoredEntry {
  isInFlight: boolean
}

interface Consumer {
  handler: QueueHandler<unknown>
  policy: RetryPolicy
  active: number
  timer?: NodeJS.Timeout
}

/**
 * Embedded-mode queue (AMQP_URL unset) with AmqpQueue's semantics, durable across restarts: publish
 * resolves after the message file is written atomically, ack removes it, and start() redelivers every
 * file left by a previous process. Retries rewrite the file with a later `availableAt`; after
 * `maxAttempts` the file moves to `<queue>.dead/`. Not for several processes on one data directory.
 */
@injectable()
export class InProcessQueue extends Queue {
  private readonly store: FileMessageStore
  private readonly logger: Logger
  private readonly metrics: QueueMetrics
  private readonly closeTimeoutMs: number
  private readonly pending = new Map<string, Map<string, Pending>>()
  private readonly consumers = new Map<string, Consumer>()
  private readonly running = new Set<Promise<void>>()
  private starting?: Promise<void>
  private state: 'new' | 'started' | 'closing' | 'closed' = 'new'

  public constructor(options: InProcessQueueOptions) {
    super()
    this.logger = options.logger.child({ component: 'in-process-queue' })
    this.store = new FileMessageStore(path.join(options.dataDir, 'queue'), this.logger)
    this.metrics = new QueueMetrics(options.registry)
    this.closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS
  }

  public start(): Promise<void> {
    this.starting ??= this.load().catch((error: unknown) => {
      this.starting = undefined
      if (error instanceof ConflictError) throw error
      throw new UpstreamError('Could not read the queue data directory', { cause: error })
    })
    return this.starting
  }

  public async publish<T>(
    queue: string,
    payload: T,
    options: { id?: string; headers?: Record<string, string> } = {},
  ): Promise<string> {
    assertQueueName(queue)
    this.assertOpen()
    const id = options.id ?? randomUUID()
    const now = Date.now()
    const entry: Pending = {
      file: this.store.nextFileName(),
      // The JSON round trip gives handlers what AmqpQueue gives them, and detaches the caller's object.
      message: {
        id,
        queue,
        payload: jsonCopy(payload),
        attempt: 1,
        headers: { ...options.headers },
        availableAt: now,
        publishedAt: new Date(now).toISOString(),
      },
      isInFlight: false,
    }
    try {
      await this.store.write(entry)
    } catch (error) {
      this.metrics.count(queue, 'publish_failed')
      throw new UpstreamError('Could not persist the queue message', { cause: error })
    }
    this.pendingOf(queue).set(entry.file, entry)
    this.metrics.count(queue, 'published')
    this.dispatch(queue)
    return id
  }

  public async consume<T>(queue: string, handler: QueueHandler<T>, options?: ConsumeOptions): Promise<void> {
    assertQueueName(queue)
    const policy = toRetryPolicy(options)
    this.assertOpen()
    if (this.consumers.has(queue)) throw new InvalidStateError(`Already consuming queue ${queue}`)
    this.consumers.set(queue, { handler: handler as QueueHandler<unknown>, policy, active: 0 })
    this.logger.info('Started queue consumer', { queue, prefetch: policy.prefetch, maxAttempts: policy.maxAttempts })
    this.dispatch(queue)
  }

  public async isHealthy(): Promise<boolean> {
    return this.state === 'started'
  }

  public async close(): Promise<void> {
    if (this.state === 'closed' || this.state === 'closing') return
    this.state = 'closing'
    for (const consumer of this.consumers.values()) clearTimeout(consumer.timer)
    const isDrained = await waitAll(this.running, this.closeTimeoutMs)
    if (!isDrained) {
      this.logger.warn('Closed queue with handlers still running', {
        handlers: this.running.size,
        timeoutMs: this.closeTimeoutMs,
      })
    }
    this.consumers.clear()
    await this.store
      .unlock()
      .catch((error: unknown) => this.logger.warn('Failed to remove the queue lock file', { error }))
    this.state = 'closed'
  }

  public async deadLetters(queue: string, limit = 100): Promise<QueueMessage[]> {
    assertQueueName(queue)
    const entries = await this.store.readQueue(`${queue}.dead`, limit)
    return entries.map((entry) => toQueueMessage(entry))
  }

  private async load(): Promise<void> {
    await this.store.lock()
    let loaded
    try {
      loaded = await this.store.loadPending()
    } catch (error) {
      await this.store.unlock()
      throw error
    }
    let count = 0
    for (const [queue, entries] of loaded) {
      const map = this.pendingOf(queue)
      for (const entry of entries) {
        // A pending retry keeps its `availableAt`: the backoff outlives a restart.
        map.set(entry.file, { ...entry, isInFlight: false })
        count++
      }
    }
    this.state = 'started'
    this.logger.info('Started in-process queue', { pendingMessages: count })
    for (const queue of this.consumers.keys()) this.dispatch(queue)
  }

  /** Starts as many due messages as the consumer's prefetch allows and arms a timer for the next one. */
  private dispatch(queue: string): void {
    const consumer = this.consumers.get(queue)
    if (!consumer || this.state !== 'started') return
    clearTimeout(consumer.timer)
    consumer.timer = undefined
    const waiting = [...this.pendingOf(queue).values()]
      .filter((entry) => !entry.isInFlight)
      .sort((a, b) => a.message.availableAt - b.message.availableAt || a.file.localeCompare(b.file))
    const now = Date.now()
    for (const entry of waiting) {
      if (consumer.active >= consumer.policy.prefetch) return
      if (entry.message.availableAt > now) {
        consumer.timer = setTimeout(() => this.dispatch(queue), entry.message.availableAt - now)
        consumer.timer.unref()
        return
      }
      this.run(queue, consumer, entry)
    }
  }

  private run(queue: string, consumer: Consumer, entry: Pending): void {
    entry.isInFlight = true
    consumer.active++
    const task = this.deliver(queue, consumer, entry).finally(() => {
      consumer.active--
      entry.isInFlight = false
      this.running.delete(task)
      this.dispatch(queue)
    })
    this.running.add(task)
  }

  private async deliver(queue: string, consumer: Consumer, entry: Pending): Promise<void> {
    const endTimer = this.metrics.timeHandler(queue)
    try {
      await consumer.handler(toQueueMessage(entry))
      endTimer('ok')
    } catch (error) {
      endTimer('error')
      await this.fail(queue, consumer.policy, entry, error)
      return
    }
    try {
      await this.store.remove(entry)
      this.pendingOf(queue).delete(entry.file)
      this.metrics.count(queue, 'acked')
    } catch (error) {
      this.logger.error('Failed to remove acknowledged queue message; it will be redelivered', {
        queue,
        id: entry.message.id,
        error,
      })
    }
  }

  private async fail(queue: string, policy: RetryPolicy, entry: Pending, error: unknown): Promise<void> {
    const outcome = failureOutcome(policy, entry.message.attempt)
    const reason = describeFailure(error)
    const previous = entry.message
    try {
      if (outcome.kind === 'retry') {
        entry.message = { ...previous, attempt: outcome.nextAttempt, availableAt: Date.now() + outcome.delayMs }
        await this.store.write(entry)
        this.metrics.count(queue, 'retried')
        this.logger.warn('Scheduled queue message retry', {
          queue,
          id: previous.id,
          attempt: previous.attempt,
          delayMs: outcome.delayMs,
          reason,
        })
        return
      }
      const headers = deadLetterHeaders(previous.headers, reason)
      entry.message = { ...previous, headers }
      await this.store.moveToDead(entry)
      this.pendingOf(queue).delete(entry.file)
      this.metrics.count(queue, 'dead_lettered')
      this.logger.error('Dead-lettered queue message', { queue, id: previous.id, attempts: previous.attempt, reason })
    } catch (storeError) {
      // The old file is still there: keep the old content, deliver again after the retry delay.
      entry.message = { ...previous, availableAt: Date.now() + (outcome.kind === 'retry' ? outcome.delayMs : 1_000) }
      this.logger.error('Failed to record a queue message failure', { queue, id: previous.id, error: storeError })
    }
  }

  private pendingOf(queue: string): Map<string, Pending> {
    let map = this.pending.get(queue)
    if (!map) {
      map = new Map()
      this.pending.set(queue, map)
    }
    return map
  }

  private assertOpen(): void {
    if (this.state !== 'started')
      throw new InvalidStateError(`Queue is ${this.state === 'new' ? 'not started' : 'closed'}`)
  }
}

function toQueueMessage(entry: StoredEntry): QueueMessage {
  const { id, queue, payload, attempt, headers } = entry.message
  return { id, queue, payload: structuredClone(payload), attempt, headers: { ...headers } }
}

function jsonCopy(payload: unknown): unknown {
  try {
    const json = JSON.stringify(payload)
    return json === undefined ? null : JSON.parse(json)
  } catch (error) {
    throw new InvalidInputError(
      'Queue payload must be serializable as JSON',
      [{ field: 'payload', message: 'not JSON' }],
      { cause: error },
    )
  }
}
