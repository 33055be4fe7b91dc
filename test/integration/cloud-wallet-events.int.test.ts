import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { spawnAgent, TEST_API_KEY, type SpawnedAgent } from '../helpers/agent-process'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { FAST_WEBHOOK_ENV } from '../helpers/webhook-fixtures'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { buildPrograms } from '../helpers/build-programs'

const ADMIN_EMAIL = 'wallet-events-root@example.test'
const SECRET = 'alice-webhook-secret-0001'

jest.setTimeout(400_000)

type Rec = Record<string, unknown> & { id: string; state?: string }

/** An agent event of `tenantId` about `record`, as the base agent posts it. */
function anEvent(kind: string, tenantId: string | undefined, record: Record<string, unknown>) {
  return {
    id: randomUUID(),
    kind,
    agentLabel: 'base',
    ...(tenantId === undefined ? {} : { tenantId }),
    occurredAt: new Date().toISOString(),
    record,
  }
}

/** Agent record times a minute apart from a fixed start, so order is explicit. */
const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 10, minute)).toISOString()

/**
 * Issue 11 item 4: the base agent's tenant events (posted to the internal route with the base wallet's API key)
 * keep each wallet's holder records by the organization records' ordering rule, the lists read them, and a wallet
 * user's tenant webhook receives them, signed and once. Synthetic events make order explicit; the real exchange,
 * the real agent's events and the kill-and-restart are in test/e2e/cloud-wallet-events.e2e.test.ts.
 */
describe('cloud-wallet holder records from events, and tenant webhooks', () => {
  let api: TestApi
  let base: SpawnedAgent
  let receiver: WebhookReceiver
  let admin: TestUser
  let alice: TestUser
  let bob: TestUser
  let nobody: TestUser
  let orgOwner: TestUser
  let aliceTenant: string
  let bobTenant: string

  const as = (user: TestUser) => ({
    get: (route: string) => request(api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body: object = {}) =>
      request(api.app).post(route).set('Authorization', `Bearer ${user.token}`).send(body),
    patch: (route: string, body: object = {}) =>
      request(api.app).patch(route).set('Authorization', `Bearer ${user.token}`).send(body),
  })
  const postEvents = (body: object, token = TEST_API_KEY) =>
    request(api.app).post(BASE_WALLET_EVENTS_PATH).set('Authorization', `Bearer ${token}`).send(body)
  /** The stored holder records of a tenant's wallet, straight from the database. */
  const rows = (tenantId: string) =>
    api.runtime.container
      .get(EntityManager)
      .fork()
      .getConnection()
      .execute<
        { kind: string; record_id: string; state: string | null }[]
      >('select r.kind, r.record_id, r.state from wallet_records r join cloud_wallets w on w.id = r.wallet_id where w.tenant_id = ? order by r.kind, r.record_id', [tenantId])

  beforeAll(async () => {
    buildPrograms()
    ;[base, api, receiver] = await Promise.all([
      spawnAgent({ label: 'base' }),
      startApi({ ...FAST_WEBHOOK_ENV, WEBHOOK_RETRY_DELAYS_MS: '100,200', PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL }),
      startWebhookReceiver(),
    ])
    admin = await aUserWithToken(api, ADMIN_EMAIL)
    alice = await aUserWithToken(api)
    bob = await aUserWithToken(api)
    nobody = await aUserWithToken(api)
    orgOwner = await aUserWithToken(api)
    await anOrganizationWith(api, [{ user: orgOwner, roles: ['owner'] }])
  })

  afterAll(async () => {
    await Promise.all([api?.stop(), base?.stop(), receiver?.stop()])
  })

  it('refuses events without the base wallet API key (also before a base wallet exists) and malformed ones', async () => {
    const event = anEvent('connection', randomUUID(), { id: randomUUID(), state: 'completed' })
    expect((await postEvents(event)).status).toBe(401)
    await as(admin)
      .post('/v1/configure/base-wallet', { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'k-0001' })
      .expect(201)
    expect((await request(api.app).post(BASE_WALLET_EVENTS_PATH).send(event)).status).toBe(401)
    const wrong = await postEvents(event, 'not-the-api-key')
    expect(wrong.status).toBe(401)
    expect(wrong.body.message).toMatch(/Invalid agent event token/)
    const malformed = await postEvents({ ...event, kind: 'nonsense', extra: 1 })
    expect(malformed.status).toBe(400)
    expect(malformed.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['extra', 'kind'])
    // A tenant no wallet owns, and the base agent's own wallet (no tenantId): acknowledged, nothing kept.
    expect((await postEvents(event)).body.data).toEqual({ id: event.id, isDuplicate: true })
    expect(
      (await postEvents(anEvent('connection', undefined, { id: randomUUID(), state: 'completed' }))).body.data
        .isDuplicate,
    ).toBe(true)

    aliceTenant = (await as(alice).post('/v1/create-wallet', { label: 'Alice' }).expect(201)).body.data.tenantId
    bobTenant = (await as(bob).post('/v1/create-wallet', { label: 'Bob' }).expect(201)).body.data.tenantId
  })

  it('lets a wallet user register a tenant webhook that only they can read; others get 404', async () => {
    expect((await as(nobody).post('/v1/webhooks/wallet/register', { webhookUrl: `${receiver.url}/x` })).status).toBe(
      404,
    )
    expect((await as(alice).post('/v1/webhooks/wallet/register', { webhookUrl: 'not a url' })).status).toBe(400)
    expect(
      (
        await as(alice).post('/v1/webhooks/wallet/register', {
          webhookUrl: `${receiver.url}/a`,
          webhookSecret: 'short',
        })
      ).status,
    ).toBe(400)
    const registered = await as(alice)
      .post('/v1/webhooks/wallet/register', { webhookUrl: `${receiver.url}/wrong` })
      .expect(201)
    expect(registered.body.data).toMatchObject({ orgId: null, tenantId: aliceTenant, hasSecret: false })
    const changed = await as(alice)
      .patch('/v1/webhooks/wallet', { webhookUrl: `${receiver.url}/alice`, webhookSecret: SECRET })
      .expect(200)
    expect(changed.body.data).toMatchObject({
      id: registered.body.data.id,
      tenantId: aliceTenant,
      webhookUrl: `${receiver.url}/alice`,
      hasSecret: true,
    })
    receiver.setSecret('/alice', SECRET)
    expect((await as(bob).patch('/v1/webhooks/wallet', { webhookUrl: `${receiver.url}/b` })).status).toBe(404)
    expect((await as(alice).patch('/v1/webhooks/wallet', {})).status).toBe(400)

    const read = await as(alice).get(`/v1/webhooks/orgs/webhookurl?tenantId=${aliceTenant}`).expect(200)
    expect(read.body.data).toEqual({
      id: registered.body.data.id,
      orgId: null,
      tenantId: aliceTenant,
      webhookUrl: `${receiver.url}/alice`,
      hasSecret: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    for (const other of [bob, nobody, orgOwner, admin]) {
      const res = await as(other).get(`/v1/webhooks/orgs/webhookurl?tenantId=${aliceTenant}`)
      expect({ status: res.status, data: res.body.data }).toEqual({ status: 404, data: undefined })
    }
  })

  it('applies connection events in order: a late event never moves a record back, a repeat is a no-op', async () => {
    const id = randomUUID()
    const connection = (state: string, minute: number) => ({
      id,
      state,
      role: 'requester',
      theirLabel: 'Issuer',
      alias: 'my issuer',
      did: 'did:peer:alice',
      theirDid: 'did:peer:issuer',
      outOfBandId: 'oob-1',
      createdAt: at(0),
      updatedAt: at(minute),
    })
    const requested = anEvent('connection', aliceTenant, connection('request-sent', 1))
    expect((await postEvents(requested).expect(200)).body.data.isDuplicate).toBe(false)
    const completed = anEvent('connection', aliceTenant, connection('completed', 3))
    const late = anEvent('connection', aliceTenant, connection('response-received', 2))
    const batch = await postEvents({ events: [completed, late, completed] }).expect(200)
    expect(batch.body.data.results.map((result: { isDuplicate: boolean }) => result.isDuplicate)).toEqual([
      false,
      true,
      true,
    ])
    expect((await postEvents(requested).expect(200)).body.data.isDuplicate).toBe(true)

    const list = (await as(alice).get('/v1/connections').expect(200)).body.data as Rec[]
    expect(list).toEqual([expect.objectContaining({ id, state: 'completed', updatedAt: at(3) })])
    for (const filter of ['theirLabel=Issuer', 'alias=my%20issuer', 'myDid=did:peer:alice', 'outOfBandId=oob-1']) {
      expect(((await as(alice).get(`/v1/connections?${filter}`).expect(200)).body.data as Rec[]).length).toBe(1)
    }
    expect((await as(alice).get('/v1/connections?theirDid=did:peer:nobody').expect(200)).body.data).toEqual([])
    expect(await rows(aliceTenant)).toEqual([{ kind: 'connection', record_id: id, state: 'completed' }])

    // The tenant webhook got each state once (request-sent, completed), signed, with the tenant as owner.
    await receiver.waitFor(() => receiver.accepted('/alice').length >= 2, 30_000, 'two deliveries')
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const delivered = receiver.accepted('/alice').map((delivery) => delivery.body?.data as Record<string, unknown>)
    // Delivery order is not promised (docs/decisions.md, Webhooks); each state arrives once.
    expect(
      delivered
        .map((data) => [
          data.type,
          (data.record as Rec).state,
          (data.record as Rec).previousState,
          data.tenantId,
          data.orgId,
        ])
        .sort(),
    ).toEqual([
      ['connection.state-changed', 'completed', 'request-sent', aliceTenant, null],
      ['connection.state-changed', 'request-sent', null, aliceTenant, null],
    ])
    expect(receiver.duplicates('/alice')).toEqual([])
    expect(receiver.badSignatures()).toEqual([])
  })

  it('keeps credential, proof and basic-message records in order, with the spec filters', async () => {
    const credentialId = randomUUID()
    const connectionId = randomUUID()
    const credential = (state: string, minute: number) => ({
      id: credentialId,
      state,
      role: 'holder',
      connectionId,
      threadId: 'thread-credential',
      createdAt: at(0),
      updatedAt: at(minute),
    })
    await postEvents({
      events: [
        anEvent('credential', aliceTenant, credential('offer-received', 1)),
        anEvent('credential', aliceTenant, credential('done', 5)),
        anEvent('credential', aliceTenant, credential('request-sent', 2)),
        anEvent('credential', aliceTenant, credential('credential-received', 4)),
      ],
    }).expect(200)
    const proofId = randomUUID()
    const proof = (state: string, minute: number) => ({
      id: proofId,
      state,
      role: 'prover',
      connectionId,
      threadId: 'thread-proof',
      createdAt: at(0),
      updatedAt: at(minute),
    })
    await postEvents(anEvent('proof', aliceTenant, proof('presentation-sent', 3))).expect(200)
    await postEvents(anEvent('proof', aliceTenant, proof('request-received', 1))).expect(200)
    const message = {
      id: randomUUID(),
      connectionId,
      role: 'receiver',
      content: 'hello Alice',
      sentTime: at(2),
      createdAt: at(2),
    }
    const messageEvent = anEvent('basic-message', aliceTenant, message)
    await postEvents({ events: [messageEvent, messageEvent, anEvent('basic-message', aliceTenant, message)] }).expect(
      200,
    )
    // question-answer records are not kept for wallets: acknowledged, nothing stored.
    await postEvents(anEvent('question-answer', aliceTenant, { id: randomUUID(), state: 'question-received' })).expect(
      200,
    )

    const credentials = (await as(alice).get('/v1/credential').expect(200)).body.data as Rec[]
    expect(credentials).toEqual([expect.objectContaining({ id: credentialId, state: 'done' })])
    for (const filter of ['state=done', `connectionId=${connectionId}`, 'threadId=thread-credential']) {
      expect((await as(alice).get(`/v1/credential?${filter}`).expect(200)).body.data).toHaveLength(1)
    }
    expect((await as(alice).get('/v1/credential?state=offer-received').expect(200)).body.data).toEqual([])
    const proofs = (await as(alice).get('/v1/proofs?threadId=thread-proof').expect(200)).body.data as Rec[]
    expect(proofs).toEqual([expect.objectContaining({ id: proofId, state: 'presentation-sent' })])
    expect((await as(alice).get('/v1/proofs?threadId=other').expect(200)).body.data).toEqual([])
    const stored = await rows(aliceTenant)
    expect(stored.filter((row) => row.kind === 'basic-message')).toHaveLength(1)
    expect(stored.filter((row) => row.kind === 'credential')).toEqual([
      { kind: 'credential', record_id: credentialId, state: 'done' },
    ])

    await receiver.waitFor(
      () => receiver.accepted('/alice').some((delivery) => delivery.body?.data?.type === 'basic-message.received'),
      30_000,
      'the message delivery',
    )
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const types = receiver
      .accepted('/alice')
      .map((delivery) => delivery.body?.data as { type: string; record: Rec })
      .filter((data) => !data.type.startsWith('connection.'))
      .map((data) => `${data.type}:${data.record.state ?? ''}`)
    expect(types.sort()).toEqual(
      [
        'basic-message.received:',
        // credential-received came after done (terminal) and request-sent after offer-received: both ignored.
        'credential.state-changed:done',
        'credential.state-changed:offer-received',
        'proof.state-changed:presentation-sent',
      ].sort(),
    )
    const messageDelivery = receiver
      .accepted('/alice')
      .find((delivery) => delivery.body?.data?.type === 'basic-message.received')
    expect((messageDelivery?.body?.data?.record as Rec).content).toBe('hello Alice')
  })

  it("keeps wallets apart: Bob sees none of Alice's records, his events never touch hers or reach her webhook", async () => {
    const aliceConnection = ((await as(alice).get('/v1/connections').expect(200)).body.data as Rec[])[0]
    // The same agent record id reported for Bob's tenant is Bob's own record, not Alice's.
    await postEvents(
      anEvent('connection', bobTenant, { id: aliceConnection.id, state: 'abandoned', updatedAt: at(30) }),
    ).expect(200)
    const bobs = (await as(bob).get('/v1/connections').expect(200)).body.data as Rec[]
    expect(bobs).toEqual([expect.objectContaining({ id: aliceConnection.id, state: 'abandoned' })])
    expect(((await as(alice).get('/v1/connections').expect(200)).body.data as Rec[])[0].state).toBe('completed')
    for (const route of ['/v1/credential', '/v1/proofs', '/v1/credential?threadId=thread-credential']) {
      expect((await as(bob).get(route).expect(200)).body.data).toEqual([])
    }
    // Bob cannot read Alice's messages through her connection id (his tenant has no such connection on the agent).
    expect((await as(bob).get(`/v1/basic-message/${randomUUID()}`)).status).toBe(404)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const ownersSeen = new Set(receiver.accepted().map((delivery) => delivery.body?.data?.tenantId))
    expect([...ownersSeen]).toEqual([aliceTenant])
  })

  it('exposes the holder-record metrics', async () => {
    const metrics = await request(api.app).get('/metrics')
    expect(metrics.text).toMatch(/idplane_api_wallet_record_reports_total\{kind="connection",outcome="ignore"\} [1-9]/)
    expect(metrics.text).toMatch(/idplane_api_wallet_record_apply_seconds_count\{source="event"\} [1-9]/)
  })
})
