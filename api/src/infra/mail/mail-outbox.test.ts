import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Registry } from 'prom-client'
import { UpstreamError, silentLogger } from '@idplane/common'
import { FileMailer, mailDirectory } from './file-mailer'
import { MailOutbox, messageIdFor } from './mail-outbox'
import type { ClaimedMail, MailOutboxRepository } from './mail-outbox.repository'
import { MailMessage, MailTransport } from './mailer'

/** The outbox table's rules in memory: one row per key, claims by token. */
class InMemoryOutbox
  implements Pick<MailOutboxRepository, 'add' | 'claimDue' | 'markSent' | 'markFailed' | 'pruneFinished'>
{
  public readonly rows: (ClaimedMail & { status: string; claimToken?: string; retryIn?: number; error?: string })[] = []

  public async add(entries: readonly { idempotencyKey: string; message: MailMessage }[]): Promise<void> {
    for (const entry of entries) {
      if (this.rows.some((row) => row.idempotencyKey === entry.idempotencyKey)) continue
      this.rows.push({ id: `row-${this.rows.length}`, ...entry, attempts: 0, status: 'pending' })
    }
  }

  public async claimDue(claim: { token: string; max: number }): Promise<ClaimedMail[]> {
    const due = this.rows.filter((row) => row.status === 'pending' && !row.claimToken && row.retryIn === undefined)
    return due.slice(0, claim.max).map((row) => {
      row.claimToken = claim.token
      row.attempts += 1
      return { id: row.id, idempotencyKey: row.idempotencyKey, message: row.message, attempts: row.attempts }
    })
  }

  public async markSent(id: string, claimToken: string): Promise<boolean> {
    const row = this.rows.find((candidate) => candidate.id === id && candidate.claimToken === claimToken)
    if (!row) return false
    row.status = 'sent'
    row.claimToken = undefined
    return true
  }

  public async markFailed(id: string, claimToken: string, error: string, retryIn: number, isDead: boolean) {
    const row = this.rows.find((candidate) => candidate.id === id && candidate.claimToken === claimToken)
    if (!row) return false
    Object.assign(row, { status: isDead ? 'dead' : 'pending', claimToken: undefined, retryIn, error })
    return true
  }

  public async pruneFinished(): Promise<number> {
    return 0
  }
}

class ScriptedTransport extends MailTransport {
  public readonly sent: MailMessage[] = []
  public failures = 0
  /** Called as each send starts, before it completes. */
  public onSend?: () => void

  public async send(message: MailMessage): Promise<void> {
    this.onSend?.()
    if (this.failures > 0) {
      this.failures -= 1
      throw new UpstreamError('SMTP server did not accept the mail')
    }
    this.sent.push(message)
  }

  public async isHealthy(): Promise<boolean> {
    return true
  }
}

const FROM = 'idplane <no-reply@mail.example.test>'
const mail = (to: string): MailMessage => ({ to, subject: 'Hello', text: 'Body' })

describe('MailOutbox', () => {
  let rows: InMemoryOutbox
  let transport: ScriptedTransport
  let sut: MailOutbox

  beforeEach(() => {
    rows = new InMemoryOutbox()
    transport = new ScriptedTransport()
    sut = new MailOutbox(rows as unknown as MailOutboxRepository, transport, silentLogger, new Registry(), {
      pollIntervalMs: 1000,
      leaseSeconds: 120,
      from: FROM,
    })
  })

  it('sends each key once, with a Message-ID derived from the key, and marks it sent', async () => {
    await sut.add([{ idempotencyKey: 'invitation:1', message: mail('a@example.test') }])
    await sut.add([{ idempotencyKey: 'invitation:1', message: mail('a@example.test') }])
    expect(await sut.relayOnce()).toBe(1)
    expect(await sut.relayOnce()).toBe(0)
    expect(transport.sent).toEqual([{ ...mail('a@example.test'), messageId: '<invitation.1@mail.example.test>' }])
    expect(rows.rows[0]?.status).toBe('sent')
  })

  it('releases a failed send for a later retry, and marks it dead after the last attempt', async () => {
    await sut.add([{ idempotencyKey: 'verification:7', message: mail('b@example.test') }])
    transport.failures = 100
    await sut.relayOnce()
    expect(rows.rows[0]).toMatchObject({ status: 'pending', retryIn: 1, attempts: 1 })
    expect(rows.rows[0]?.error).toMatch(/^UpstreamError: /)
    for (let attempt = 2; attempt <= 6; attempt++) {
      delete rows.rows[0]?.retryIn
      await sut.relayOnce()
    }
    expect(rows.rows[0]).toMatchObject({ status: 'dead', attempts: 6 })
  })

  it('holds a claim only on the mail it is sending, so a process killed mid-round strands one mail at most', async () => {
    await sut.add(
      ['d', 'e', 'f'].map((name) => ({ idempotencyKey: `k:${name}`, message: mail(`${name}@example.test`) })),
    )
    const claimedDuringSends: number[] = []
    transport.onSend = () => claimedDuringSends.push(rows.rows.filter((row) => row.claimToken).length)
    transport.failures = 1
    expect(await sut.relayOnce()).toBe(2)
    expect(claimedDuringSends).toEqual([1, 1, 1])
    expect(rows.rows.map((row) => row.status)).toEqual(['pending', 'sent', 'sent'])
  })

  it('refuses a mail without recipient before storing anything', async () => {
    await expect(sut.add([{ idempotencyKey: 'k', message: { to: '', subject: 's', text: 't' } }])).rejects.toThrow(
      'Invalid mail message',
    )
    expect(rows.rows).toHaveLength(0)
  })
})

describe('messageIdFor', () => {
  it.each([
    ['invitation:3f2c', 'idplane <no-reply@idplane.example>', '<invitation.3f2c@idplane.example>'],
    ['account-exists:x y', 'no-reply@a.b', '<account-exists.x.y@a.b>'],
    ['k', 'no address', '<k@idplane.local>'],
  ])('%j from %j is %j', (key, from, expected) => {
    expect(messageIdFor(key, from)).toBe(expected)
  })
})

describe('FileMailer and Message-IDs', () => {
  let dataDir: string

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-file-mailer-'))
  })

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('writes a Message-ID once: a re-sent outbox mail leaves one file', async () => {
    const mailer = new FileMailer({ dataDir, from: FROM, logger: silentLogger })
    const message = { ...mail('c@example.test'), messageId: '<invitation.9@mail.example.test>' }
    await mailer.send(message)
    await mailer.send(message)
    await mailer.send(mail('c@example.test'))
    await mailer.send(mail('c@example.test'))
    expect(readdirSync(mailDirectory(dataDir, 'c@example.test'))).toHaveLength(3)
    expect((await mailer.readLatest('c@example.test'))?.subject).toBe('Hello')
  })
})
