import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { deleteApiQueues } from '../helpers/broker'
import { freePort } from '../helpers/ports'
import { readLatestMail, type StoredMail } from '../../api/src/infra/mail/file-mailer'
import { spawnApi, type ApiProcess } from '../helpers/api-process'
import { TEST_PASSWORD, verificationCodeOf } from '../helpers/auth-flow'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

jest.setTimeout(240_000)

const MAIN = path.resolve(__dirname, '../../dist/api/src/main.js')
const SECRET = 'crash-test-secret-0123456789'
const RETRY_DELAYS_MS = [200, 400, 800]
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
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as { data?: unknown; message?: string } }
}

/**
 * Issue 10, item 7: nothing is lost when the API is killed with deliveries pending. The built API as a real
 * process (embedded defaults, or PostgreSQL/RabbitMQ when DATABASE_URL/AMQP_URL are set) is SIGKILLed while
 * webhook deliveries are queued, in flight or waiting for a retry, then started again on the same data: the
 * receiver gets every event, with a valid signature.
 */
describe('webhook deliveries across a SIGKILL of the API', () => {
  let dataDir: string
  let database: FreshDatabase | undefined
  let env: Record<string, string>
  let api: ApiProcess | undefined
  let receiver: WebhookReceiver
  let port: number

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run make build first`)
    receiver = await startWebhookReceiver()
    dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-webhook-crash-'))
    database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    port = await freePort()
    env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      QUEUE_NAME_PREFIX: `test-${randomBytes(4).toString('hex')}.`,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: RETRY_DELAYS_MS.join(','),
      WEBHOOK_MAX_ATTEMPTS: '40',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RELAY_INTERVAL_MS: '200',
      ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
    }
  })

  afterAll(async () => {
    await api?.kill('SIGKILL')
    await receiver?.stop()
    await deleteApiQueues(env?.QUEUE_NAME_PREFIX)
    await database?.drop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  /** The API process of the moment (the tests replace it when they restart it). */
  function running(): ApiProcess {
    if (!api) throw new Error('The API is not running')
    return api
  }

  async function waitForMail(email: string): Promise<StoredMail> {
    const deadline = Date.now() + 20_000
    for (;;) {
      const mail = await readLatestMail(dataDir, email)
      if (mail) return mail
      if (Date.now() > deadline) throw new Error(`No mail for ${email}`)
      await sleep(50)
    }
  }

  /** An owner with an organization whose webhook points at the receiver, through the API's own routes. */
  async function anOrganizationWithWebhook(url: string): Promise<{ token: string; orgId: string; hookPath: string }> {
    const email = `owner-${randomBytes(4).toString('hex')}@example.test`
    expect((await call(url, 'POST', '/v1/auth/verification-mail', { email })).status).toBe(201)
    const code = verificationCodeOf(await waitForMail(email))
    expect((await call(url, 'GET', `/v1/auth/verify?email=${email}&verificationCode=${code}`)).status).toBe(200)
    const profile = { email, firstName: 'Wanda', lastName: 'Webhook', password: TEST_PASSWORD }
    expect((await call(url, 'POST', '/v1/auth/signup', profile)).status).toBe(201)
    const signIn = await call(url, 'POST', '/v1/auth/signin', { email, password: TEST_PASSWORD })
    const token = (signIn.body.data as { access_token: string }).access_token
    const org = await call(url, 'POST', '/v1/orgs', { name: 'Webhook Crash Org', description: 'SIGKILL' }, token)
    const orgId = (org.body.data as { id: string }).id
    const hookPath = `/crash-${orgId}`
    receiver.setSecret(hookPath, SECRET)
    const registered = await call(
      url,
      'POST',
      `/v1/webhooks/orgs/${orgId}/register`,
      { webhookUrl: `${receiver.url}${hookPath}`, webhookSecret: SECRET },
      token,
    )
    expect(registered.status).toBe(201)
    return { token, orgId, hookPath }
  }

  /** Publishes `count` events (the ping extension publishes through ModuleRegistry.publish in a transaction). */
  async function ping(url: string, orgId: string, token: string, count: number): Promise<string[]> {
    const ids: string[] = []
    for (let index = 0; index < count; index++) {
      const res = await call(url, 'POST', `/v1/webhooks/orgs/${orgId}/ping`, undefined, token)
      expect(res.status).toBe(201)
      ids.push((res.body.data as { eventId: string }).eventId)
    }
    return ids
  }

  async function deliveryStatuses(url: string, orgId: string, token: string) {
    const res = await call(url, 'GET', `/v1/webhooks/orgs/${orgId}/deliveries?pageSize=100`, undefined, token)
    expect(res.status).toBe(200)
    return (res.body.data as { data: { eventId: string; status: string; attempts: number }[] }).data
  }

  it('delivers every event published before the kill, queued or in flight, after the restart', async () => {
    api = await spawnApi(port, env)
    const { token, orgId, hookPath } = await anOrganizationWithWebhook(api.url)
    // A slow receiver keeps deliveries in flight: at the kill some are done, some in flight, some queued.
    receiver.slow(400)
    let ids: string[] = []
    try {
      ids = await ping(api.url, orgId, token, 30)
      await api.kill('SIGKILL')
    } finally {
      receiver.slow(0)
    }
    const before = receiver.eventIds(hookPath).length
    expect(before).toBeLessThan(30)
    api = await spawnApi(port, env)
    await receiver.waitFor(() => ids.every((id) => receiver.eventIds(hookPath).includes(id)), 60_000, 'all 30 events')
    expect(receiver.badSignatures()).toEqual([])
    expect(receiver.eventIds(hookPath).sort()).toEqual([...ids].sort())
    const statuses = await deliveryStatuses(api.url, orgId, token)
    await waitUntil(async () =>
      (await deliveryStatuses(running().url, orgId, token)).every((item) => item.status === 'delivered'),
    )
    expect(statuses).toHaveLength(30)
  })

  it('delivers events whose receiver was down, waiting for retries, when the API was killed', async () => {
    const { token, orgId, hookPath } = await anOrganizationWithWebhook(running().url)
    await receiver.goDown()
    let ids: string[] = []
    try {
      ids = await ping(running().url, orgId, token, 10)
      await waitUntil(async () => {
        const items = await deliveryStatuses(running().url, orgId, token)
        return items.length === 10 && items.every((item) => item.status === 'pending' && item.attempts >= 2)
      })
      await running().kill('SIGKILL')
    } finally {
      await receiver.comeBack()
    }
    api = await spawnApi(port, env)
    await receiver.waitFor(() => ids.every((id) => receiver.eventIds(hookPath).includes(id)), 60_000, 'all 10 events')
    expect(receiver.badSignatures()).toEqual([])
    await waitUntil(async () =>
      (await deliveryStatuses(running().url, orgId, token)).every((item) => item.status === 'delivered'),
    )
    // At least once: a delivery killed between its POST and recording it may come twice; here none was in flight.
    expect(receiver.duplicates(hookPath)).toEqual([])
  })
})

async function waitUntil(probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await sleep(200)
  }
}
