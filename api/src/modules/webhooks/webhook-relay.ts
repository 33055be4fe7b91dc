import { inject, injectable } from 'inversify'
import { Logger } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { SecretBox } from '../../infra/crypto/secret-box'
import {
  OutboxRelay,
  type Claimed,
  type OutboxChannel,
  type OutboxClaim,
  type MarkedAndClaimed,
  type OutboxFailure,
  type SendOutcome,
  type SentRow,
} from '../../infra/outbox/outbox-relay'
import { TOKENS } from '../../infra/tokens'
import { WebhookDeliveriesRepository, type ClaimedDelivery } from './webhook-deliveries.repository'
import { WebhookMetrics } from './webhook-metrics'
import { deliveryBody, deliveryHeaders } from './webhook-request'
import { postWebhook, type AttemptResult, type SendOptions } from './webhook-sender'
import { webhooksConfig, type WebhooksConfig } from './webhooks.config'

/**
 * How long a claim outlives the POST's timeout: time to record the result. Short, because a delivery claimed by a
 * killed process waits this long (plus the timeout) before another relay may attempt it.
 */
const CLAIM_MARGIN_SECONDS = 5

/** What an attempt recorded besides its outcome: the answer's status and the URL it went to. */
interface AttemptDetail {
  status?: number
  url: string
  seconds: number
}

/**
 * Moves deliveries from their rows to the receivers (docs/decisions.md, "Webhooks") through the shared outbox
 * relay: claim due deliveries (as many as there are free slots), POST each, record the result; a failure is due
 * again after the retry delay, the last one marks the row dead. Fair across owners: an organization (or tenant)
 * holds at most `WEBHOOK_OWNER_CONCURRENCY` claims at once, so a slow receiver cannot take every slot. A process
 * killed at any point loses nothing: the row stays pending and is claimed again once its claim ends. It can deliver
 * twice (killed between the POST and recording it): receivers deduplicate by `data.id`.
 */
@injectable()
export class WebhookRelay implements OutboxChannel<ClaimedDelivery, AttemptDetail> {
  private readonly logger: Logger
  private readonly settings: WebhooksConfig
  private readonly sendOptions: SendOptions
  private readonly relay: OutboxRelay<ClaimedDelivery, AttemptDetail>
  private commitExpectedUntil = 0
  private isSubscribed = false

  public constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly box: SecretBox,
    private readonly metrics: WebhookMetrics,
    @inject(TOKENS.Config) config: Config,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'webhook-relay' })
    this.settings = sectionOf(config, webhooksConfig)
    this.sendOptions = { timeoutMs: this.settings.timeoutMs, allowPrivateTargets: config.network.allowPrivateTargets }
    this.relay = new OutboxRelay(
      this,
      {
        name: 'webhook',
        concurrency: this.settings.concurrency,
        pollIntervalMs: this.settings.relayIntervalMs,
        leaseSeconds: Math.ceil(this.settings.timeoutMs / 1000) + CLAIM_MARGIN_SECONDS,
        perOwnerLimit: this.settings.ownerConcurrency,
        retry: { maxAttempts: this.settings.maxAttempts, retryDelaysMs: this.settings.retryDelaysMs },
      },
      logger,
    )
  }

  /** Starts the relay; call once per process. */
  public start(): void {
    if (!this.isSubscribed) {
      // A transaction that stored deliveries wakes the relay as it commits (the poll is the fallback).
      this.deliveries.onCommit(() => {
        if (Date.now() < this.commitExpectedUntil) this.relay.wake(0)
      })
      this.isSubscribed = true
    }
    this.relay.start()
  }

  /** Stops the relay and waits for the attempts in progress. */
  public async stop(): Promise<void> {
    await this.relay.stop()
  }

  /** Called by the listener in the publishing transaction: look again when it commits. */
  public expectCommit(): void {
    this.commitExpectedUntil = Date.now() + 5_000
    this.relay.wake(50)
  }

  /** Looks for due deliveries now (after a replay). */
  public poke(): void {
    this.relay.wake(0)
  }

  public claimDue(claim: OutboxClaim): Promise<Claimed<ClaimedDelivery>> {
    return this.deliveries.claimDue(claim)
  }

  /** One POST of one claimed delivery. */
  public async send(delivery: ClaimedDelivery): Promise<SendOutcome<AttemptDetail>> {
    const started = process.hrtime.bigint()
    const { result, url } = await this.post(delivery)
    const detail = { status: result.status, url, seconds: Number(process.hrtime.bigint() - started) / 1e9 }
    if (result.isSuccess) return { isSuccess: true, detail }
    return { isSuccess: false, error: result.error ?? 'Failed', detail }
  }

  public markSent(delivery: ClaimedDelivery, claimToken: string, detail: AttemptDetail): Promise<boolean> {
    return this.deliveries.record(delivery.id, claimToken, { kind: 'delivered', ...this.delivered(delivery, detail) })
  }

  /** markSent of every sent delivery and the next claim, in one statement (the relay's turn after its POSTs). */
  public async markSentAndClaimDue(
    sent: readonly SentRow<ClaimedDelivery, AttemptDetail>[],
    claim: OutboxClaim,
  ): Promise<MarkedAndClaimed<ClaimedDelivery>> {
    const delivered = sent.map(({ item, claimToken, detail }) => ({
      id: item.id,
      claimToken,
      ...this.delivered(item, detail),
    }))
    const { recordedIds, claimed } = await this.deliveries.recordDeliveredAndClaimDue(delivered, claim)
    return { markedIds: recordedIds, claimed }
  }

  public async markFailed(
    delivery: ClaimedDelivery,
    claimToken: string,
    failure: OutboxFailure<AttemptDetail>,
  ): Promise<boolean> {
    const { error } = failure
    const url = failure.detail?.url ?? delivery.webhook?.url ?? delivery.targetUrl
    const status = failure.detail?.status
    const seconds = failure.detail?.seconds ?? 0
    const deliveryId = delivery.id
    if (failure.isDead) {
      this.metrics.attempt('dead', seconds)
      const marked = await this.deliveries.record(deliveryId, claimToken, { kind: 'dead', status, error, url })
      this.logger.error('Gave up delivering a webhook', {
        deliveryId,
        eventId: delivery.payload.id,
        attempts: delivery.attempts,
        error,
      })
      return marked
    }
    this.metrics.attempt('failed', seconds)
    const { retryInMs } = failure
    const marked = await this.deliveries.record(deliveryId, claimToken, {
      kind: 'retry',
      status,
      error,
      url,
      retryInMs,
    })
    this.logger.warn('Failed to deliver a webhook; will retry', {
      deliveryId,
      attempt: delivery.attempts,
      retryInMs,
      error,
    })
    return marked
  }

  /** Counts a delivered attempt; what its record says of it. */
  private delivered(delivery: ClaimedDelivery, detail: AttemptDetail): { status: number; url: string } {
    this.metrics.attempt('delivered', detail.seconds)
    this.metrics.delivered(delivery.occurredAt)
    return { status: detail.status ?? 200, url: detail.url }
  }

  private async post(delivery: ClaimedDelivery): Promise<{ result: AttemptResult; url: string }> {
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

  /** The webhook's secret (every delivery to a webhook carries the same one; opened once, SecretBox.openKept). */
  private secretOf(webhookId: string, sealed: string | null): string | undefined {
    return sealed === null ? undefined : this.box.openKept(sealed, webhookId)
  }
}
