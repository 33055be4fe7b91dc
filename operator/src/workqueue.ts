import type { Logger } from '@idplane/common'

/** What a handler asks for after a successful run: nothing, or another run after a delay. */
export interface WorkResult {
  requeueAfterMs?: number
}

export type WorkHandler = (key: string) => Promise<WorkResult>

export interface WorkQueueOptions {
  /** Keys handled at once; a key is never handled by two workers at the same time. */
  workers: number
  /** Delay before the first retry of a failed key; doubles per consecutive failure. @default 100 */
  baseDelayMs?: number
  /** @default 60000 */
  maxDelayMs?: number
  logger: Logger
  /** Called after each run with its outcome and duration, for metrics. */
  onResult?: (outcome: 'success' | 'requeue' | 'error', seconds: number) => void
}

/**
 * A rate-limited work queue in the manner of client-go's: a key waiting is queued once however often it
 * is added; a key added while it is being handled runs again once that run ends; a failed key is retried
 * after a per-key exponential backoff that a success resets.
 */
export class WorkQueue {
  private readonly queue: string[] = []
  private readonly queued = new Set<string>()
  private readonly processing = new Set<string>()
  private readonly dirty = new Set<string>()
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>()
  private readonly failures = new Map<string, number>()
  private readonly idleWaiters: (() => void)[] = []
  private handler: WorkHandler | undefined
  private shuttingDown = false

  public constructor(private readonly options: WorkQueueOptions) {}

  public start(handler: WorkHandler): void {
    this.handler = handler
    this.pump()
  }

  public add(key: string): void {
    if (this.shuttingDown) return
    const pending = this.delayed.get(key)
    if (pending) {
      clearTimeout(pending.timer)
      this.delayed.delete(key)
    }
    if (this.processing.has(key)) {
      this.dirty.add(key)
      return
    }
    if (this.queued.has(key)) return
    this.queued.add(key)
    this.queue.push(key)
    this.pump()
  }

  /** Adds `key` after `ms`; an earlier pending time for the same key wins. */
  public addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return
    if (ms <= 0) return this.add(key)
    const at = Date.now() + ms
    const pending = this.delayed.get(key)
    if (pending && pending.at <= at) return
    if (pending) clearTimeout(pending.timer)
    const timer = setTimeout(() => {
      this.delayed.delete(key)
      this.add(key)
    }, ms)
    this.delayed.set(key, { at, timer })
  }

  /** Adds `key` after its backoff and counts one more failure. */
  public addRateLimited(key: string): void {
    this.addAfter(key, this.nextBackoff(key))
  }

  /** Resets the failure count of `key`. */
  public forget(key: string): void {
    this.failures.delete(key)
  }

  public failureCount(key: string): number {
    return this.failures.get(key) ?? 0
  }

  public length(): number {
    return this.queue.length
  }

  /** Stops taking keys and resolves once every running handler has finished. */
  public async shutdown(): Promise<void> {
    this.shuttingDown = true
    for (const { timer } of this.delayed.values()) clearTimeout(timer)
    this.delayed.clear()
    this.queue.length = 0
    this.queued.clear()
    this.dirty.clear()
    if (this.processing.size === 0) return
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve))
  }

  private nextBackoff(key: string): number {
    const failures = this.failures.get(key) ?? 0
    this.failures.set(key, failures + 1)
    return Math.min(this.options.maxDelayMs ?? 60_000, (this.options.baseDelayMs ?? 100) * 2 ** failures)
  }

  private pump(): void {
    const handler = this.handler
    if (!handler) return
    while (!this.shuttingDown && this.processing.size < this.options.workers && this.queue.length > 0) {
      const key = this.queue.shift()
      if (key === undefined) break
      this.queued.delete(key)
      this.processing.add(key)
      void this.run(handler, key)
    }
  }

  private async run(handler: WorkHandler, key: string): Promise<void> {
    const started = process.hrtime.bigint()
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9
    try {
      const result = await handler(key)
      if (result.requeueAfterMs !== undefined) {
        this.options.onResult?.('requeue', seconds())
        this.forget(key)
        this.addAfter(key, result.requeueAfterMs)
      } else {
        this.options.onResult?.('success', seconds())
        this.forget(key)
      }
    } catch (error) {
      this.options.onResult?.('error', seconds())
      const delayMs = this.nextBackoff(key)
      this.options.logger.error('Reconciler error', {
        key,
        error,
        retryInMs: delayMs,
        failures: this.failureCount(key),
      })
      this.addAfter(key, delayMs)
    } finally {
      this.processing.delete(key)
      if (this.dirty.delete(key)) this.add(key)
      if (this.processing.size === 0 && (this.shuttingDown || this.queue.length === 0)) {
        for (const resolve of this.idleWaiters.splice(0)) resolve()
      }
      this.pump()
    }
  }
}
