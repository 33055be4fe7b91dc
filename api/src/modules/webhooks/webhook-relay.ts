import { randomUUID } from 'node:crypto'
import { inject, injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { Logger } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { SecretBox } from '../../infra/crypto/secret-box'
import { Queue, type QueueMessage } from '../../infra/queue/queue'
import { TOKENS } from '../../infra/tokens'
import { WebhookDeliveriesRepository, type ClaimedDelivery } from './webhook-deliveries.repository'
import { WebhookMetrics } from './webhook-metrics'
import { deliveryBody, deliveryHeaders } from './webhook-request'
import { postWebhook, type AttemptResult, type SendOptions } from './webhook-sender'
import { retryDelayAfter, webhooksConfig, type WebhooksConfig } from './webhooks.config'

/** The queue deliveries travel on (prefixed with QUEUE_NAME_PREFIX). */
export const WEBHOOK_QUEUE = 'webhook.deliveries'
/** Deliveries handed to the queue per relay round. */
const BATCH_SIZE = 100
/**
 * How long a claim outlives the POST's timeout: time to record the result. Short, because a delivery claimed by a
 * killed process waits this long (plus the timeout) before another worker may attempt it.
 */
const CLAIM_MARGIN_SECONDS = 5
/** Webhooks whose opened secret is kept in memory; past this many the map starts again (a bound, not an LRU). */
const OPENED_SECRETS_KEPT = 1_000

/** The queue message: only the delivery's id; the row holds everything else. */
interface DeliveryMessage {
  deliveryId: string
}

/**
 * Moves deliveries from their rows to the receivers (docs/decisions.md, "Webhooks"). The row is the truth; the
 * queue carries the work:
 * - the relay publishes each pending delivery the queue does not carry (new rows, and rows whose `queuedUntil`
 *   passed because a process died or a message was lost) and marks it carried;
 * - the queue's consumer claims the row, POSTs, and records the result; a failure throws, so the queue delivers
 *   the message again after the retry delay; the last failure marks the row dead instead.
 * A process killed at any point loses nothing: messages stay in the queue (broker or files) and the relay
 * publishes again what the queue no longer carries. It can deliver twice (killed between the POST and recording
 * it): receivers deduplicate by `data.id`.
 */
@injectable()
export class WebhookRelay {
  private readonly logger: Logger
  private readonly settings: WebhooksConfig
  private readonly queueName: string
  private readonly sendOptions: SendOptions
  private timer?: NodeJS.Timeout
  private running?: Promise<void>
  private isStopped = true
  private again = false
  private commitExpectedUntil = 0
  /** Opened secrets by webhook id, with the sealed value they came from (a re-registered secret seals anew). */
  private readonly openedSecrets = new Map<string, { sealed: string; secret: string }>()

  public constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: Queue,
    private readonly box: SecretBox,
    private readonly metrics: WebhookMetrics,
    private readonly em: EntityManager,
    @inject(TOKENS.Config) config: Config,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'webhook-relay' })
    this.settings = sectionOf(config, webhooksConfig)
    this.queueName = `${config.queue.namePrefix}${WEBHOOK_QUEUE}`
    this.sendOptions = { timeoutMs: this.settings.timeoutMs, allowPrivateTargets: config.network.allowPrivateTargets }
  }

  /** Consumes the queue and starts the relay rounds; call once per process. */
  public async start(): Promise<void> {
    await this.queue.consume<DeliveryMessage>(this.queueName, (message) => this.attempt(message), {
      prefetch: this.settings.concurrency,
      // The row decides when a delivery is dead; the queue's own dead letters only catch what the row could not record.
      maxAttempts: this.settings.maxAttempts + 1,
      retryDelaysMs: this.settings.retryDelaysMs,
    })
    // A transaction that stored deliveries wakes the relay as it commits (the poll is the fallback).
    this.em.getEventManager().registerSubscriber({
      afterTransactionCommit: () => {
        if (Date.now() < this.commitExpectedUntil) this.wake(0)
      },
    })
    this.isStopped = false
    this.wake(0)
  }

  /** Stops the relay rounds and waits for the one in progress; the queue stops its consumer when it closes. */
  public async stop(): Promise<void> {
    this.isStopped = true
    clearTimeout(this.timer)
    await this.running
  }

  /** Called by the listener in the publishing transaction: look again when it commits. */
  public expectCommit(): void {
    this.commitExpectedUntil = Date.now() + 5_000
    this.wake(50)
  }

  /** Looks for deliveries to hand to the queue now (after a replay). */
  public poke(): void {
    this.wake(0)
  }

  /** One relay round: publishes what the queue does not carry. Resolves with how many were published. */
  public async relayOnce(): Promise<number> {
    const ids = await this.deliveries.takeForQueue(BATCH_SIZE, this.settings.requeueAfterSeconds)
    const failed: string[] = []
    for (const deliveryId of ids) {
      try {
        await this.queue.publish<DeliveryMessage>(this.queueName, { deliveryId }, { id: deliveryId })
      } catch (error) {
        failed.push(deliveryId)
        this.logger.warn('Failed to queue a webhook delivery', { deliveryId, error })
      }
    }
    await this.deliveries.releaseFromQueue(failed)
    if (ids.length === BATCH_SIZE) this.again = true
    return ids.length - failed.length
  }

  private wake(delayMs: number): void {
    if (this.isStopped) return
    if (this.running) {
      this.again = true
      return
    }
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.round(), delayMs)
  }

  private round(): void {
    this.again = false
    this.running = this.relayOnce()
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn('Failed to relay webhook deliveries', { error }),
      )
      .finally(() => {
        this.running = undefined
        if (this.isStopped) return
        this.timer = setTimeout(() => this.round(), this.again ? 0 : this.settings.relayIntervalMs)
      })
  }

  /** One attempt of one delivery (the queue's handler). Throws to have the queue retry it later. */
  private async attempt(message: QueueMessage<DeliveryMessage>): Promise<void> {
    const deliveryId = message.payload?.deliveryId
    if (typeof deliveryId !== 'string') return
    const claimToken = randomUUID()
    const holdSeconds = Math.ceil(this.settings.timeoutMs / 1000) + CLAIM_MARGIN_SECONDS
    const delivery = await this.deliveries.claim(deliveryId, claimToken, holdSeconds, this.settings.requeueAfterSeconds)
    // Delivered, dead, removed with its organization, or in another worker's hands: nothing to do.
    if (!delivery) return
    const started = process.hrtime.bigint()
    const { result, url } = await this.send(delivery)
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    if (result.isSuccess) {
      this.metrics.attempt('delivered', seconds)
      this.metrics.delivered(delivery.occurredAt)
      await this.record(delivery, claimToken, { kind: 'delivered', status: result.status ?? 200, url })
      return
    }
    const error = result.error ?? 'Failed'
    if (delivery.attempts >= this.settings.maxAttempts) {
      this.metrics.attempt('dead', seconds)
      await this.record(delivery, claimToken, { kind: 'dead', status: result.status, error, url })
      this.logger.error('Gave up delivering a webhook', {
        deliveryId,
        eventId: delivery.payload.id,
        attempts: delivery.attempts,
        error,
      })
      return
    }
    this.metrics.attempt('failed', seconds)
    const retryInMs = retryDelayAfter(this.settings, message.attempt)
    await this.record(delivery, claimToken, {
      kind: 'retry',
      status: result.status,
      error,
      url,
      retryInMs,
      requeueAfterSeconds: this.settings.requeueAfterSeconds,
    })
    this.logger.warn('Failed to deliver a webhook; will retry', {
      deliveryId,
      attempt: delivery.attempts,
      retryInMs,
      error,
    })
    throw new WebhookAttemptFailed(error)
  }

  private async send(delivery: ClaimedDelivery): Promise<{ result: AttemptResult; url: string }> {
    let url = delivery.targetUrl
    let secret: string | undefined
    if (delivery.webhookId !== null && delivery.webhook) {
      url = delivery.webhook.url
      secret = this.secretOf(delivery.webhookId, delivery.webhook.sealedSecret)
    }
    const body = deliveryBody(url, delivery.payload)
    const headers = deliveryHeaders(body, { deliveryId: delivery.id, secret })
    return { result: await postWebhook(url, body, headers, this.sendOptions), url }
  }

  /** The webhook's secret, opened once per sealed value (every delivery to a webhook carries the same one). */
  private secretOf(webhookId: string, sealed: string | null): string | undefined {
    if (sealed === null) return undefined
    const cached = this.openedSecrets.get(webhookId)
    if (cached?.sealed === sealed) return cached.secret
    const secret = this.box.open(sealed, webhookId)
    if (this.openedSecrets.size >= OPENED_SECRETS_KEPT) this.openedSecrets.clear()
    this.openedSecrets.set(webhookId, { sealed, secret })
    return secret
  }

  private async record(
    delivery: ClaimedDelivery,
    claimToken: string,
    attempt: Parameters<WebhookDeliveriesRepository['record']>[2],
  ): Promise<void> {
    if (!(await this.deliveries.record(delivery.id, claimToken, attempt))) {
      this.logger.warn('Lost the claim of a webhook delivery while attempting it', { deliveryId: delivery.id })
    }
  }
}

/** Thrown to the queue so that it retries the message after its delay. */
export class WebhookAttemptFailed extends Error {
  public override readonly name = 'WebhookAttemptFailed'
}
