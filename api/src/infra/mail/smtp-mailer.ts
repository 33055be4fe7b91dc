import { injectable } from 'inversify'
import { createTransport } from 'nodemailer'
import { Logger, UpstreamError } from '@idplane/common'
import { MailMessage, MailTransport } from './mailer'

/** Bounds on one SMTP conversation, so a stuck server fails the send (and the queue retries it). */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port (STARTTLS when offered) or smtps://... (TLS); never logged. */
  url: string
  /** MAIL_FROM, used when a message has no `from`. */
  from: string
  logger: Logger
}

/**
 * Sends mail through an SMTP server (SMTP_URL set). One connection per mail: mail volume is low and this
 * leaves nothing open between sends.
 */
@injectable()
export class SmtpMailer extends MailTransport {
  private readonly transporter: ReturnType<typeof createTransport>
  private readonly logger: Logger

  public constructor(private readonly options: SmtpMailerOptions) {
    super()
    this.logger = options.logger.child({ component: 'smtp-mailer', server: describeSmtpServer(options.url) })
    this.transporter = createTransport({
      url: options.url,
      connectionTimeout: SMTP_TIMEOUTS_MS.connection,
      greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
      socketTimeout: SMTP_TIMEOUTS_MS.socket,
    })
  }

  /** @throws UpstreamError when the SMTP server refused or could not be reached */
  public async send(message: MailMessage): Promise<void> {
    let messageId: string | undefined
    try {
      const info = await this.transporter.sendMail({
        from: message.from ?? this.options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
        ...(message.messageId === undefined ? {} : { messageId: message.messageId }),
      })
      messageId = info.messageId
    } catch (error) {
      throw new UpstreamError('SMTP server did not accept the mail', { cause: error })
    }
    this.logger.info('Sent mail', { to: message.to, messageId })
  }

  /**
   * Connects and logs in once, for a start-up check.
   * @throws UpstreamError
   */
  public async verify(): Promise<void> {
    try {
      await this.transporter.verify()
    } catch (error) {
      throw new UpstreamError('SMTP server cannot be used', { cause: error })
    }
  }

  public async isHealthy(): Promise<boolean> {
    return this.verify().then(
      () => true,
      () => false,
    )
  }

  public override async close(): Promise<void> {
    this.transporter.close()
  }
}

/** protocol://host:port without credentials, for logs. */
export function describeSmtpServer(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return 'invalid-url'
  }
}
