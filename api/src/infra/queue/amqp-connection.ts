import { ChannelModel, ConfirmChannel, Options, connect } from 'amqplib'
import { InvalidStateError, Logger, UpstreamError } from '@idplane/common'
import { delay } from './async-utils'
import { QueueMetrics } from './queue-metrics'

export interface AmqpConnectionOptions {
  url: string
  logger: Logger
  metrics: QueueMetrics
  initialDelayMs: number
  maxDelayMs: number
  publishTimeoutMs: number
  connectionName: string
  /** Runs on every new connection before it is used (declare queues, subscribe consumers). */
  setup: (connection: ChannelModel) => Promise<void>
}

interface Waiter {
  resolve: (connection: ChannelModel) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

/**
 * One AMQP connection that heals: when it is lost, it is opened again with exponential backoff (±20 %
 * jitter) and `setup` runs again. Owns the confirm channel publishes go through; a publish waits for a
 * connection while there is none and tries again after a failure, until `publishTimeoutMs`.
 */
export class AmqpConnection {
  private current?: ChannelModel
  private publisher?: Promise<ConfirmChannel>
  private readonly declared = new Set<string>()
  private waiters: Waiter[] = []
  private reconnectTimer?: NodeJS.Timeout
  private wakeReconnect?: () => void
  private isClosed = false

  public constructor(private readonly options: AmqpConnectionOptions) {}

  /** The live connection, if any. */
  public get connection(): ChannelModel | undefined {
    return this.current
  }

  /** Opens the first connection (no retry: a broker missing at start-up fails start-up). */
  public async open(): Promise<void> {
    const connection = await connect(this.options.url, {
      timeout: 10_000,
      clientProperties: { connection_name: this.options.connectionName },
    })
    connection.on('error', (error: Error) => this.options.logger.warn('AMQP connection error', { error }))
    connection.on('blocked', (reason: string) => this.options.logger.warn('AMQP broker blocked publishing', { reason }))
    connection.on('close', () => this.onLost(connection))
    try {
      const publisher = this.openPublisher(connection)
      await publisher
      await this.options.setup(connection)
      // close() ran while this reconnect was under way: leave no connection behind.
      if (this.isClosed) throw new InvalidStateError('Queue is closed')
      this.declared.clear()
      this.publisher = publisher
    } catch (error) {
      await connection.close().catch(() => undefined)
      throw error
    }
    this.current = connection
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer)
      waiter.resolve(connection)
    }
  }

  /** Resolves with the live connection, waiting up to `timeoutMs` for one. */
  public waitForConnection(timeoutMs: number): Promise<ChannelModel> {
    if (this.current) return Promise.resolve(this.current)
    if (this.isClosed) return Promise.reject(new InvalidStateError('Queue is closed'))
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((other) => other !== waiter)
          reject(new Error(`No AMQP connection within ${timeoutMs} ms`))
        }, timeoutMs),
      }
      this.waiters.push(waiter)
    })
  }

  /**
   * Publishes to `queue` through the default exchange and waits for the broker's confirm. `declare` asserts
   * a plain durable queue first (once per connection); retry and dead queues are declared by their consumer
   * and must not be re-declared without their arguments.
   * @throws UpstreamError when no confirm came within `publishTimeoutMs`
   */
  public async publish(queue: string, content: Buffer, options: Options.Publish, declare: boolean): Promise<void> {
    const deadline = Date.now() + this.options.publishTimeoutMs
    let lastError: unknown
    for (
      let remaining = this.options.publishTimeoutMs;
      remaining > 0 && !this.isClosed;
      remaining = deadline - Date.now()
    ) {
      let channel: ConfirmChannel | undefined
      try {
        channel = await this.getPublisher(remaining)
        if (declare && !this.declared.has(queue)) {
          await channel.assertQueue(queue, { durable: true })
          this.declared.add(queue)
        }
        await confirmPublish(channel, queue, content, options, deadline - Date.now())
        return
      } catch (error) {
        lastError = error
        if (channel) this.discardPublisher(channel)
        // Programming errors (a payload amqplib cannot encode, a closed queue) do not get better by waiting.
        if (error instanceof InvalidStateError || error instanceof RangeError || error instanceof TypeError) break
        await delay(Math.min(250, Math.max(0, deadline - Date.now())))
      }
    }
    throw new UpstreamError(`Could not publish to queue ${queue}`, { cause: lastError })
  }

  /** Stops reconnecting and fails waiting publishes; the live connection stays until close(). */
  public stopReconnecting(): void {
    this.isClosed = true
    clearTimeout(this.reconnectTimer)
    this.wakeReconnect?.()
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer)
      waiter.reject(new InvalidStateError('Queue is closed'))
    }
  }

  public async close(): Promise<void> {
    this.stopReconnecting()
    const connection = this.current
    this.current = undefined
    this.publisher = undefined
    await connection?.close().catch(() => undefined)
  }

  private async openPublisher(connection: ChannelModel): Promise<ConfirmChannel> {
    const channel = await connection.createConfirmChannel()
    channel.on('error', (error: Error) => this.options.logger.warn('AMQP publish channel error', { error }))
    channel.on('close', () => {
      // A channel error with the connection still up: the next publish opens a new channel.
      if (this.current === connection) this.publisher = undefined
    })
    return channel
  }

  private async getPublisher(timeoutMs: number): Promise<ConfirmChannel> {
    const connection = await this.waitForConnection(timeoutMs)
    this.publisher ??= this.openPublisher(connection)
    const publisher = this.publisher
    try {
      return await publisher
    } catch (error) {
      if (this.publisher === publisher) this.publisher = undefined
      throw error
    }
  }

  /** After a failed publish, start the next try on a fresh channel (this one may be closed or confused). */
  private discardPublisher(channel: ConfirmChannel): void {
    const publisher = this.publisher
    void publisher?.then(
      (current) => {
        if (current === channel && this.publisher === publisher) this.publisher = undefined
      },
      () => undefined,
    )
    void channel.close().catch(() => undefined)
  }

  private onLost(connection: ChannelModel): void {
    if (this.current !== connection) return
    this.current = undefined
    this.publisher = undefined
    if (this.isClosed) return
    this.options.logger.warn('Lost AMQP connection, reconnecting')
    void this.reconnect()
  }

  private async reconnect(): Promise<void> {
    let delayMs = this.options.initialDelayMs
    for (let attempt = 1; !this.isClosed; attempt++) {
      await this.sleep(Math.round(delayMs * (0.8 + Math.random() * 0.4)))
      if (this.isClosed) return
      try {
        await this.open()
        this.options.metrics.countReconnect()
        this.options.logger.info('Reconnected to AMQP broker', { attempt })
        return
      } catch (error) {
        delayMs = Math.min(delayMs * 2, this.options.maxDelayMs)
        if (!this.isClosed)
          this.options.logger.warn('Failed to reconnect to AMQP broker', { attempt, nextDelayMs: delayMs, error })
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wakeReconnect = resolve
      this.reconnectTimer = setTimeout(resolve, ms)
    })
  }
}

function confirmPublish(
  channel: ConfirmChannel,
  queue: string,
  content: Buffer,
  options: Options.Publish,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`No publisher confirm within ${timeoutMs} ms`)),
      Math.max(1, timeoutMs),
    )
    try {
      channel.sendToQueue(queue, content, options, (error: unknown) => {
        clearTimeout(timer)
        if (error) reject(error instanceof Error ? error : new Error('Broker rejected the message'))
        else resolve()
      })
    } catch (error) {
      clearTimeout(timer)
      reject(error)
    }
  })
}

/** protocol://host:port/vhost without credentials, for logs. */
export function describeBroker(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  } catch {
    return 'invalid-url'
  }
}
