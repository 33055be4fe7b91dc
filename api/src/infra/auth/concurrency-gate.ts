import { RateLimitedError } from '@idplane/common'

export interface ConcurrencyGateOptions {
  /** Tasks running at once. */
  concurrency: number
  /** Tasks waiting for a slot; one more is refused at once. */
  maxQueued: number
  /** Message of the RateLimitedError a refused task gets. */
  busyMessage: string
  /** Retry-After of that error. @default 1 */
  retryAfterSeconds?: number
}

/**
 * A semaphore with a bounded queue: at most `concurrency` tasks run, at most `maxQueued` wait, and any
 * further task fails at once with RateLimitedError (429 with Retry-After) instead of joining a long queue.
 * Waiters get their slot in arrival order.
 */
export class ConcurrencyGate {
  private running = 0
  private readonly waiting: (() => void)[] = []

  public constructor(private readonly options: ConcurrencyGateOptions) {}

  /** @throws RateLimitedError when every slot is taken and the queue is full */
  public async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire()
    try {
      return await task()
    } finally {
      this.release()
    }
  }

  public get stats(): { running: number; queued: number } {
    return { running: this.running, queued: this.waiting.length }
  }

  private acquire(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running += 1
      return Promise.resolve()
    }
    if (this.waiting.length >= this.options.maxQueued) {
      return Promise.reject(new RateLimitedError(this.options.busyMessage, this.options.retryAfterSeconds ?? 1))
    }
    // The slot passes straight from the releasing task to the waiter: `running` stays counted.
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  private release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.running -= 1
  }
}
