import { Registry } from 'prom-client'
import { mailMetrics, type MailMetrics } from './mail-metrics'
import { Logger } from '@idplane/common'
import type { RetentionTask } from '../retention/retention-pruner'
import {
  OutboxRelay,
  type Claimed,
  type OutboxChannel,
  type OutboxClaim,
  type OutboxFailure,
} from '../outbox/outbox-relay'
import { DEFAULT_RETRY_DELAYS_MS } from '../queue/queue'
import { MailMessage, MailTransport } from './mailer'
import { toMailMessage } from './mail.service'
import { MailOutboxRepository, type ClaimedMail } from './mail-outbox.repository'

/** @default 1000 ms between looks at the outbox when nothing woke the relay (MAIL_OUTBOX_POLL_INTERVAL_MS). */
export const DEFAULT_MAIL_OUTBOX_POLL_INTERVAL_MS = 1_000
/**
 * @default 120 s (MAIL_OUTBOX_LEASE_SECONDS): how long a claim holds a row. Longer than one SMTP
 * conversation can take (SMTP_TIMEOUTS_MS: 10 + 10 + 30 s), so a live relay never loses its claim mid-send;
 * mails claimed by a relay that died wait this long before another relay sends them.
 */
export const DEFAULT_MAIL_OUTBOX_LEASE_SECONDS = 120
/** Send attempts before a mail is marked dead (the same schedule as the queue's: about 13 minutes). */
export const MAIL_OUTBOX_MAX_ATTEMPTS = 6
/**
 * @default 7 days (MAIL_RETENTION_SECONDS): sent and dead mails are kept this long after they were written, for
 * "was it sent?" questions, then deleted by the retention pass (infra/retention).
 */
export const DEFAULT_MAIL_RETENTION_SECONDS = 7 * 86_400

export interface MailOutboxOptions {
  pollIntervalMs: number
  leaseSeconds: number
  /** MAIL_FROM: its domain is the right-hand side of the Message-IDs. */
  from: string
}

/**
 * The Message-ID of an outbox mail: derived from its idempotency key, so a mail sent twice (a crash between
 * the send and marking it sent) carries the same Message-ID both times and the duplicate is detectable.
 */
export function messageIdFor(idempotencyKey: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'idplane.local'
  // id-left must be dot-atom text (RFC 5322 3.6.4): anything else in the key becomes '.'.
  const left = idempotencyKey.replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/g, '.').replace(/\.{2,}/g, '.')
  return `<${left.replace(/^\.|\.$/g, '') || 'mail'}@${domain}>`
}

/**
 * The transactional mail outbox: `add()` writes mails in the caller's transaction; the shared outbox relay
 * (infra/outbox) claims due rows one at a time, sends each through the MailTransport with its Message-ID, and
 * marks it sent. A failed send is retried on the queue's schedule (1 s, 5 s, 25 s, 2 min, 10 min), then the row
 * is marked dead.
 *
 * Delivery: one row per key, so one mail per announced record; a crash after the transport accepted a
 * mail and before the row is marked sent re-sends that one mail once the lease ends (SMTP has no
 * exactly-once), with the same Message-ID. The file transport skips a Message-ID it already wrote, so in
 * embedded mode that duplicate does not happen at all.
 */
export class MailOutbox implements OutboxChannel<ClaimedMail, undefined> {
  private readonly logger: Logger
  private readonly metrics: MailMetrics
  private readonly relay: OutboxRelay<ClaimedMail, undefined>

  public constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly transport: MailTransport,
    logger: Logger,
    registry: Registry,
    private readonly options: MailOutboxOptions,
  ) {
    this.logger = logger.child({ component: 'mail-outbox' })
    this.metrics = mailMetrics(registry)
    // One mail at a time: a process killed mid-round then holds at most the mail it was sending.
    this.relay = new OutboxRelay(
      this,
      {
        name: 'mail',
        concurrency: 1,
        pollIntervalMs: options.pollIntervalMs,
        leaseSeconds: options.leaseSeconds,
        retry: { maxAttempts: MAIL_OUTBOX_MAX_ATTEMPTS, retryDelaysMs: DEFAULT_RETRY_DELAYS_MS },
      },
      logger,
    )
  }

  /**
   * Stores mails to send; call inside the transaction of what they announce. A key that was already added
   * adds nothing (its mail is sent once).
   * @throws InvalidInputError for a mail without recipient, subject or text
   */
  public async add(mails: readonly { idempotencyKey: string; message: MailMessage }[]): Promise<void> {
    const checked = mails.map((mail) => ({ idempotencyKey: mail.idempotencyKey, message: toMailMessage(mail.message) }))
    await this.outbox.add(checked)
    // Look soon: the caller's transaction usually commits within milliseconds; the poll catches the rest.
    this.relay.wake(50)
  }

  /** Starts the relay; call once per process. */
  public start(): void {
    this.relay.start()
  }

  /** Stops the relay and waits for the send in progress (it finishes and is marked). */
  public async stop(): Promise<void> {
    await this.relay.stop()
  }

  /** One round now: claims and sends what is due, one mail at a time. Resolves with how many were sent. */
  public relayOnce(): Promise<number> {
    return this.relay.relayOnce()
  }

  public async claimDue(claim: OutboxClaim): Promise<Claimed<ClaimedMail>> {
    const items = await this.outbox.claimDue(claim)
    // Mails have no owner limit: rows were left only when the claim took all it asked for.
    return { items, isMoreDue: items.length >= claim.max }
  }

  public async send(mail: ClaimedMail): Promise<{ isSuccess: true; detail: undefined }> {
    try {
      await this.transport.send({ ...mail.message, messageId: messageIdFor(mail.idempotencyKey, this.options.from) })
    } catch (error) {
      this.metrics.failed.inc()
      throw error
    }
    this.metrics.sent.inc()
    return { isSuccess: true, detail: undefined }
  }

  public markSent(mail: ClaimedMail, claimToken: string): Promise<boolean> {
    return this.outbox.markSent(mail.id, claimToken)
  }

  public async markFailed(mail: ClaimedMail, claimToken: string, failure: OutboxFailure<undefined>): Promise<boolean> {
    const retryInSeconds = Math.ceil(failure.retryInMs / 1000)
    const marked = await this.outbox.markFailed(mail.id, claimToken, failure.error, retryInSeconds, failure.isDead)
    if (failure.isDead) {
      this.logger.error('Gave up sending mail', {
        key: mail.idempotencyKey,
        attempts: mail.attempts,
        reason: failure.error,
      })
    } else {
      this.logger.warn('Failed to send mail', {
        key: mail.idempotencyKey,
        attempt: mail.attempts,
        error: failure.error,
      })
    }
    return marked
  }

  /** The outbox's part in the retention pass: finished mails older than `retentionSeconds` go. */
  public retentionTask(retentionSeconds: number): RetentionTask {
    return { table: 'mail_outbox', pruneBatch: (limit) => this.outbox.pruneFinished(retentionSeconds, limit) }
  }
}
