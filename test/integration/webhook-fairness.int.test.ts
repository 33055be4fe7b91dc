import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { FAST_WEBHOOK_ENV } from '../helpers/webhook-fixtures'

jest.setTimeout(120_000)

/** Stands in for the probe's receiver that answered after 15 s (shorter, so the test stays short). */
const SLOW_ANSWER_MS = 4_000
const FLOOD = 30
const OWNER_CONCURRENCY = 3
const PING_LIMIT = 40

/**
 * Issue 23, item 5: one organization's slow webhook must not delay another's. The probe saw a receiver answering
 * after 15 s, flooded with 30 pings, delay another organization's delivery by 28.5 s: the deliveries shared the
 * relay's slots first come, first served. Both on the embedded path and on PostgreSQL (the relay claims from the
 * database on both; RabbitMQ does not carry webhook deliveries).
 */
describe('webhook deliveries across organizations', () => {
  let api: TestApi
  let slowReceiver: WebhookReceiver
  let fastReceiver: WebhookReceiver
  let owner: TestUser

  const auth = () => ({ Authorization: `Bearer ${owner.token}` })
  const ping = (orgId: string) => request(api.app).post(`/webhooks/orgs/${orgId}/ping`).set(auth())
  const anOrganizationWithWebhook = async (url: string): Promise<string> => {
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app).post(`/webhooks/orgs/${orgId}/register`).set(auth()).send({ webhookUrl: url }).expect(201)
    return orgId
  }

  beforeAll(async () => {
    api = await startApi({
      ...FAST_WEBHOOK_ENV,
      // Longer than the slow answer: its deliveries succeed, slowly, as the probe's did.
      WEBHOOK_TIMEOUT_MS: '10000',
      WEBHOOK_CONCURRENCY: '10',
      WEBHOOK_OWNER_CONCURRENCY: String(OWNER_CONCURRENCY),
      RATE_LIMIT_WEBHOOK_PING_MAX: String(PING_LIMIT),
      // A fixed window as long as this keeps the test's pings in one window (windows align to the epoch).
      RATE_LIMIT_WEBHOOK_PING_WINDOW_SECONDS: '3600',
    })
    slowReceiver = await startWebhookReceiver()
    slowReceiver.slow(SLOW_ANSWER_MS)
    fastReceiver = await startWebhookReceiver()
    owner = await aUserWithToken(api)
  })

  afterAll(async () => {
    await api?.stop()
    await slowReceiver?.stop()
    await fastReceiver?.stop()
  })

  it("delivers another organization's event promptly while a slow receiver is flooded with pings", async () => {
    const slowOrg = await anOrganizationWithWebhook(`${slowReceiver.url}/slow`)
    const fastOrg = await anOrganizationWithWebhook(`${fastReceiver.url}/fast`)
    const flooded = Date.now()
    for (let index = 0; index < FLOOD; index++) expect((await ping(slowOrg)).status).toBe(201)
    // Every slot the slow organization may take is taken before the other organization's event exists.
    await slowReceiver.waitFor(() => slowReceiver.requests.length >= OWNER_CONCURRENCY, 10_000, 'the slow deliveries')

    const sent = await ping(fastOrg)
    expect(sent.status).toBe(201)
    const publishedAt = Date.now()
    const eventId = sent.body.data.eventId as string
    await fastReceiver.waitFor(() => fastReceiver.eventIds('/fast').includes(eventId), 10_000, 'the fast delivery')
    expect(Date.now() - publishedAt).toBeLessThan(2_000)

    // The slow organization never held more than its share: no more than its bound arrived per slow answer.
    const beforeFirstAnswers = slowReceiver.requests.filter(
      (received) => received.receivedAt.getTime() < flooded + SLOW_ANSWER_MS - 500,
    )
    expect(beforeFirstAnswers.length).toBeLessThanOrEqual(OWNER_CONCURRENCY)
    expect(beforeFirstAnswers.length).toBeGreaterThan(0)
  })

  it('answers 429 with Retry-After to pings past the per-organization limit', async () => {
    const orgId = await anOrganizationWithWebhook(`${fastReceiver.url}/limited`)
    for (let index = 0; index < PING_LIMIT; index++) expect((await ping(orgId)).status).toBe(201)
    const refused = await ping(orgId)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.body.message).toMatch(/webhook pings/)
    // The limit is per organization: another one still pings.
    expect((await ping(await anOrganizationWithWebhook(`${fastReceiver.url}/other`))).status).toBe(201)
  })
})
