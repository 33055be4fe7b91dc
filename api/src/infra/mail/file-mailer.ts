import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { injectable } from 'inversify'
import { Logger, UpstreamError } from '@idplane/common'
import { writeFileAtomic } from '../queue/atomic-write'
import { MailMessage, MailTransport } from './mailer'

export interface FileMailerOptions {
  /** Mails go to `<dataDir>/mail/<recipient>/`. */
  dataDir: string
  /** MAIL_FROM, used when a message has no `from`. */
  from: string
  logger: Logger
}

/** What a mail file holds (JSON, so links in `text` can be copied as they are, without MIME encoding). */
export interface StoredMail {
  id: string
  date: string
  from: string
  to: string
  subject: string
  text: string
  html?: string
  messageId?: string
}

/** 16 hex digits of the Message-ID's sha256: part of the file name, so a written Message-ID is found by name. */
function messageIdDigest(messageId: string): string {
  return createHash('sha256').update(messageId).digest('hex').slice(0, 16)
}

/**
 * Embedded-mode transport (SMTP_URL unset): each mail becomes `<dataDir>/mail/<recipient>/<time>-<seq>.json`,
 * so the newest mail for an address is the last file of its folder (`ls data/mail/alice@example.com | tail -1`,
 * or readLatestMail()).
 */
@injectable()
export class FileMailer extends MailTransport {
  private readonly logger: Logger
  private sequence = 0

  public constructor(private readonly options: FileMailerOptions) {
    super()
    this.logger = options.logger.child({ component: 'file-mailer' })
  }

  /**
   * Writes the mail; a mail whose Message-ID was written already for this recipient is skipped, so a re-sent
   * outbox mail leaves one file.
   * @throws UpstreamError when the file cannot be written
   */
  public async send(message: MailMessage): Promise<void> {
    const now = new Date()
    this.sequence = (this.sequence + 1) % 1_000_000
    const dir = mailDirectory(this.options.dataDir, message.to)
    const idSuffix = message.messageId === undefined ? '' : `-${messageIdDigest(message.messageId)}`
    if (idSuffix && (await this.hasFileEndingWith(dir, `${idSuffix}.json`))) {
      this.logger.info('Skipped mail already written', { to: message.to, messageId: message.messageId })
      return
    }
    const file = path.join(
      dir,
      `${now.toISOString().replace(/[-:.]/g, '')}-${String(this.sequence).padStart(6, '0')}${idSuffix}.json`,
    )
    const stored: StoredMail = {
      id: randomUUID(),
      date: now.toISOString(),
      from: message.from ?? this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
      ...(message.messageId === undefined ? {} : { messageId: message.messageId }),
    }
    try {
      await mkdir(dir, { recursive: true })
      await writeFileAtomic(file, JSON.stringify(stored, null, 2) + '\n')
    } catch (error) {
      throw new UpstreamError('Could not write the mail file', { cause: error })
    }
    this.logger.info('Wrote mail', { to: message.to, file })
  }

  private async hasFileEndingWith(dir: string, ending: string): Promise<boolean> {
    try {
      return (await readdir(dir)).some((name) => name.endsWith(ending))
    } catch {
      return false
    }
  }

  public async isHealthy(): Promise<boolean> {
    return true
  }

  /** The newest mail written for `to`, or undefined. */
  public readLatest(to: string): Promise<StoredMail | undefined> {
    return readLatestMail(this.options.dataDir, to)
  }
}

/** The folder of one recipient: lower-cased, with anything but [a-z0-9@._+-] replaced by '_'. */
export function mailDirectory(dataDir: string, to: string): string {
  const name =
    to
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9@._+-]/g, '_')
      .replace(/^\.+/, '_') || '_'
  return path.join(dataDir, 'mail', name)
}

/** Reads the newest mail FileMailer wrote for `to` under `dataDir`, or undefined when there is none. */
export async function readLatestMail(dataDir: string, to: string): Promise<StoredMail | undefined> {
  const dir = mailDirectory(dataDir, to)
  let files: string[]
  try {
    files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort()
  } catch {
    return undefined
  }
  const latest = files.at(-1)
  return latest ? (JSON.parse(await readFile(path.join(dir, latest), 'utf8')) as StoredMail) : undefined
}
