import { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** One mail as the capture server received it, with a minimal MIME decoding of its body. */
export interface CapturedMail {
  /** Envelope sender (MAIL FROM). */
  from: string
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[]
  subject: string
  /** The text/plain part (or the whole body of a single-part text mail), decoded. */
  text: string
  html?: string
  /** Header names lower-cased; values unfolded, encoded words decoded. */
  headers: Record<string, string>
  raw: string
  /** The user the client logged in as, if it did. */
  user?: string
}

export interface SmtpCapture {
  /** smtp://127.0.0.1:<port>, with the credentials when the capture was started with some. */
  url: string
  port: number
  messages: CapturedMail[]
  /** RCPT TO commands refused while rejecting. */
  rejected: number
  /**
   * Resolves with the newest mail to `to` once at least `count` (default 1) mails to it arrived.
   * @throws Error after `timeoutMs` (default 5000)
   */
  waitForMail(to: string, options?: { timeoutMs?: number; count?: number }): Promise<CapturedMail>
  /** From now on refuse every recipient with a temporary 451 error (a client should retry later). */
  rejectDeliveries(): void
  acceptDeliveries(): void
  stop(): Promise<void>
}

/**
 * A real SMTP server on 127.0.0.1 and a free port that keeps every mail in memory, for tests of the mail
 * path (SMTP_URL=capture.url). No STARTTLS; AUTH is optional, and checked when credentials are given.
 */
export async function startSmtpCapture(options: { user?: string; password?: string } = {}): Promise<SmtpCapture> {
  const messages: CapturedMail[] = []
  const waiters = new Set<() => void>()
  let isRejecting = false
  let rejected = 0

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      const isValid =
        options.user === undefined || (auth.username === options.user && auth.password === options.password)
      if (isValid) callback(null, { user: auth.username })
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
    },
    onRcptTo(_address, _session, callback) {
      if (isRejecting) {
        rejected++
        callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }))
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const envelopeFrom = session.envelope.mailFrom
        messages.push({
          ...parseMail(raw),
          from: envelopeFrom ? envelopeFrom.address : '',
          to: session.envelope.rcptTo.map((address) => address.address.toLowerCase()),
          raw,
          ...(typeof session.user === 'string' ? { user: session.user } : {}),
        })
        for (const wake of waiters) wake()
        callback()
      })
    },
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  server.on('error', () => undefined)
  const port = (server.server.address() as AddressInfo).port
  const credentials =
    options.user === undefined
      ? ''
      : `${encodeURIComponent(options.user)}:${encodeURIComponent(options.password ?? '')}@`

  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    port,
    messages,
    get rejected() {
      return rejected
    },
    waitForMail(to, { timeoutMs = 5_000, count = 1 } = {}) {
      const address = to.toLowerCase()
      const find = (): CapturedMail | undefined => {
        const matching = messages.filter((mail) => mail.to.includes(address))
        return matching.length >= count ? matching[matching.length - 1] : undefined
      }
      return new Promise((resolve, reject) => {
        const found = find()
        if (found) return resolve(found)
        const wake = (): void => {
          const mail = find()
          if (!mail) return
          cleanup()
          resolve(mail)
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`No mail to ${to} within ${timeoutMs} ms (${messages.length} captured)`))
        }, timeoutMs)
        const cleanup = (): void => {
          clearTimeout(timer)
          waiters.delete(wake)
        }
        waiters.add(wake)
      })
    },
    rejectDeliveries() {
      isRejecting = true
    },
    acceptDeliveries() {
      isRejecting = false
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

interface ParsedPart {
  headers: Record<string, string>
  subject: string
  text: string
  html?: string
}

/** Just enough MIME for what nodemailer writes: headers, multipart, quoted-printable, base64, encoded words. */
export function parseMail(raw: string): ParsedPart {
  const { headers, body } = splitHeaders(raw)
  const part = decodePart(headers, body)
  return {
    headers,
    subject: headers.subject ?? '',
    text: part.text ?? '',
    ...(part.html === undefined ? {} : { html: part.html }),
  }
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw)
  const head = match ? raw.slice(0, match.index) : raw
  const body = match ? raw.slice(match.index + match[0].length) : ''
  const headers: Record<string, string> = {}
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeEncodedWords(line.slice(colon + 1).trim())
  }
  return { headers, body }
}

function decodePart(headers: Record<string, string>, body: string): { text?: string; html?: string } {
  const contentType = (headers['content-type'] ?? 'text/plain').toLowerCase()
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1]
  if (contentType.startsWith('multipart/') && boundary) {
    const result: { text?: string; html?: string } = {}
    for (const section of body.split(`--${boundary}`).slice(1)) {
      if (section.startsWith('--')) break
      const inner = splitHeaders(section.replace(/^\r?\n/, ''))
      const decoded = decodePart(inner.headers, inner.body.replace(/\r?\n$/, ''))
      result.text ??= decoded.text
      result.html ??= decoded.html
    }
    return result
  }
  const content = decodeTransfer(headers['content-transfer-encoding'] ?? '7bit', body)
  return contentType.startsWith('text/html') ? { html: content } : { text: content }
}

function decodeTransfer(encoding: string, body: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    case 'quoted-printable':
      return decodeQuotedPrintable(body)
    default:
      return body.replace(/\r?\n$/, '')
  }
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/\r?\n$/, '')
  const out: number[] = []
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(bytes.slice(i + 1, i + 3))) {
      out.push(parseInt(bytes.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      out.push(...Buffer.from(bytes[i], 'utf8'))
    }
  }
  return Buffer.from(out).toString('utf8')
}

/** RFC 2047 words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=), as nodemailer writes non-ASCII subjects. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    )
}
