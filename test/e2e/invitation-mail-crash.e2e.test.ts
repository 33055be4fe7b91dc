import { spawn, type ChildProcess } from 'node:child_process'
import { deleteApiQueues } from '../helpers/broker'
import { freePort } from '../helpers/ports'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readLatestMail, type StoredMail } from '../../api/src/infra/mail/file-mailer'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { TEST_PASSWORD, verificationCodeOf } from '../helpers/auth-flow'

jest.setTimeout(240_000)

/**
 * Issue 8, Part 2 item 6: the built API killed (SIGKILL) during a 50-address invitation and restarted must
 * leave exactly one mail per stored invitation and no mail for an invitation that was not stored. Real
 * processes on the embedded defaults (or PostgreSQL/RabbitMQ when DATABASE_URL/AMQP_URL are set), mails as
 * files (the file mailer), read back by the invitation id in their link.
 */
const MAIN = path.resolve(__dirname, '../../dist/api/src/main.js')
const BATCH = 50

interface ApiProcess {
  url: string
  child: ChildProcess
  exited: Promise<NodeJS.Signals | number | null>
}

async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env, API_GATEWAY_PORT: String(port), API_GATEWAY_HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited during start: ${stderr}`)
    const ready = await fetch(`${url}/health/ready`).then(
      (res) => res.status === 200,
      () => false,
    )
    if (ready) return { url, child, exited }
    if (Date.now() > deadline) throw new Error(`API not ready: ${stderr}`)
    await sleep(100)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function call(
  url: string,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: { data?: unknown; message?: string } }> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as { data?: unknown; message?: string } }
}

async function waitForMail(dataDir: string, email: string): Promise<StoredMail> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const mail = await readLatestMail(dataDir, email)
    if (mail) return mail
    if (Date.now() > deadline) throw new Error(`No mail for ${email}`)
    await sleep(50)
  }
}

/** Every invitation mail under the data directory, by the invitation id in its link. */
async function invitationMails(dataDir: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  const root = path.join(dataDir, 'mail')
  if (!existsSync(root)) return counts
  for (const recipient of await readdir(root)) {
    if (!recipient.startsWith('invitee-')) continue
    for (const file of await readdir(path.join(root, recipient))) {
      if (!file.endsWith('.json')) continue
      const mail = JSON.parse(await readFile(path.join(root, recipient, file), 'utf8')) as StoredMail
      const id = /invitationId=([0-9a-f-]{36})/.exec(mail.text)?.[1]
      if (id) counts.set(id, (counts.get(id) ?? 0) + 1)
    }
  }
  return counts
}

async function anyInvitationMail(dataDir: string): Promise<boolean> {
  const root = path.join(dataDir, 'mail')
  if (!existsSync(root)) return false
  for (const recipient of await readdir(root)) {
    if (recipient.startsWith('invitee-') && (await readdir(path.join(root, recipient))).length > 0) return true
  }
  return false
}

describe('invitation mail across a SIGKILL of the API', () => {
  let dataDir: string
  let database: FreshDatabase | undefined
  let env: Record<string, string>
  let api: ApiProcess | undefined

  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run make build first`)
  })

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-mail-crash-'))
    database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      QUEUE_NAME_PREFIX: `test-${randomBytes(4).toString('hex')}.`,
      // Mails a killed relay had claimed are sent again after the lease: short here, 120 s by default.
      MAIL_OUTBOX_LEASE_SECONDS: '2',
      MAIL_OUTBOX_POLL_INTERVAL_MS: '100',
      ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
    }
  })

  afterEach(async () => {
    if (api && api.child.exitCode === null && api.child.signalCode === null) {
      api.child.kill('SIGKILL')
      await api.exited
    }
    await deleteApiQueues(env?.QUEUE_NAME_PREFIX)
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  /** An owner with an organization on the running API; resolves with the token, the org and the member role. */
  async function anOwner(url: string) {
    const email = `owner-${randomBytes(4).toString('hex')}@example.test`
    expect((await call(url, 'POST', '/v1/auth/verification-mail', { email })).status).toBe(201)
    const code = verificationCodeOf(await waitForMail(dataDir, email))
    expect((await call(url, 'GET', `/v1/auth/verify?email=${email}&verificationCode=${code}`)).status).toBe(200)
    const profile = { email, firstName: 'Olive', lastName: 'Owner', password: TEST_PASSWORD }
    expect((await call(url, 'POST', '/v1/auth/signup', profile)).status).toBe(201)
    const signIn = await call(url, 'POST', '/v1/auth/signin', { email, password: TEST_PASSWORD })
    const token = (signIn.body.data as { access_token: string }).access_token
    const org = await call(url, 'POST', '/v1/orgs', { name: 'Crash Test Org', description: 'SIGKILL' }, token)
    const orgId = (org.body.data as { id: string }).id
    const roles = await call(url, 'GET', `/v1/orgs/${orgId}/roles`, undefined, token)
    const member = (roles.body.data as { id: string; name: string }[]).find((role) => role.name === 'member')
    if (!member) throw new Error('no member role')
    return { token, orgId, memberRoleId: member.id }
  }

  async function storedInvitationIds(url: string, orgId: string, token: string): Promise<string[]> {
    const res = await call(url, 'GET', `/v1/orgs/${orgId}/invitations?pageSize=100`, undefined, token)
    expect(res.status).toBe(200)
    return ((res.body.data as { data: { id: string }[] }).data ?? []).map((invitation) => invitation.id)
  }

  /** Restarts the API on the same data and waits until no mail has arrived for a while past the lease. */
  async function restartAndDrain(): Promise<ApiProcess> {
    const restarted = await startApiProcess(env)
    let last = -1
    let stableSince = Date.now()
    for (;;) {
      const total = [...(await invitationMails(dataDir)).values()].reduce((sum, n) => sum + n, 0)
      if (total !== last) {
        last = total
        stableSince = Date.now()
      }
      if (Date.now() - stableSince > 4_000) return restarted
      await sleep(200)
    }
  }

  it.each([
    ['as soon as the first invitation mail is out', 'first-mail'],
    ['shortly after the request was sent', 'early'],
  ] as const)('leaves one mail per stored invitation and none for the rest when killed %s', async (_, when) => {
    api = await startApiProcess(env)
    const owner = await anOwner(api.url)
    const invitations = Array.from({ length: BATCH }, (_, i) => ({
      email: `invitee-${i}@example.test`,
      orgRoleId: [owner.memberRoleId],
    }))

    const answer = call(api.url, 'POST', `/v1/orgs/${owner.orgId}/invitations`, { invitations }, owner.token).catch(
      () => undefined,
    )
    if (when === 'early') {
      await sleep(30)
    } else {
      const deadline = Date.now() + 30_000
      while (!(await anyInvitationMail(dataDir))) {
        if (Date.now() > deadline) throw new Error('no invitation mail appeared')
        await sleep(5)
      }
    }
    api.child.kill('SIGKILL')
    expect(await api.exited).toBe('SIGKILL')
    await answer

    api = await restartAndDrain()
    const stored = await storedInvitationIds(api.url, owner.orgId, owner.token)
    const mails = await invitationMails(dataDir)
    const unstoredMailed = [...mails.keys()].filter((id) => !stored.includes(id))
    expect(unstoredMailed).toEqual([])
    expect(stored.map((id) => [id, mails.get(id) ?? 0])).toEqual(stored.map((id) => [id, 1]))
    // The batch is one transaction: all of it or none of it.
    expect([0, BATCH]).toContain(stored.length)
  })
})
