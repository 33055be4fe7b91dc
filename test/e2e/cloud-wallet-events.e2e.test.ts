import type { Server } from 'node:http'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { freePort } from '../helpers/ports'
import { spawnAgent, TEST_API_KEY, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, type TestUser } from '../helpers/tokens'
import { FAST_WEBHOOK_ENV } from '../helpers/webhook-fixtures'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { aDegreeCredential, signingOptions } from '../fixtures/degree-credential'
import { buildPrograms } from '../helpers/build-programs'

const ADMIN_EMAIL = 'wallet-events-e2e-root@example.test'
const SECRET = 'holder-webhook-secret-0001'
const READY_MS = 180_000
/** Terminal states of a credential exchange: the exchange is over, one way or the other. */
const TERMINAL = ['done', 'abandoned', 'declined']

jest.setTimeout(900_000)

type Rec = Record<string, unknown> & { id: string; state: string; threadId?: string }

/**
 * Issue 11 item 4 with real processes: a base agent that posts its tenants' events to the listening API (with the
 * base wallet's API key), an issuer agent, and a wallet user with a tenant webhook. The wallet's lists follow the
 * agent's events (an offer appears only through an event); the tenant webhook receives the exchange, signed, once
 * per event. Then the base agent is SIGKILLed between offer and accept and restarted on the same data: the exchange
 * completes, and the holder record ends consistent, with no duplicate.
 */
describe('cloud-wallet events from a real base agent', () => {
  let api: TestApi
  let server: Server
  let base: SpawnedAgent
  let issuer: SpawnedAgent
  let receiver: WebhookReceiver
  let holder: TestUser
  let tenantId: string
  let holderDid: string
  let issuerDid: string
  let issuerConnection: string
  let walletConnection: string
  let baseOptions: Parameters<typeof spawnAgent>[0]

  const as = (user: TestUser) => ({
    get: (route: string) => request(api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body: object = {}) =>
      request(api.app).post(route).set('Authorization', `Bearer ${user.token}`).send(body),
  })
  const credentialsOfThread = async (threadId: string) =>
    (await as(holder).get(`/v1/credential?threadId=${threadId}`).expect(200)).body.data as Rec[]
  const storedRowsOf = (recordId: string) =>
    api.runtime.container
      .get(EntityManager)
      .fork()
      .getConnection()
      .execute<{ state: string }[]>('select state from wallet_records where record_id = ?', [recordId])
  /** States the tenant webhook received for one record, in arrival order. */
  const deliveredStates = (recordId: string) =>
    receiver
      .accepted('/holder')
      .map((delivery) => delivery.body?.data as { type: string; tenantId?: string; record: Rec })
      .filter((data) => data.record.id === recordId)
      .map((data) => data.record.state)

  /**
   * On a timeout: the record's state as the platform's wallet lists show it, in the base agent (the tenant's own
   * record) and in the issuer agent, and the base agent's event deliveries by result: which side stopped.
   */
  async function exchangeStates(kind: 'connections' | 'credentials', recordId?: string, threadId?: string) {
    const statesOf = (records: Rec[]) =>
      records
        .filter((record) => (recordId && record.id === recordId) || (threadId && record.threadId === threadId))
        .map((record) => `${record.id}:${record.state}`)
    const query = kind === 'credentials' && threadId ? `?threadId=${threadId}` : ''
    const route = kind === 'connections' ? '/v1/connections' : `/v1/credential${query}`
    const platform = (await as(holder).get(route)).body.data as Rec[]
    const tenant = await base.asTenant(tenantId).call<{ data: Rec[] }>('GET', `/${kind}`)
    const issued = await issuer.call<{ data: Rec[] }>('GET', `/${kind}`)
    const metrics = await fetch(`${base.adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })
    const deliveries = (await metrics.text())
      .split('\n')
      .filter((line) => line.startsWith('idplane_agent_event_deliveries'))
    return [
      `platform ${JSON.stringify(statesOf(platform ?? []))}`,
      `base agent ${JSON.stringify(statesOf(tenant.body.data ?? []))}`,
      `issuer agent ${JSON.stringify((issued.body.data ?? []).map((record) => `${record.id}:${record.state}`))}`,
      `base agent's event deliveries ${JSON.stringify(deliveries)}`,
    ].join('; ')
  }

  async function offerToHolder(): Promise<string> {
    const offer = await issuer.call<{ data: Rec }>('POST', '/credentials/offer', {
      connectionId: issuerConnection,
      credential: aDegreeCredential(issuerDid, holderDid),
      options: signingOptions(),
    })
    expect(offer.status).toBe(201)
    return String(offer.body.data.threadId)
  }

  beforeAll(async () => {
    buildPrograms()
    const port = await freePort()
    api = await startApi({
      ...FAST_WEBHOOK_ENV,
      WEBHOOK_RETRY_DELAYS_MS: '200,400,800',
      PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL,
    })
    server = await new Promise<Server>((resolve) => {
      const listening = api.app.listen(port, '127.0.0.1', () => resolve(listening))
    })
    baseOptions = {
      label: 'base',
      adminPort: await freePort(),
      inboundPort: await freePort(),
      env: {
        AGENT_EVENT_URL: `http://127.0.0.1:${port}${BASE_WALLET_EVENTS_PATH}`,
        AGENT_EVENT_TOKEN: TEST_API_KEY,
      },
    }
    ;[base, issuer, receiver] = await Promise.all([
      spawnAgent(baseOptions),
      spawnAgent({ label: 'issuer' }),
      startWebhookReceiver(),
    ])
    baseOptions.dataDir = base.dataDir
    receiver.setSecret('/holder', SECRET)
    const admin = await aUserWithToken(api, ADMIN_EMAIL)
    holder = await aUserWithToken(api)
    await as(admin)
      .post('/v1/configure/base-wallet', { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'k-0001' })
      .expect(201)
    tenantId = (await as(holder).post('/v1/create-wallet', { label: 'Holder' }).expect(201)).body.data.tenantId
    await as(holder)
      .post('/v1/webhooks/wallet/register', { webhookUrl: `${receiver.url}/holder`, webhookSecret: SECRET })
      .expect(201)
    holderDid = (await as(holder).post('/v1/did', { method: 'key', keyType: 'ed25519' }).expect(201)).body.data.did
    issuerDid = (await issuer.call<{ data: { did: string } }>('POST', '/dids', { method: 'key' })).body.data.did
  }, READY_MS * 3)

  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
    await Promise.all([api?.stop(), base?.stop(), issuer?.stop(), receiver?.stop()])
  }, 120_000)

  it('follows a connection and a JSON-LD issuance through events, and delivers them to the tenant webhook', async () => {
    const invitation = await issuer.call<{ data: { invitationUrl: string; outOfBandRecord: { id: string } } }>(
      'POST',
      '/oob/create-invitation',
      { autoAcceptConnection: true },
    )
    const received = await as(holder)
      .post('/v1/receive-invitation-url', { invitationUrl: invitation.body.data.invitationUrl })
      .expect(201)
    walletConnection = received.body.data.connectionRecord.id
    // The list reaches `completed` only through the base agent's events (the answer above was an earlier state).
    await waitUntil(
      async () => {
        const list = (await as(holder).get('/v1/connections').expect(200)).body.data as Rec[]
        return list.some((record) => record.id === walletConnection && record.state === 'completed') ? true : undefined
      },
      120_000,
      () => exchangeStates('connections', walletConnection),
    )
    issuerConnection = await waitUntil(async () => {
      const list = await issuer.call<{ data: Rec[] }>(
        'GET',
        `/connections?outOfBandId=${invitation.body.data.outOfBandRecord.id}`,
      )
      return list.body.data.find((record) => record.state === 'completed')?.id
    })

    const threadId = await offerToHolder()
    // Nothing but an event tells the platform about an offer the wallet received.
    const offered = await waitUntil(
      async () => (await credentialsOfThread(threadId)).find((record) => record.state === 'offer-received'),
      120_000,
      () => exchangeStates('credentials', undefined, threadId),
    )
    await as(holder)
      .post('/v1/accept-offer', {
        credentialRecordId: offered.id,
        autoAcceptCredential: 'always',
        credentialFormats: { jsonld: {} },
      })
      .expect(201)
    await waitUntil(
      async () => {
        const [record] = await credentialsOfThread(threadId)
        return record?.state === 'done' ? true : undefined
      },
      120_000,
      () => exchangeStates('credentials', offered.id, threadId),
    )

    await receiver.waitFor(
      () => deliveredStates(offered.id).includes('done') && deliveredStates(walletConnection).includes('completed'),
      60_000,
      'the exchange on the tenant webhook',
    )
    const deliveries = receiver.accepted('/holder').map((delivery) => delivery.body?.data as Record<string, unknown>)
    expect(new Set(deliveries.map((data) => data.tenantId))).toEqual(new Set([tenantId]))
    expect(new Set(deliveries.map((data) => data.orgId))).toEqual(new Set([null]))
    expect(deliveredStates(offered.id)).toEqual(expect.arrayContaining(['offer-received', 'done']))
    expect(new Set(deliveredStates(offered.id)).size).toBe(deliveredStates(offered.id).length)
    expect(receiver.duplicates('/holder')).toEqual([])
    expect(receiver.badSignatures()).toEqual([])
    expect(await storedRowsOf(offered.id)).toEqual([{ state: 'done' }])
  })

  it('completes an exchange across a SIGKILL of the base agent between offer and accept, without duplicates', async () => {
    const threadId = await offerToHolder()
    const offered = await waitUntil(async () => {
      return (await credentialsOfThread(threadId)).find((record) => record.state === 'offer-received')
    }, 120_000)

    await base.stop('SIGKILL')
    // While the agent is down the lists still answer from the holder records; a single read falls back to them.
    expect((await credentialsOfThread(threadId)).map((record) => record.state)).toEqual(['offer-received'])
    expect((await as(holder).get(`/v1/credential/${offered.id}`).expect(200)).body.data.state).toBe('offer-received')
    expect((await as(holder).get('/v1/connections').expect(200)).body.data).toHaveLength(1)
    expect((await as(holder).get('/v1/credential').expect(200)).body.data).toHaveLength(2)

    base = await spawnAgent(baseOptions)
    await as(holder)
      .post('/v1/accept-offer', {
        credentialRecordId: offered.id,
        autoAcceptCredential: 'always',
        credentialFormats: { jsonld: {} },
      })
      .expect(201)
    const final = await waitUntil(async () => {
      const [record] = await credentialsOfThread(threadId)
      return record && TERMINAL.includes(record.state) ? record : undefined
    }, 180_000)
    expect(final.state).toBe('done')
    expect(await credentialsOfThread(threadId)).toHaveLength(1)
    expect(await storedRowsOf(offered.id)).toEqual([{ state: 'done' }])
    // The agent agrees with the holder record, and nothing of before the kill is lost.
    expect(
      (await base.asTenant(tenantId).call<{ data: Rec }>('GET', `/credentials/${offered.id}`)).body.data.state,
    ).toBe('done')
    const all = (await as(holder).get('/v1/credential').expect(200)).body.data as Rec[]
    expect(all.map((record) => record.state)).toEqual(['done', 'done'])
    expect((await as(holder).get(`/v1/connection/${walletConnection}`).expect(200)).body.data.state).toBe('completed')

    await receiver.waitFor(() => deliveredStates(offered.id).includes('done'), 60_000, 'done on the webhook')
    const states = deliveredStates(offered.id)
    expect(new Set(states).size).toBe(states.length)
    expect(states).toEqual(expect.arrayContaining(['offer-received', 'done']))
    expect(receiver.duplicates('/holder')).toEqual([])
  })
})
