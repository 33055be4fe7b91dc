import { randomUUID } from 'node:crypto'
import { Registry } from 'prom-client'
import { mailMetrics, type MailMetrics } from './mail-metrics'
import { Logger } from '@idplane/common'
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
/** Mails sent per round at most, each claimed on its own. */
const ROUND_SIZE = 20
/** Sent rows are kept this long (for "was it sent?" questions), then deleted. */
const SENT_RETENTION_MS = 7 * 86_400_000
const SWEEP_INTERVAL_MS = 3_600_000

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
 * The transactional mail outbox: `add()` writes mails in the caller's transaction; the relay (`start()`)
 * claims due rows, sends each through the MailTransport with its Message-ID, and marks it sent. A failed
 * send is retried on the queue's schedule (1 s, 5 s, 25 s, 2 min, 10 min), then the row is marked dead.
 *
 * Delivery: one row per key, so one mail per announced record; a crash after the transport accepted a
 * mail and before the row is marked sent re-sends that one mail once the lease ends (SMTP has no
 * exactly-once), with the same Message-ID. The file transport skips a Message-ID it already wrote, so in
 * embedded mode that duplicate does not happen at all.
 */
export class MailOutbox {
  private readonly logger: Logger
  private readonly metrics: MailMetrics
  private timer?: NodeJS.Timeout
  private running?: Promise<void>
  private isStopped = true
  private again = false
  private lastSweepAt = 0

  public constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly transport: MailTransport,
    logger: Logger,
    registry: Registry,
    private readonly options: MailOutboxOptions,
  ) {
    this.logger = logger.child({ component: 'mail-outbox' })
    this.metrics = mailMetrics(registry)
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
    this.wake(50)
  }

  /** Starts the relay; call once per process. */
  public start(): void {
    this.isStopped = false
    this.wake(0)
  }

  /** Stops the relay and waits for the round in progress (its sends finish and are marked). */
  public async stop(): Promise<void> {
    this.isStopped = true
    clearTimeout(this.timer)
    await this.running
  }

  /**
   * One round now: claims and sends what is due, one mail at a time. Resolves with how many were sent.
   * Claiming one mail per send (not a batch) means a process killed mid-round holds at most the mail it was
   * sending: a batch claim left every other claimed mail waiting for the lease (2 minutes) after a crash.
   */
  public async relayOnce(): Promise<number> {
    let sent = 0
    let claims = 0
    for (; claims < ROUND_SIZE; claims++) {
      const claimToken = randomUUID()
      const mail = await this.outbox.claimOne(claimToken, this.options.leaseSeconds)
      if (!mail) break
      if (await this.deliver(mail, claimToken)) sent += 1
    }
    await this.sweepIfDue()
    if (claims === ROUND_SIZE) this.again = true
    return sent
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
        (error: unknown) => this.logger.warn('Failed to relay mail outbox', { error }),
      )
      .finally(() => {
        this.running = undefined
        if (this.isStopped) return
        this.timer = setTimeout(() => this.round(), this.again ? 0 : this.options.pollIntervalMs)
      })
  }

  private async deliver(mail: ClaimedMail, claimToken: string): Promise<boolean> {
    const messageId = messageIdFor(mail.idempotencyKey, this.options.from)
    try {
      await this.transport.send({ ...mail.message, messageId })
    } catch (error) {
      this.metrics.failed.inc()
      const isDead = mail.attempts >= MAIL_OUTBOX_MAX_ATTEMPTS
      const delayMs = DEFAULT_RETRY_DELAYS_MS[Math.min(mail.attempts, DEFAULT_RETRY_DELAYS_MS.length) - 1] ?? 1_000
      const reason = `${(error as Error).name}: ${(error as Error).message}`.slice(0, 500)
      await this.outbox.markFailed(mail.id, claimToken, reason, Math.ceil(delayMs / 1000), isDead)
      if (isDead)
        this.logger.error('Gave up sending mail', { key: mail.idempotencyKey, attempts: mail.attempts, reason })
      else this.logger.warn('Failed to send mail', { key: mail.idempotencyKey, attempt: mail.attempts, error })
      return false
    }
    this.metrics.sent.inc()
    if (!(await this.outbox.markSent(mail.id, claimToken))) {
      this.logger.warn('Lost the claim of a sent mail; it may be sent again', { key: mail.idempotencyKey })
    }
    return true
  }

  private async sweepIfDue(): Promise<void> {
    const now = Date.now()
    if (now - this.lastSweepAt < SWEEP_INTERVAL_MS) return
    this.lastSweepAt = now
    try {
      await this.outbox.deleteSentBefore(new Date(now - SENT_RETENTION_MS))
    } catch (error) {
      this.logger.warn('Failed to delete sent mails from the outbox', { error })
    }
  }
}
