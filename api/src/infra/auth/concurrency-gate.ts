import { RateLimitedError } from '@idplane/common'

export interface ConcurrencyGateOptions {
  /** Tasks running at once. */
  concurrency: number
  /** Tasks waiting for a slot; one more is refused at once. */
  maxQueued: number
  /**
   * Tasks one client may have waiting; one more of that client is refused at once, while other clients still queue.
   * @default maxQueued (no per-client bound)
   */
  maxQueuedPerClient?: number
  /**
   * Tasks one client may have running; with fewer than `concurrency`, a slot stays free for the other clients
   * while one floods. @default concurrency
   */
  maxRunningPerClient?: number
  /** Message of the RateLimitedError a refused task gets. */
  busyMessage: string
  /** Retry-After of that error. @default 1 */
  retryAfterSeconds?: number
}

/** Clients that give none share this key. */
const ANONYMOUS = ''

/**
 * A semaphore with bounded, fair queues: at most `concurrency` tasks run (at most `maxRunningPerClient` of one
 * client), at most `maxQueued` wait (at most `maxQueuedPerClient` of one client), and any further task fails at once
 * with RateLimitedError (429 with Retry-After) instead of joining a long queue. A freed slot goes to the clients with
 * waiting tasks in turn, each client's tasks in arrival order: a flood from one client costs another client at most
 * one task's time, not the whole flood's (issue 22, item 11).
 */
export class ConcurrencyGate {
  private running = 0
  private queued = 0
  private readonly runningByClient = new Map<string, number>()
  /** Waiting tasks by client; the map's order is the order clients get their turn in. */
  private readonly waiting = new Map<string, (() => void)[]>()

  public constructor(private readonly options: ConcurrencyGateOptions) {}

  /** @throws RateLimitedError when every slot is taken and the queue (or the client's share of it) is full */
  public async run<T>(task: () => Promise<T>, client = ANONYMOUS): Promise<T> {
    await this.acquire(client)
    try {
      return await task()
    } finally {
      this.release(client)
    }
  }

  public get stats(): { running: number; queued: number } {
    return { running: this.running, queued: this.queued }
  }

  private acquire(client: string): Promise<void> {
    if (this.running < this.options.concurrency && this.mayRun(client)) {
      this.start(client)
      return Promise.resolve()
    }
    const ofClient = this.waiting.get(client)
    const perClient = this.options.maxQueuedPerClient ?? this.options.maxQueued
    if (this.queued >= this.options.maxQueued || (ofClient?.length ?? 0) >= perClient) {
      return Promise.reject(new RateLimitedError(this.options.busyMessage, this.options.retryAfterSeconds ?? 1))
    }
    return new Promise((resolve) => {
      if (ofClient) ofClient.push(resolve)
      else this.waiting.set(client, [resolve])
      this.queued += 1
    })
  }

  private release(client: string): void {
    this.running -= 1
    const left = (this.runningByClient.get(client) ?? 1) - 1
    if (left > 0) this.runningByClient.set(client, left)
    else this.runningByClient.delete(client)
    // The first client in line that may run another task gets the slot, then goes to the back of the line.
    for (const [waiting, tasks] of this.waiting) {
      if (!this.mayRun(waiting)) continue
      const next = tasks.shift()
      this.waiting.delete(waiting)
      if (tasks.length > 0) this.waiting.set(waiting, tasks)
      this.queued -= 1
      this.start(waiting)
      next?.()
      return
    }
  }

  private mayRun(client: string): boolean {
    const limit = this.options.maxRunningPerClient ?? this.options.concurrency
    return (this.runningByClient.get(client) ?? 0) < limit
  }

  private start(client: string): void {
    this.running += 1
    this.runningByClient.set(client, (this.runningByClient.get(client) ?? 0) + 1)
  }
}
