import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { Logger } from '@idplane/common'
import { hashToken, randomSecret } from '../../api/src/infra/crypto/token-hash'
import { ModuleRegistry } from '../../api/src/infra/module-registry'
import { platformEvent } from '../../api/src/infra/platform-events'
import { OrgAgent } from '../../api/src/modules/agents/org-agent.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { WebhooksService } from '../../api/src/modules/webhooks/webhooks.service'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { FAST_WEBHOOK_ENV, publishEvents } from '../helpers/webhook-fixtures'

jest.setTimeout(120_000)

const RETRY_DELAYS_MS = [100, 200, 400, 800, 1600]
const MAX_ATTEMPTS = 7
const SECRET = 'a-webhook-secret-of-32-characters'

interface DeliveryItem {
  id: string
  eventId: string
  eventType: string
  target: string
  targetUrl: string
  status: string
  attempts: number
  lastResponseCode: number | null
}

/** Issue 10, item 7: webhook registration, reading, changing, and delivery of platform events through the queue. */
describe('webhooks', () => {
  let api: TestApi
  let receiver: WebhookReceiver
  let owner: TestUser
  let orgId: string

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` })
  const register = (org: string, token: string, body: object) =>
    request(api.app).post(`/v1/webhooks/orgs/${org}/register`).set(auth(token)).send(body)
  const deliveries = async (org: string, query = ''): Promise<DeliveryItem[]> => {
    const res = await request(api.app)
      .get(`/v1/webhooks/orgs/${org}/deliveries?pageSize=100${query}`)
      .set(auth(owner.token))
    expect({ status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ status: 200 })
    return res.body.data.data as DeliveryItem[]
  }
  const setNotificationWebhook = async (org: string, url: string) => {
    // The organization DTO requires a top-level domain; the receiver listens on 127.0.0.1.
    const em = api.runtime.container.get(EntityManager).fork()
    await em.nativeUpdate(Organization, { id: org }, { notificationWebhook: url })
  }

  beforeAll(async () => {
    api = await startApi({
      ...FAST_WEBHOOK_ENV,
      WEBHOOK_RETRY_DELAYS_MS: RETRY_DELAYS_MS.join(','),
      WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    })
    receiver = await startWebhookReceiver()
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  })

  afterAll(async () => {
    await receiver?.stop()
    await api?.stop()
  })

  describe('registration', () => {
    it('registers with 201, returns the record without the secret, and stores the secret sealed', async () => {
      const res = await register(orgId, owner.token, { webhookUrl: `${receiver.url}/reg`, webhookSecret: SECRET })
      expect(res.status).toBe(201)
      expect(res.body.data).toEqual({
        id: expect.any(String),
        orgId,
        tenantId: null,
        webhookUrl: `${receiver.url}/reg`,
        hasSecret: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      })
      expect(res.text).not.toContain(SECRET)
      const rows = await api.runtime.container
        .get(EntityManager)
        .fork()
        .getConnection()
        .execute<{ sealed_secret: string }[]>('select sealed_secret from webhooks where organization_id = ?', [orgId])
      expect(rows).toHaveLength(1)
      expect(rows[0]?.sealed_secret).toMatch(/^v1:/)
      expect(rows[0]?.sealed_secret).not.toContain(SECRET)
    })

    it('replaces the registration when called again (one webhook per organization)', async () => {
      const org = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      const first = await register(org, owner.token, { webhookUrl: `${receiver.url}/one`, webhookSecret: SECRET })
      const second = await register(org, owner.token, { webhookUrl: `${receiver.url}/two` })
      expect(second.status).toBe(201)
      expect(second.body.data).toEqual(
        expect.objectContaining({ id: first.body.data.id, webhookUrl: `${receiver.url}/two`, hasSecret: false }),
      )
    })

    it('answers 201 to concurrent registrations, which leave one webhook', async () => {
      const org = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((index) => register(org, owner.token, { webhookUrl: `${receiver.url}/race-${index}` })),
      )
      expect(results.map((res) => res.status)).toEqual([201, 201, 201, 201, 201])
      expect(new Set(results.map((res) => res.body.data.id)).size).toBe(1)
    })

    it.each([
      ['a missing webhookUrl', { webhookSecret: SECRET }, 'webhookUrl'],
      ['a webhookUrl that is not a URL', { webhookUrl: 'not a url' }, 'webhookUrl'],
      ['a webhookUrl without http(s)', { webhookUrl: 'ftp://hooks.example.com/x' }, 'webhookUrl'],
      [
        'a webhookSecret shorter than 16 characters',
        { webhookUrl: 'https://hooks.example.com/x', webhookSecret: 'short-secret' },
        'webhookSecret',
      ],
      [
        'a webhookSecret that is not a string',
        { webhookUrl: 'https://hooks.example.com/x', webhookSecret: 1234567890123456 },
        'webhookSecret',
      ],
      ['an unknown field', { webhookUrl: 'https://hooks.example.com/x', extra: true }, 'extra'],
    ])('answers 400 for %s', async (_case, body, field) => {
      const res = await register(orgId, owner.token, body)
      expect(res.status).toBe(400)
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]))
    })

    it('answers 400 for a malformed orgId and 403 for roles other than owner and admin', async () => {
      expect((await register('not-a-uuid', owner.token, { webhookUrl: 'https://hooks.example.com/x' })).status).toBe(
        400,
      )
      const issuer = await aUserWithToken(api)
      const org = await anOrganizationWith(api, [{ user: issuer, roles: ['issuer'] }])
      expect((await register(org, issuer.token, { webhookUrl: 'https://hooks.example.com/x' })).status).toBe(403)
    })

    it('reads the webhook by orgId for owner, admin, issuer and verifier; 403 for member; 404 when none', async () => {
      for (const role of ['admin', 'issuer', 'verifier'] as const) {
        const user = await aUserWithToken(api)
        const org = await anOrganizationWith(api, [
          { user: owner, roles: ['owner'] },
          { user, roles: [role] },
        ])
        await register(org, owner.token, { webhookUrl: `${receiver.url}/${role}` }).expect(201)
        const res = await request(api.app).get(`/v1/webhooks/orgs/webhookurl?orgId=${org}`).set(auth(user.token))
        expect({ role, status: res.status, url: res.body.data?.webhookUrl }).toEqual({
          role,
          status: 200,
          url: `${receiver.url}/${role}`,
        })
      }
      const member = await aUserWithToken(api)
      const org = await anOrganizationWith(api, [{ user: member, roles: ['member'] }])
      expect(
        (await request(api.app).get(`/v1/webhooks/orgs/webhookurl?orgId=${org}`).set(auth(member.token))).status,
      ).toBe(403)
      const bare = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      expect(
        (await request(api.app).get(`/v1/webhooks/orgs/webhookurl?orgId=${bare}`).set(auth(owner.token))).status,
      ).toBe(404)
    })

    it('reads a tenant webhook only for the user whose tenant it is', async () => {
      const tenantId = randomUUID()
      const holder = await aUserWithToken(api)
      const other = await aUserWithToken(api)
      await api.runtime.container
        .get(WebhooksService)
        .registerForTenant(tenantId, holder.id, { webhookUrl: `${receiver.url}/tenant`, webhookSecret: SECRET })
      const mine = await request(api.app)
        .get(`/v1/webhooks/orgs/webhookurl?tenantId=${tenantId}`)
        .set(auth(holder.token))
      expect(mine.status).toBe(200)
      expect(mine.body.data).toEqual(
        expect.objectContaining({ tenantId, orgId: null, webhookUrl: `${receiver.url}/tenant` }),
      )
      const theirs = await request(api.app)
        .get(`/v1/webhooks/orgs/webhookurl?tenantId=${tenantId}`)
        .set(auth(other.token))
      expect(theirs.status).toBe(404)
      const unknown = await request(api.app)
        .get(`/v1/webhooks/orgs/webhookurl?tenantId=${randomUUID()}`)
        .set(auth(holder.token))
      expect(unknown.status).toBe(404)
    })

    it('answers 400 for both of orgId and tenantId, for neither when the caller has several, and malformed ids', async () => {
      for (const query of ['', `?orgId=${orgId}&tenantId=${randomUUID()}`, '?tenantId=nope', '?orgId=nope']) {
        const res = await request(api.app).get(`/v1/webhooks/orgs/webhookurl${query}`).set(auth(owner.token))
        expect({ query, status: res.status }).toEqual({ query, status: 400 })
      }
    })

    it("answers with neither orgId nor tenantId for the caller's own organization or wallet when unambiguous", async () => {
      const read = (token: string) => request(api.app).get('/v1/webhooks/orgs/webhookurl').set(auth(token))
      // One organization where the caller may read webhooks (a member-only organization does not count).
      const issuer = await aUserWithToken(api)
      const own = await anOrganizationWith(api, [
        { user: owner, roles: ['owner'] },
        { user: issuer, roles: ['issuer'] },
      ])
      await anOrganizationWith(api, [{ user: issuer, roles: ['member'] }])
      expect((await read(issuer.token)).status).toBe(404)
      await register(own, owner.token, { webhookUrl: `${receiver.url}/own` }).expect(201)
      const mine = await read(issuer.token)
      expect({ status: mine.status, orgId: mine.body.data?.orgId }).toEqual({ status: 200, orgId: own })

      // Only a wallet webhook: that one.
      const holder = await aUserWithToken(api)
      const tenantId = randomUUID()
      await api.runtime.container
        .get(WebhooksService)
        .registerForTenant(tenantId, holder.id, { webhookUrl: `${receiver.url}/wallet`, webhookSecret: SECRET })
      const wallet = await read(holder.token)
      expect({ status: wallet.status, tenantId: wallet.body.data?.tenantId }).toEqual({ status: 200, tenantId })

      // An organization and a wallet, or nothing of one's own: 400 naming both parameters.
      await anOrganizationWith(api, [{ user: holder, roles: ['owner'] }])
      const nobody = await aUserWithToken(api)
      for (const token of [holder.token, nobody.token, owner.token]) {
        const res = await read(token)
        expect(res.status).toBe(400)
        expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual(['orgId', 'tenantId'])
      }
    })

    it('keeps the unversioned paths as deprecated aliases of /v1, listed once in the OpenAPI document', async () => {
      const org = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      const old = await request(api.app)
        .post(`/webhooks/orgs/${org}/register`)
        .set(auth(owner.token))
        .send({ webhookUrl: `${receiver.url}/alias` })
      expect(old.status).toBe(201)
      expect(old.headers.deprecation).toBe('true')
      expect(old.headers.link).toBe(`</v1/webhooks/orgs/${org}/register>; rel="successor-version"`)
      const read = await request(api.app).get(`/webhooks/orgs/webhookurl?orgId=${org}`).set(auth(owner.token))
      expect({ status: read.status, url: read.body.data?.webhookUrl }).toEqual({
        status: 200,
        url: `${receiver.url}/alias`,
      })
      expect(read.headers.deprecation).toBe('true')
      expect((await request(api.app).get(`/webhooks/orgs/${org}/deliveries`).set(auth(owner.token))).status).toBe(200)
      // Authorization and validation are the documented route's.
      expect((await request(api.app).get(`/webhooks/orgs/${org}/deliveries`)).status).toBe(401)

      const current = await request(api.app).get(`/v1/webhooks/orgs/webhookurl?orgId=${org}`).set(auth(owner.token))
      expect(current.status).toBe(200)
      expect(current.headers.deprecation).toBeUndefined()

      const paths = Object.keys((await request(api.app).get('/api-json').expect(200)).body.paths as object)
      expect(paths.filter((path) => path.startsWith('/webhooks'))).toEqual([])
      expect(paths).toEqual(
        expect.arrayContaining(['/v1/webhooks/orgs/{orgId}/register', '/v1/webhooks/orgs/webhookurl']),
      )
    })

    it('patches the URL and the secret; 404 before registration; 400 for an empty or short change', async () => {
      const org = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      const patch = (body: object) =>
        request(api.app).patch(`/v1/webhooks/orgs/${org}`).set(auth(owner.token)).send(body)
      expect((await patch({ webhookUrl: `${receiver.url}/p` })).status).toBe(404)
      await register(org, owner.token, { webhookUrl: `${receiver.url}/p` }).expect(201)
      expect((await patch({})).status).toBe(400)
      expect((await patch({ webhookSecret: 'too-short' })).status).toBe(400)
      const changed = await patch({ webhookUrl: `${receiver.url}/q`, webhookSecret: SECRET })
      expect(changed.status).toBe(200)
      expect(changed.body.data).toEqual(expect.objectContaining({ webhookUrl: `${receiver.url}/q`, hasSecret: true }))
      expect(changed.text).not.toContain(SECRET)
      const onlyUrl = await patch({ webhookUrl: `${receiver.url}/r` })
      expect(onlyUrl.body.data).toEqual(expect.objectContaining({ webhookUrl: `${receiver.url}/r`, hasSecret: true }))
    })
  })

  describe('delivery', () => {
    let org: string
    const hookPath = () => `/deliver-${org}`
    const notifyPath = () => `/notify-${org}`

    beforeAll(async () => {
      org = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      receiver.setSecret(hookPath(), SECRET)
      await register(org, owner.token, { webhookUrl: `${receiver.url}${hookPath()}`, webhookSecret: SECRET }).expect(
        201,
      )
      await setNotificationWebhook(org, `${receiver.url}${notifyPath()}`)
    })

    it('POSTs every event published in a transaction once to the webhook (signed) and the notificationWebhook', async () => {
      const events = await publishEvents(api, org, 12)
      const ids = events.map((event) => event.id).sort()
      await receiver.waitFor(
        () => receiver.eventIds(hookPath()).length >= 12 && receiver.eventIds(notifyPath()).length >= 12,
      )
      expect(receiver.eventIds(hookPath()).sort()).toEqual(ids)
      expect(receiver.eventIds(notifyPath()).sort()).toEqual(ids)
      expect(receiver.duplicates()).toEqual([])
      expect(receiver.badSignatures()).toEqual([])
      const signed = receiver.accepted(hookPath())
      expect(signed.every((request) => request.signature === 'valid')).toBe(true)
      expect(receiver.accepted(notifyPath()).every((request) => request.signature === 'unsigned')).toBe(true)

      const first = signed.find((request) => request.eventId === events[0]?.id)
      expect(first?.body).toEqual({
        webhookUrl: `${receiver.url}${hookPath()}`,
        data: {
          id: events[0]?.id,
          type: 'connection.state-changed',
          orgId: org,
          occurredAt: events[0]?.occurredAt,
          record: { id: 'record-0', state: 'completed', index: 0 },
        },
      })
      expect(Number(first?.headers['x-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60)
      expect(first?.headers['x-delivery-id']).toEqual(expect.any(String))

      await waitForStatus(org, 24, 'delivered')
      const listed = await deliveries(org)
      expect(listed.filter((item) => item.status === 'delivered')).toHaveLength(24)
      expect(listed.find((item) => item.eventId === events[0]?.id && item.target === 'webhook')).toEqual(
        expect.objectContaining({ eventType: 'connection.state-changed', attempts: 1, lastResponseCode: 200 }),
      )
    })

    it('stores no delivery for events of a transaction that rolled back', async () => {
      const event = platformEvent('connection.state-changed', { orgId: org }, { id: 'rolled-back' })
      await expect(
        api.runtime.container.get(EntityManager).transactional(async () => {
          await api.runtime.container.get(ModuleRegistry).publish([event])
          throw new Error('the change failed')
        }),
      ).rejects.toThrow('the change failed')
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect((await deliveries(org)).filter((item) => item.eventId === event.id)).toEqual([])
      expect(receiver.requests.filter((request) => request.eventId === event.id)).toEqual([])
    })

    it('gets every event to a receiver that was down for a while, each once', async () => {
      await receiver.goDown()
      const events = await publishEvents(api, org, 5, 'proof.state-changed')
      await waitUntilAsync(async () => {
        const items = (await deliveries(org)).filter((item) => events.some((event) => event.id === item.eventId))
        return items.length === 10 && items.every((item) => item.attempts >= 2 && item.status === 'pending')
      })
      await receiver.comeBack()
      const ids = events.map((event) => event.id)
      await receiver.waitFor(() =>
        ids.every((id) => receiver.eventIds(hookPath()).includes(id) && receiver.eventIds(notifyPath()).includes(id)),
      )
      expect(receiver.duplicates()).toEqual([])
      expect(receiver.badSignatures()).toEqual([])
    })

    it('marks a delivery dead after the last attempt, and replays it', async () => {
      const deadOrg = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      const path = `/dead-${deadOrg}`
      receiver.setSecret(path, SECRET)
      await register(deadOrg, owner.token, { webhookUrl: `${receiver.url}${path}`, webhookSecret: SECRET }).expect(201)
      receiver.fail(500)
      let eventId: string
      try {
        eventId = (await publishEvents(api, deadOrg, 1))[0]?.id ?? ''
        await waitForStatus(deadOrg, 1, 'dead')
      } finally {
        receiver.recover()
      }
      const [dead] = await deliveries(deadOrg)
      expect(dead).toEqual(
        expect.objectContaining({ eventId, status: 'dead', attempts: MAX_ATTEMPTS, lastResponseCode: 500 }),
      )
      expect(receiver.requests.filter((request) => request.eventId === eventId)).toHaveLength(MAX_ATTEMPTS)

      const replay = (deliveryId: string) =>
        request(api.app).post(`/v1/webhooks/orgs/${deadOrg}/deliveries/${deliveryId}/replay`).set(auth(owner.token))
      const replayed = await replay(dead?.id ?? '')
      expect(replayed.status).toBe(200)
      expect(replayed.body.data).toEqual(expect.objectContaining({ id: dead?.id, status: 'pending', attempts: 0 }))
      await receiver.waitFor(() => receiver.eventIds(path).includes(eventId))
      await waitForStatus(deadOrg, 1, 'delivered')
      expect((await replay(randomUUID())).status).toBe(404)
      // Another organization's delivery is not found either.
      expect(
        (await request(api.app).post(`/v1/webhooks/orgs/${org}/deliveries/${dead?.id}/replay`).set(auth(owner.token)))
          .status,
      ).toBe(404)
    })

    it('answers 409 to a replay of a pending delivery', async () => {
      const pendingOrg = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      await register(pendingOrg, owner.token, { webhookUrl: `${receiver.url}/slow-${pendingOrg}` }).expect(201)
      await receiver.goDown()
      try {
        await publishEvents(api, pendingOrg, 1)
        const [pending] = await deliveries(pendingOrg)
        const res = await request(api.app)
          .post(`/v1/webhooks/orgs/${pendingOrg}/deliveries/${pending?.id}/replay`)
          .set(auth(owner.token))
        expect(res.status).toBe(409)
      } finally {
        await receiver.comeBack()
      }
    })

    it('pings the webhook through the same path (extension)', async () => {
      const res = await request(api.app).post(`/v1/webhooks/orgs/${org}/ping`).set(auth(owner.token))
      expect(res.status).toBe(201)
      const eventId = res.body.data.eventId as string
      await receiver.waitFor(() => receiver.eventIds(hookPath()).includes(eventId))
      const ping = receiver.accepted(hookPath()).find((request) => request.eventId === eventId)
      expect(ping?.body?.data).toEqual(expect.objectContaining({ type: 'webhook.ping', orgId: org }))
      const bare = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      expect((await request(api.app).post(`/v1/webhooks/orgs/${bare}/ping`).set(auth(owner.token))).status).toBe(404)
    })

    it('delivers a tenant event to the tenant webhook', async () => {
      const tenantId = randomUUID()
      const holder = await aUserWithToken(api)
      const path = `/tenant-${tenantId}`
      receiver.setSecret(path, SECRET)
      await api.runtime.container
        .get(WebhooksService)
        .registerForTenant(tenantId, holder.id, { webhookUrl: `${receiver.url}${path}`, webhookSecret: SECRET })
      const event = platformEvent('credential.state-changed', { orgId: null, tenantId }, { id: 'wallet-credential' })
      await api.runtime.container.get(EntityManager).transactional(async () => {
        await api.runtime.container.get(ModuleRegistry).publish([event])
      })
      await receiver.waitFor(() => receiver.eventIds(path).includes(event.id))
      expect(receiver.accepted(path)[0]?.body?.data).toEqual(expect.objectContaining({ tenantId, orgId: null }))
    })

    it('lists deliveries paged and filtered by status; 400 for a bad status or page size', async () => {
      const page = await request(api.app)
        .get(`/v1/webhooks/orgs/${org}/deliveries?pageSize=5&pageNumber=2`)
        .set(auth(owner.token))
      expect(page.status).toBe(200)
      expect(page.body.data).toEqual(
        expect.objectContaining({ hasPreviousPage: true, previousPage: 1, data: expect.any(Array) }),
      )
      expect(page.body.data.data).toHaveLength(5)
      expect(page.body.data.totalItems).toBeGreaterThan(10)
      for (const query of ['?status=lost', '?pageSize=101', '?pageNumber=0']) {
        const res = await request(api.app).get(`/v1/webhooks/orgs/${org}/deliveries${query}`).set(auth(owner.token))
        expect({ query, status: res.status }).toEqual({ query, status: 400 })
      }
      expect((await deliveries(org, '&status=dead')).length).toBe(0)
    })

    it('exposes delivery counts, durations, delivery lag and agent event lag as metrics', async () => {
      // One agent event through the agents' route, as an agent posts it.
      const eventToken = randomSecret()
      const em = api.runtime.container.get(EntityManager).fork()
      em.create(OrgAgent, {
        organization: em.getReference(Organization, org),
        label: 'Metrics wallet',
        runtime: 'process',
        encryptedApiKey: 'unused',
        encryptedWalletKey: 'unused',
        eventTokenHash: hashToken(eventToken),
      })
      await em.flush()
      await request(api.app)
        .post('/v1/internal/agent-events')
        .set('Authorization', `Bearer ${eventToken}`)
        .send({
          id: randomUUID(),
          kind: 'credential',
          agentLabel: 'Metrics wallet',
          occurredAt: new Date(Date.now() - 1500).toISOString(),
          record: { id: 'c1', state: 'done' },
        })
        .expect(200)
      const text = (await request(api.app).get('/metrics').expect(200)).text
      expect(text).toMatch(/idplane_api_webhook_deliveries_total\{result="delivered"\} [1-9]/)
      expect(text).toMatch(/idplane_api_webhook_deliveries_total\{result="failed"\} [1-9]/)
      expect(text).toMatch(/idplane_api_webhook_deliveries_total\{result="dead"\} 1\b/)
      expect(text).toMatch(/idplane_api_webhook_delivery_duration_seconds_count\{result="ok"\} [1-9]/)
      expect(text).toMatch(/idplane_api_webhook_delivery_lag_seconds_count [1-9]/)
      expect(text).toMatch(/idplane_api_agent_event_lag_seconds_count\{kind="credential"\} 1\b/)
      // The event was 1.5 s old when stored: it is not in the 1 s bucket.
      const oneSecondBucket = text
        .split('\n')
        .find(
          (line) =>
            /^idplane_api_agent_event_lag_seconds_bucket\{/.test(line) &&
            line.includes('kind="credential"') &&
            line.includes('le="1"'),
        )
      expect(oneSecondBucket).toMatch(/ 0$/)
    })
  })

  it("delivers another module's events: a basic message an agent reports reaches the webhook", async () => {
    const messagesOrg = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const path = `/messages-${messagesOrg}`
    receiver.setSecret(path, SECRET)
    await register(messagesOrg, owner.token, { webhookUrl: `${receiver.url}${path}`, webhookSecret: SECRET }).expect(
      201,
    )
    const eventToken = randomSecret()
    const em = api.runtime.container.get(EntityManager).fork()
    em.create(OrgAgent, {
      organization: em.getReference(Organization, messagesOrg),
      label: 'Messages wallet',
      runtime: 'process',
      encryptedApiKey: 'unused',
      encryptedWalletKey: 'unused',
      eventTokenHash: hashToken(eventToken),
    })
    await em.flush()
    const message = { id: randomUUID(), connectionId: randomUUID(), role: 'receiver', content: 'hello over DIDComm' }
    await request(api.app)
      .post('/v1/internal/agent-events')
      .set('Authorization', `Bearer ${eventToken}`)
      .send({
        id: randomUUID(),
        kind: 'basic-message',
        agentLabel: 'Messages wallet',
        occurredAt: new Date().toISOString(),
        record: { ...message, createdAt: new Date().toISOString() },
      })
      .expect(200)
    await receiver.waitFor(() => receiver.accepted(path).length >= 1)
    const [delivered] = receiver.accepted(path)
    expect(delivered?.signature).toBe('valid')
    expect(delivered?.body?.data).toEqual(
      expect.objectContaining({ type: 'basic-message.received', orgId: messagesOrg, record: expect.any(Object) }),
    )
  })

  async function waitForStatus(org: string, count: number, status: string): Promise<void> {
    await waitUntilAsync(async () => (await deliveries(org)).filter((item) => item.status === status).length >= count)
  }
})

describe('webhooks without NETWORK_ALLOW_PRIVATE_TARGETS (nor its alias WEBHOOK_ALLOW_PRIVATE_TARGETS)', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string

  beforeAll(async () => {
    // The test helper allows private targets for the agents of other tests; '' is unset, as in production.
    api = await startApi({ NETWORK_ALLOW_PRIVATE_TARGETS: '' })
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  })

  afterAll(async () => {
    await api?.stop()
  })

  it.each([
    'http://127.0.0.1:9/hook',
    'http://localhost/hook',
    'http://10.0.0.5/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest',
  ])('refuses %s with 400 on register and patch', async (webhookUrl) => {
    const registered = await request(api.app)
      .post(`/v1/webhooks/orgs/${orgId}/register`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ webhookUrl })
    expect(registered.status).toBe(400)
    expect(registered.body.errors).toEqual([{ field: 'webhookUrl', message: expect.any(String) }])
  })

  it('refuses a private target on patch too', async () => {
    await request(api.app)
      .post(`/v1/webhooks/orgs/${orgId}/register`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ webhookUrl: 'https://hooks.example.com/idplane' })
      .expect(201)
    const res = await request(api.app)
      .patch(`/v1/webhooks/orgs/${orgId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ webhookUrl: 'http://192.168.1.10/hook' })
    expect(res.status).toBe(400)
  })
})

async function waitUntilAsync(probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
}

describe('webhook delivery latency', () => {
  let api: TestApi
  let receiver: WebhookReceiver
  let orgId: string

  beforeAll(async () => {
    // Relay rounds a minute apart: only the wake-up on commit can deliver within seconds.
    api = await startApi({ ...FAST_WEBHOOK_ENV, WEBHOOK_RELAY_INTERVAL_MS: '60000', WEBHOOK_RETRY_DELAYS_MS: '100' })
    receiver = await startWebhookReceiver()
    const owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app)
      .post(`/v1/webhooks/orgs/${orgId}/register`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ webhookUrl: `${receiver.url}/latency` })
      .expect(201)
  })

  afterAll(async () => {
    await receiver?.stop()
    await api?.stop()
  })

  it('delivers as soon as the publishing transaction commits, even a slow one', async () => {
    const event = platformEvent('connection.state-changed', { orgId }, { id: 'slow-transaction' })
    await api.runtime.container.get(EntityManager).transactional(async () => {
      await api.runtime.container.get(ModuleRegistry).publish([event])
      // Longer than the listener's own early look: the commit itself must wake the relay. (On PGlite the one
      // connection serializes the relay's query behind the transaction; PostgreSQL tells the two apart.)
      await new Promise((resolve) => setTimeout(resolve, 400))
    })
    const committedAt = Date.now()
    await receiver.waitFor(() => receiver.eventIds('/latency').includes(event.id), 5_000)
    expect(Date.now() - committedAt).toBeLessThan(2_000)
  })
})

describe('webhook secrets in the logs', () => {
  const lines: string[] = []
  let api: TestApi
  let receiver: WebhookReceiver

  beforeAll(async () => {
    const logger = new Logger({ program: 'api' }, 'debug', { write: (line: string) => lines.push(line) })
    api = await startApi(
      { ...FAST_WEBHOOK_ENV, LOG_LEVEL: 'debug', WEBHOOK_RETRY_DELAYS_MS: '50', WEBHOOK_MAX_ATTEMPTS: '2' },
      { logger },
    )
    receiver = await startWebhookReceiver()
  })

  afterAll(async () => {
    await receiver?.stop()
    await api?.stop()
  })

  it('are never logged: not on register, patch, delivery, failed attempts or the dead state', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const firstSecret = 'first-secret-never-logged-1234'
    const secondSecret = 'second-secret-never-logged-5678'
    await request(api.app)
      .post(`/v1/webhooks/orgs/${orgId}/register`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ webhookUrl: `${receiver.url}/logs`, webhookSecret: firstSecret })
      .expect(201)
    await request(api.app)
      .patch(`/v1/webhooks/orgs/${orgId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ webhookSecret: secondSecret })
      .expect(200)
    receiver.setSecret('/logs', secondSecret)
    const [delivered] = await publishEvents(api, orgId, 1)
    await receiver.waitFor(() => receiver.eventIds('/logs').includes(delivered?.id ?? ''))
    receiver.fail(503)
    try {
      const [failing] = await publishEvents(api, orgId, 1)
      await receiver.waitFor(() => receiver.requests.filter((req) => req.eventId === failing?.id).length >= 2)
      await new Promise((resolve) => setTimeout(resolve, 300))
    } finally {
      receiver.recover()
    }
    expect(lines.some((line) => line.includes('Gave up delivering a webhook'))).toBe(true)
    const logged = lines.join('\n')
    expect(logged).not.toContain(firstSecret)
    expect(logged).not.toContain(secondSecret)
    expect(receiver.badSignatures()).toEqual([])
  })
})
