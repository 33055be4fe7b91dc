import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { deleteApiQueues } from '../helpers/broker'
import { claimAgentPorts, freePort } from '../helpers/ports'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { spawnAgent, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { spawnApi, type ApiProcess } from '../helpers/api-process'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'

jest.setTimeout(600_000)

/**
 * Issue 14, "How it is checked": template download → 50 rows (5 invalid) → upload → the summary names the invalid
 * rows → execute the valid ones → the API process is killed with SIGKILL in the middle of the execution and
 * restarted → it finishes the rest → every recipient has exactly one mail (real SMTP capture) whose link a holder
 * agent process follows to receive the credential. Build first (`node scripts/build.mjs`). Embedded defaults, or
 * PostgreSQL/RabbitMQ when DATABASE_URL/AMQP_URL are set.
 */
const ROWS = 50
const INVALID_ROWS = new Set([7, 19, 23, 38, 51])
const PASSWORD = 'correct-horse-42'

interface Envelope<T> {
  statusCode: number
  message: string
  data: T
}

describe('bulk issuance end to end, with a SIGKILL in the middle of the execution', () => {
  let smtp: SmtpCapture
  let database: FreshDatabase | undefined
  let dataDir: string
  let api: ApiProcess | undefined
  let holder: SpawnedAgent | undefined
  let env: Record<string, string>
  let port: number

  beforeAll(async () => {
    smtp = await startSmtpCapture()
    database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    dataDir = mkdtempSync(path.join(tmpdir(), 'bulk-e2e-'))
    port = await freePort()
    env = {
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      API_PUBLIC_URL: `http://127.0.0.1:${port}`,
      QUEUE_NAME_PREFIX: `e2e-bulk-${randomBytes(3).toString('hex')}.`,
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      AGENT_POLL_ATTEMPTS: '300',
      AGENT_POLL_INTERVAL_MS: '500',
      BULK_CONCURRENCY: '2',
      // The mail in flight at the kill is sent again once its lease ends: 10 s instead of 2 minutes.
      MAIL_OUTBOX_LEASE_SECONDS: '10',
      LOG_LEVEL: 'warn',
      ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
    }
    api = await spawnApi(port, env)
    holder = await spawnAgent({ label: 'bulk-holder' })
  }, 180_000)

  afterAll(async () => {
    await api?.kill('SIGTERM')
    await holder?.stop()
    await smtp?.stop()
    await deleteApiQueues(env?.QUEUE_NAME_PREFIX)
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }, 120_000)

  async function call<T>(
    method: string,
    route: string,
    token?: string,
    body?: unknown,
  ): Promise<{ status: number; body: Envelope<T> }> {
    const res = await fetch(`http://127.0.0.1:${port}${route}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: (text.startsWith('{') ? JSON.parse(text) : { data: text }) as Envelope<T> }
  }

  async function signUpOwner(): Promise<{ token: string; orgId: string }> {
    const email = `owner-${randomUUID().slice(0, 8)}@example.test`
    expect((await call('POST', '/v1/auth/verification-mail', undefined, { email })).status).toBe(201)
    const mail = await smtp.waitForMail(email, { timeoutMs: 20_000 })
    const code = /verificationCode=(\d+)/.exec(mail.text)?.[1]
    expect(
      (await call('GET', `/v1/auth/verify?email=${encodeURIComponent(email)}&verificationCode=${code}`)).status,
    ).toBe(200)
    const profile = { email, firstName: 'Bulk', lastName: 'Owner', password: PASSWORD, isEmailVerified: true }
    expect((await call('POST', '/v1/auth/signup', undefined, profile)).status).toBe(201)
    const signIn = await call<{ access_token: string }>('POST', '/v1/auth/signin', undefined, {
      email,
      password: PASSWORD,
    })
    const token = (signIn.body as unknown as { data: { access_token: string } }).data.access_token
    const org = await call<{ id: string }>('POST', '/v1/orgs', token, {
      name: 'Bulk Org',
      description: 'bulk issuance',
    })
    expect(org.status).toBe(201)
    return { token, orgId: org.body.data.id }
  }

  it('issues 45 of 50 rows with one mail each, across a SIGKILL, and a holder receives every credential', async () => {
    const { token, orgId } = await signUpOwner()
    expect(
      (await call('POST', `/v1/orgs/${orgId}/agents/spinup`, token, { label: 'Bulk Org', method: 'key' })).status,
    ).toBe(201)
    await waitUntil(async () => {
      const health = await call<{ status: string }>('GET', `/v1/orgs/${orgId}/agents/health`, token)
      if (health.body.data.status === 'FAILED') throw new Error('The organization agent failed')
      return health.body.data.status === 'DID_CREATED' ? true : undefined
    }, 150_000)
    const schema = await call<{ id: string }>('POST', `/v1/orgs/${orgId}/schemas`, token, {
      type: 'JSON',
      schemaPayload: {
        schemaName: 'Event ticket',
        schemaType: 'NO_LEDGER',
        attributes: [
          {
            attributeName: 'holderName',
            displayName: 'Name',
            schemaDataType: 'string',
            isRequired: true,
            maxLength: 60,
          },
          { attributeName: 'seat', displayName: 'Seat', schemaDataType: 'integer', isRequired: true, minimum: 1 },
          { attributeName: 'vip', displayName: 'VIP', schemaDataType: 'boolean', isRequired: false },
        ],
      },
    })
    expect(schema.status).toBe(201)
    const templateId = schema.body.data.id

    // Template download, then the file a spreadsheet user would save: 50 rows, 5 of them invalid.
    const template = await fetch(`http://127.0.0.1:${port}/v1/orgs/${orgId}/credentials/bulk/template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateId, schemaType: 'W3C' }),
    })
    expect(template.status).toBe(201)
    expect(template.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/)
    const header = (await template.text()).trim()
    expect(header).toBe('email,holderName,seat,vip')
    const tag = randomBytes(3).toString('hex')
    const address = (row: number) => `ticket-${tag}-${row}@example.test`
    const lines = [header]
    for (let row = 2; row <= ROWS + 1; row++) {
      if (row === 7) lines.push(`not-an-address,Guest ${row},${row},true`)
      else if (row === 19) lines.push(`${address(row)},,${row},false`)
      else if (row === 23) lines.push(`${address(row)},Guest ${row},0,false`)
      else if (row === 38) lines.push(`${address(row)},Guest ${row},twelve,`)
      else if (row === 51) lines.push(`${address(row)},Guest ${row},${row},perhaps`)
      else lines.push(`${address(row)},"Guest ${row}, ""the"" fan",${row},${row % 2 === 0}`)
    }
    const form = new FormData()
    form.append('file', new Blob([`\uFEFF${lines.join('\r\n')}\r\n`], { type: 'text/csv' }), 'tickets.csv')
    const uploaded = await fetch(
      `http://127.0.0.1:${port}/v1/orgs/${orgId}/bulk/upload?schemaType=W3C&templateId=${templateId}`,
      { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form },
    )
    expect(uploaded.status).toBe(201)
    const summary = (
      (await uploaded.json()) as Envelope<{
        requestId: string
        rows: number
        valid: number
        invalid: { count: number; rows: { row: number; column: string }[] }
      }>
    ).data
    expect(summary).toMatchObject({
      rows: ROWS,
      valid: ROWS - INVALID_ROWS.size,
      invalid: { count: INVALID_ROWS.size },
    })
    expect(summary.invalid.rows.map((problem) => [problem.row, problem.column])).toEqual([
      [7, 'email'],
      [19, 'holderName'],
      [23, 'seat'],
      [38, 'seat'],
      [51, 'vip'],
    ])

    // Execute, and kill the API with SIGKILL once some rows are sent and some are not.
    const execution = await call<{ queuedNow: number }>('POST', `/v1/orgs/${orgId}/${summary.requestId}/bulk`, token, {
      platformName: 'Ticket platform',
      organizationLogoUrl: 'https://example.test/logo.png',
    })
    expect(execution.status).toBe(201)
    expect(execution.body.data.queuedNow).toBe(ROWS - INVALID_ROWS.size)
    const sentBeforeKill = await waitUntil(async () => {
      const progress = await call<{ counts: { sent: number } }>(
        'GET',
        `/v1/orgs/${orgId}/bulk/${summary.requestId}`,
        token,
      )
      const sent = progress.body.data.counts.sent
      return sent >= 5 ? sent : undefined
    }, 120_000)
    if (!api) throw new Error('The API is not running')
    await api.kill('SIGKILL')
    expect(sentBeforeKill).toBeLessThan(ROWS - INVALID_ROWS.size)
    api = await spawnApi(port, env)

    const done = await waitUntil(async () => {
      const progress = await call<{ status: string; counts: Record<string, number> }>(
        'GET',
        `/v1/orgs/${orgId}/bulk/${summary.requestId}`,
        token,
      )
      return progress.body.data.status === 'completed' ? progress.body.data : undefined
    }, 300_000)
    expect(done.counts).toEqual({ invalid: 5, pending: 0, queued: 0, sent: ROWS - INVALID_ROWS.size, failed: 0 })

    // One mail per valid recipient (after the relay had time for duplicates), none for the invalid rows. SMTP has
    // no exactly-once: a kill in the milliseconds between the server accepting a mail and the outbox row being
    // marked sent sends that one mail again after the lease, with the same Message-ID (docs/decisions.md, Mail
    // outbox). So: one Message-ID per recipient, and a second copy of it for at most the one mail in flight.
    const valid = Array.from({ length: ROWS }, (_, index) => index + 2).filter((row) => !INVALID_ROWS.has(row))
    await waitUntil(
      async () =>
        valid.every((row) => smtp.messages.some((mail) => mail.to.includes(address(row)))) ? true : undefined,
      120_000,
    )
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const copiesByRow = valid.map((row) => {
      const mails = smtp.messages.filter((mail) => mail.to.includes(address(row)))
      return { row, messageIds: [...new Set(mails.map((mail) => mail.headers['message-id']))], copies: mails.length }
    })
    for (const copies of copiesByRow)
      expect(copies).toEqual({
        row: copies.row,
        messageIds: [expect.stringContaining(`bulk-issuance.${summary.requestId}.${copies.row}@`)],
        copies: expect.any(Number),
      })
    const resent = copiesByRow.filter((copies) => copies.copies > 1)
    expect(
      resent.length <= 1 && resent.every((copies) => copies.copies === 2) ? 'at most the mail in flight' : resent,
    ).toBe('at most the mail in flight')
    for (const row of [19, 23, 38, 51]) expect(smtp.messages.some((mail) => mail.to.includes(address(row)))).toBe(false)

    // The holder follows every mailed link and receives the credential.
    const wallet = holder
    if (!wallet) throw new Error('No holder agent')
    const holderDid = (await wallet.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did
    const queue = [...valid]
    const receive = async () => {
      for (let row = queue.shift(); row !== undefined; row = queue.shift()) {
        const mail = smtp.messages.find((candidate) => candidate.to.includes(address(row)))
        if (!mail) throw new Error(`No mail for row ${row}`)
        expect(mail.html).toContain('https://example.test/logo.png')
        const link = /(http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
        expect(link).toBeDefined()
        const received = await wallet.call<Envelope<{ outOfBandRecord: { id: string } }>>(
          'POST',
          '/oob/receive-invitation-url',
          {
            invitationUrl: link,
            autoAcceptConnection: true,
            autoAcceptInvitation: true,
          },
        )
        expect(received.status).toBe(201)
        const offer = await waitUntil(async () => {
          const list = await wallet.call<Envelope<{ id: string; state: string; connectionId?: string }[]>>(
            'GET',
            '/credentials?state=offer-received',
          )
          const records = list.body.data
          for (const record of records) {
            const formData = await wallet.call<
              Envelope<{ offer?: { jsonld?: { credential?: { credentialSubject?: { seat?: number } } } } }>
            >('GET', `/credentials/${record.id}/form-data`)
            if (formData.body.data.offer?.jsonld?.credential?.credentialSubject?.seat === row) return record
          }
          return undefined
        }, 60_000)
        const accepted = await wallet.call('POST', '/credentials/accept-offer', {
          credentialRecordId: offer.id,
          credentialFormats: { jsonld: { credentialSubjectId: holderDid } },
        })
        expect(accepted.status).toBe(201)
        await waitUntil(async () => {
          const record = await wallet.call<Envelope<{ state: string }>>('GET', `/credentials/${offer.id}`)
          return record.body.data.state === 'done' ? true : undefined
        }, 60_000)
      }
    }
    await Promise.all([receive(), receive(), receive()])
    const issued = await call<{ totalItems: number; data: { state: string }[] }>(
      'GET',
      `/v1/orgs/${orgId}/credentials?pageSize=100&searchByText=${tag}`,
      token,
    )
    expect(issued.body.data.totalItems).toBe(valid.length)
    await waitUntil(async () => {
      const list = await call<{ data: { state: string }[] }>(
        'GET',
        `/v1/orgs/${orgId}/credentials?pageSize=100&searchByText=${tag}`,
        token,
      )
      return list.body.data.data.every((record) => record.state === 'done') ? true : undefined
    }, 60_000)
  })
})
