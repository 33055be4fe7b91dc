import { randomUUID } from 'node:crypto'
import { Channel, ChannelModel, ConsumeMessage, Options } from 'amqplib'
import { injectable } from 'inversify'
import { Registry } from 'prom-client'
import { InvalidStateError, Logger, UpstreamError } from '@idplane/common'
import { AmqpConnection, describeBroker } from './amqp-connection'
import { decodeMessage, encodeMessage, retryQueueArguments, retryQueueName } from './amqp-message'
import { waitAll } from './async-utils'
import { ConsumeOptions, Queue, QueueHandler, QueueMessage } from './queue'
import { QueueMetrics } from './queue-metrics'
import {
  RetryPolicy,
  assertQueueName,
  deadLetterQueueName,
  describeFailure,
  deadLetterHeaders,
  failureOutcome,
  toRetryPolicy,
  usedRetryDelays,
} from './retry-policy'

/** First reconnect delay after a lost connection; doubles per failed attempt. @default 500 ms */
export const DEFAULT_RECONNECT_INITIAL_DELAY_MS = 500
/** Cap of the reconnect delay. @default 30 s */
export const DEFAULT_RECONNECT_MAX_DELAY_MS = 30_000
/** How long publish() waits for a connection and the broker's confirm before UpstreamError. @default 30 s */
export const DEFAULT_PUBLISH_TIMEOUT_MS = 30_000
/** How long close() waits for running handlers. @default 30 s */
export const DEFAULT_AMQP_CLOSE_TIMEOUT_MS = 30_000
/** Pause before a consumer whose channel closed (connection still up) subscribes again. */
const RESUBSCRIBE_DELAY_MS = 1_000

export interface AmqpQueueOptions {
  /** amqp:// or amqps:// URL (AMQP_URL); it may hold credentials and is never logged. */
  url: string
  logger: Logger
  registry: Registry
  /** @default DEFAULT_RECONNECT_INITIAL_DELAY_MS, DEFAULT_RECONNECT_MAX_DELAY_MS */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number }
  /** @default DEFAULT_PUBLISH_TIMEOUT_MS */
  publishTimeoutMs?: number
  /** @default DEFAULT_AMQP_CLOSE_TIMEOUT_MS */
  closeTimeoutMs?: number
  /** Shown by `rabbitmqctl list_connections client_properties`. @default 'idplane-api' */
  connectionName?: string
}

interface Consumer {
  queue: string
  handler: QueueHandler<unknown>
  policy: RetryPolicy
  channel?: Channel
  tag?: string
}

/**
 * RabbitMQ queue (AMQP_URL set). Durable queues and persistent messages; publish resolves on the broker's
 * confirm. Each consumer has its own channel with manual acks and a prefetch. A failed handler's message
 * is re-published (confirmed) to `<queue>.retry.<delayMs>`, whose TTL dead-letters it back to `<queue>`,
 * and only then acked; after `maxAttempts` it goes to `<queue>.dead` instead. A lost connection is
 * re-opened by AmqpConnection, which declares the queues and subscribes the consumers again.
 */
@injectable()
export class AmqpQueue extends Queue {
  private readonly logger: Logger
  private readonly metrics: QueueMetrics
  private readonly connection: AmqpConnection
  private readonly closeTimeoutMs: number
  private readonly publishTimeoutMs: number
  private readonly consumers = new Map<string, Consumer>()
  private readonly running = new Set<Promise<void>>()
  private starting?: Promise<void>
  private state: 'new' | 'started' | 'closing' | 'closed' = 'new'

  public constructor(options: AmqpQueueOptions) {
    super()
    this.logger = options.logger.child({ component: 'amqp-queue', broker: describeBroker(options.url) })
    this.metrics = new QueueMetrics(options.registry)
    this.closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_AMQP_CLOSE_TIMEOUT_MS
    this.publishTimeoutMs = options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS
    const initialDelayMs = options.reconnect?.initialDelayMs ?? DEFAULT_RECONNECT_INITIAL_DELAY_MS
    this.connection = new AmqpConnection({
      url: options.url,
      logger: this.logger,
      metrics: this.metrics,
      initialDelayMs,
      maxDelayMs: Math.max(initialDelayMs, options.reconnect?.maxDelayMs ?? DEFAULT_RECONNECT_MAX_DELAY_MS),
      publishTimeoutMs: this.publishTimeoutMs,
      connectionName: options.connectionName ?? 'idplane-api',
      setup: (connection) => this.subscribeAll(connection),
    })
  }

  /** Connects once, without retrying: a broker missing at start-up fails start-up (Kubernetes restarts the pod). */
  public start(): Promise<void> {
    this.starting ??= this.connection
      .open()
      .then(() => {
        this.state = 'started'
        this.logger.info('Connected to AMQP broker')
      })
      .catch((error: unknown) => {
        this.starting = undefined
        throw new UpstreamError('Could not connect to the AMQP broker', { cause: error })
      })
    return this.starting
  }

  public async publish<T>(
    queue: string,
    payload: T,
    options: { id?: string; headers?: Record<string, string> } = {},
  ): Promise<string> {
    assertQueueName(queue)
    this.assertStarted()
    const id = options.id ?? randomUUID()
    const outgoing = encodeMessage({ id, payload, attempt: 1, headers: options.headers ?? {} })
    try {
      await this.connection.publish(queue, outgoing.content, outgoing.options, true)
    } catch (error) {
      this.metrics.count(queue, 'publish_failed')
      throw error
    }
    this.metrics.count(queue, 'published')
    return id
  }

  public async consume<T>(queue: string, handler: QueueHandler<T>, options?: ConsumeOptions): Promise<void> {
    assertQueueName(queue)
    const policy = toRetryPolicy(options)
    this.assertStarted()
    if (this.consumers.has(queue)) throw new InvalidStateError(`Already consuming queue ${queue}`)
    const consumer: Consumer = { queue, handler: handler as QueueHandler<unknown>, policy }
    this.consumers.set(queue, consumer)
    const connection = this.connection.connection
    // Without a connection the reconnect subscribes it; with one, a failure here is the caller's to see.
    if (connection) {
      try {
        await this.subscribe(consumer, connection)
      } catch (error) {
        this.consumers.delete(queue)
        throw new UpstreamError(`Could not subscribe to queue ${queue}`, { cause: error })
      }
    }
    this.logger.info('Started queue consumer', { queue, prefetch: policy.prefetch, maxAttempts: policy.maxAttempts })
  }

  public async isHealthy(): Promise<boolean> {
    return this.state === 'started' && this.connection.connection !== undefined
  }

  public async close(): Promise<void> {
    if (this.state === 'closing' || this.state === 'closed') return
    this.state = 'closing'
    this.connection.stopReconnecting()
    // Cancel so that no delivery starts, but keep the channels open so that running handlers can ack.
    for (const consumer of this.consumers.values()) {
      if (consumer.channel && consumer.tag) await consumer.channel.cancel(consumer.tag).catch(() => undefined)
    }
    const isDrained = await waitAll(this.running, this.closeTimeoutMs)
    if (!isDrained) this.logger.warn('Closed queue with handlers still running', { handlers: this.running.size })
    await this.connection.close()
    this.state = 'closed'
    this.logger.info('Closed AMQP connection')
  }

  public async deadLetters(queue: string, limit = 100): Promise<QueueMessage[]> {
    assertQueueName(queue)
    this.assertStarted()
    const connection = await this.connection.waitForConnection(this.publishTimeoutMs)
    const channel = await connection.createChannel()
    channel.on('error', () => undefined)
    const dead = deadLetterQueueName(queue)
    const messages: QueueMessage[] = []
    try {
      await channel.assertQueue(dead, { durable: true })
      while (messages.length < limit) {
        const delivery = await channel.get(dead, { noAck: false })
        if (!delivery) break
        messages.push(decodeMessage(queue, delivery, { isLenient: true }))
      }
    } finally {
      // Closing the channel without acking puts every message read back, in order: a peek.
      await channel.close().catch(() => undefined)
    }
    return messages
  }

  private async subscribeAll(connection: ChannelModel): Promise<void> {
    for (const consumer of this.consumers.values()) await this.subscribe(consumer, connection)
  }

  /** Declares the queue, its dead-letter queue and one retry queue per delay, then consumes on a new channel. */
  private async subscribe(consumer: Consumer, connection: ChannelModel): Promise<void> {
    const { queue, policy } = consumer
    const channel = await connection.createChannel()
    channel.on('error', (error: Error) => this.logger.warn('AMQP consumer channel error', { queue, error }))
    channel.on('close', () => this.onChannelClosed(consumer, channel, connection))
    await channel.assertQueue(queue, { durable: true })
    await channel.assertQueue(deadLetterQueueName(queue), { durable: true })
    for (const delayMs of usedRetryDelays(policy)) {
      await channel.assertQueue(retryQueueName(queue, delayMs), retryQueueArguments(queue, delayMs))
    }
    await channel.prefetch(policy.prefetch)
    consumer.channel = channel
    const reply = await channel.consume(queue, (delivery) => this.onDelivery(consumer, channel, delivery, connection), {
      noAck: false,
    })
    consumer.tag = reply.consumerTag
  }

  private onChannelClosed(consumer: Consumer, channel: Channel, connection: ChannelModel): void {
    if (consumer.channel !== channel) return
    consumer.channel = undefined
    if (this.state !== 'started') return
    // When the whole connection went, the reconnect subscribes again; otherwise only this channel died.
    setTimeout(() => {
      if (this.state !== 'started' || this.connection.connection !== connection || consumer.channel) return
      if (this.consumers.get(consumer.queue) !== consumer) return
      this.logger.warn('Resubscribing queue consumer after its channel closed', { queue: consumer.queue })
      this.subscribe(consumer, connection).catch((error: unknown) => {
        this.logger.error('Failed to resubscribe queue consumer', { queue: consumer.queue, error })
      })
    }, RESUBSCRIBE_DELAY_MS).unref()
  }

  private onDelivery(
    consumer: Consumer,
    channel: Channel,
    delivery: ConsumeMessage | null,
    connection: ChannelModel,
  ): void {
    if (!delivery) {
      // The broker cancelled the consumer (its queue was deleted): handle it like a closed channel.
      this.logger.warn('Broker cancelled queue consumer', { queue: consumer.queue })
      this.onChannelClosed(consumer, channel, connection)
      void channel.close().catch(() => undefined)
      return
    }
    const task = this.handle(consumer, channel, delivery).finally(() => this.running.delete(task))
    this.running.add(task)
  }

  private async handle(consumer: Consumer, channel: Channel, delivery: ConsumeMessage): Promise<void> {
    const { queue } = consumer
    let message: QueueMessage
    try {
      message = decodeMessage(queue, delivery)
    } catch (error) {
      await this.settleFailure(channel, delivery, queue, () =>
        this.deadLetterRaw(queue, delivery, describeFailure(error)),
      )
      return
    }
    const endTimer = this.metrics.timeHandler(queue)
    try {
      await consumer.handler(message)
      endTimer('ok')
    } catch (error) {
      endTimer('error')
      await this.settleFailure(channel, delivery, queue, () => this.retryOrDeadLetter(consumer, message, error))
      return
    }
    if (ack(channel, delivery)) this.metrics.count(queue, 'acked')
  }

  /** Re-publishes (retry or dead letter), then acks; if the re-publish failed the delivery is requeued. */
  private async settleFailure(
    channel: Channel,
    delivery: ConsumeMessage,
    queue: string,
    republish: () => Promise<void>,
  ): Promise<void> {
    try {
      await republish()
    } catch (error) {
      this.logger.error('Failed to schedule a retry, requeued the message', { queue, error })
      try {
        channel.nack(delivery, false, true)
      } catch {
        // The channel is gone: the broker has requeued the message already.
      }
      return
    }
    ack(channel, delivery)
  }

  private async retryOrDeadLetter(consumer: Consumer, message: QueueMessage, error: unknown): Promise<void> {
    const { queue } = consumer
    const outcome = failureOutcome(consumer.policy, message.attempt)
    const reason = describeFailure(error)
    if (outcome.kind === 'retry') {
      const outgoing = encodeMessage({ ...message, attempt: outcome.nextAttempt })
      await this.connection.publish(retryQueueName(queue, outcome.delayMs), outgoing.content, outgoing.options, false)
      this.metrics.count(queue, 'retried')
      this.logger.warn('Scheduled queue message retry', {
        queue,
        id: message.id,
        attempt: message.attempt,
        delayMs: outcome.delayMs,
        reason,
      })
      return
    }
    const headers = deadLetterHeaders(message.headers, reason)
    const outgoing = encodeMessage({ ...message, headers })
    await this.connection.publish(deadLetterQueueName(queue), outgoing.content, outgoing.options, false)
    this.metrics.count(queue, 'dead_lettered')
    this.logger.error('Dead-lettered queue message', { queue, id: message.id, attempts: message.attempt, reason })
  }

  /** A body that is not JSON can never succeed: dead-letter it at once, as it came. */
  private async deadLetterRaw(queue: string, delivery: ConsumeMessage, reason: string): Promise<void> {
    const properties = delivery.properties
    const headers = deadLetterHeaders(properties.headers, reason)
    const options: Options.Publish = {
      persistent: true,
      messageId: properties.messageId,
      contentType: properties.contentType,
      headers,
    }
    await this.connection.publish(deadLetterQueueName(queue), delivery.content, options, false)
    this.metrics.count(queue, 'dead_lettered')
    this.logger.error('Dead-lettered unreadable queue message', { queue, reason })
  }

  private assertStarted(): void {
    if (this.state !== 'started')
      throw new InvalidStateError(`Queue is ${this.state === 'new' ? 'not started' : 'closed'}`)
  }
}

/** Acks unless the channel is gone (then the broker redelivers: at least once). */
function ack(channel: Channel, delivery: ConsumeMessage): boolean {
  try {
    channel.ack(delivery)
    return true
  } catch {
    return false
  }
}
