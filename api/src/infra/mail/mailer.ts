/** One outbound mail. `from` falls back to MAIL_FROM; `to` is a single address. */
export interface MailMessage {
  to: string
  subject: string
  text: string
  html?: string
  from?: string
  /** `<left@domain>`; the outbox sets it from the mail's idempotency key, so a re-sent mail can be recognized. */
  messageId?: string
}

/**
 * Where mail goes: SmtpMailer (SMTP_URL set) or FileMailer (embedded mode, files under the data
 * directory). Callers use MailOutbox, whose relay sends through this transport (as does the drain-only MailService).
 */
export abstract class MailTransport {
  /**
   * Delivers one mail.
   * @throws UpstreamError when the mail could not be handed over (the queue then retries it)
   */
  public abstract send(message: MailMessage): Promise<void>

  /** Whether the transport can deliver now (SMTP: the server answers and accepts our login). */
  public abstract isHealthy?(): Promise<boolean>

  /** Releases connections; optional. */
  public close?(): Promise<void>
}
