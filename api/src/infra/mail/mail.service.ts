import { injectable } from 'inversify'
import { Registry } from 'prom-client'
import { mailMetrics, type MailMetrics } from './mail-metrics'
import { FieldError, InvalidInputError, Logger } from '@idplane/common'
import { ConsumeOptions, Queue, QueueMessage } from '../queue/queue'
import { MailMessage, MailTransport } from './mailer'

/** The queue outbound mail goes through; failures end in `mail.outbound.dead`. */
export const MAIL_QUEUE = 'mail.outbound'

export interface MailServiceOptions {
  /** Retry schedule of the worker. @default the queue defaults (6 attempts over about 13 minutes) */
  consume?: ConsumeOptions
  /** @default MAIL_QUEUE; tests sharing a broker use their own */
  queueName?: string
}

/**
 * Drain-only (docs/decisions.md, "Mail queue: drain only"): no production code calls enqueue(); the worker sends
 * mail queued by versions before the mail outbox (MailOutbox), which is how the platform sends mail now.
 *
 * Outbound mail: enqueue() stores the mail in the queue (so a request never waits for SMTP and a mail is
 * never lost), startWorker() sends queued mails through the MailTransport. A failed send is retried by the
 * queue and ends in `mail.outbound.dead`. Delivery is at least once: a crash between a successful send and
 * its ack sends that mail again.
 */
@injectable()
export class MailService {
  private readonly logger: Logger
  private readonly metrics: MailMetrics

  public constructor(
    private readonly queue: Queue,
    private readonly transport: MailTransport,
    logger: Logger,
    registry: Registry,
    private readonly options: MailServiceOptions = {},
  ) {
    this.logger = logger.child({ component: 'mail-service' })
    this.metrics = mailMetrics(registry)
  }

  /**
   * Queues a mail; resolves once the queue holds it.
   * @throws InvalidInputError for a mail without recipient, subject or text
   * @throws UpstreamError when the queue cannot store it
   */
  public async enqueue(message: MailMessage): Promise<void> {
    const mail = toMailMessage(message)
    const id = await this.queue.publish(this.queueName, mail)
    this.logger.debug('Queued mail', { to: mail.to, id })
  }

  /** Starts sending queued mail; call once per process after queue.start(). */
  public async startWorker(): Promise<void> {
    await this.queue.consume(this.queueName, (message) => this.deliver(message), this.options.consume)
  }

  private get queueName(): string {
    return this.options.queueName ?? MAIL_QUEUE
  }

  private async deliver(message: QueueMessage): Promise<void> {
    const mail = toMailMessage(message.payload)
    try {
      await this.transport.send(mail)
    } catch (error) {
      this.metrics.failed.inc()
      this.logger.warn('Failed to send mail', { to: mail.to, id: message.id, attempt: message.attempt, error })
      throw error
    }
    this.metrics.sent.inc()
  }
}

/**
 * Checks a mail (from a caller or from the queue) and keeps only the known fields.
 * @throws InvalidInputError
 */
export function toMailMessage(value: unknown): MailMessage {
  const record: Record<string, unknown> = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  const fields: FieldError[] = (['to', 'subject', 'text'] as const)
    .filter((field) => typeof record[field] !== 'string' || (record[field] as string).trim() === '')
    .map((field) => ({ field, message: 'must be a non-empty string' }))
  for (const field of ['html', 'from', 'messageId'] as const) {
    if (record[field] !== undefined && typeof record[field] !== 'string')
      fields.push({ field, message: 'must be a string' })
  }
  if (fields.length > 0) throw new InvalidInputError('Invalid mail message', fields)
  const { to, subject, text, html, from, messageId } = record as unknown as MailMessage
  return {
    to,
    subject,
    text,
    ...(html === undefined ? {} : { html }),
    ...(from === undefined ? {} : { from }),
    ...(messageId === undefined ? {} : { messageId }),
  }
}
