import type { Server } from 'node:http'
import { randomInt } from 'node:crypto'
import request from 'supertest'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { freePort } from '../helpers/agent-in-process'
import { spawnAgent, TEST_API_KEY, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { startApi, type TestApi } from '../helpers/api'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

jest.setTimeout(600_000)

const ADMIN_EMAIL = 'wallet-e2e-root@example.test'

/**
 * Issue 11: an organization with an agent provisioned through the API invites with `POST /v1/orgs/:orgId/connections`;
 * a cloud-wallet user (a tenant of a real base agent) receives the URL with `POST /v1/receive-invitation-url`; both
 * sides complete and exchange basic messages, each read through its own routes.
 */
describe('an organization connects to a cloud-wallet user', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi
  let server: Server
  let base: SpawnedAgent
  let owner: TestUser
  let admin: TestUser
  let holder: TestUser
  let orgId: string

  const as = (user: TestUser) => ({
    get: (path: string) => request(api.app).get(path).set('Authorization', `Bearer ${user.token}`),
    post: (path: string, body: object = {}) =>
      request(api.app).post(path).set('Authorization', `Bearer ${user.token}`).send(body),
  })

  beforeAll(async () => {
    compiled = await compileProgram('agent')
    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    const adminStart = 21_000 + randomInt(0, 400) * 20
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '240',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: `${adminStart},${adminStart + 10_000}`,
      API_PUBLIC_URL: baseUrl,
      API_INTERNAL_URL: baseUrl,
      PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL,
    })
    server = await new Promise<Server>((resolve) => {
      const listening = api.app.listen(port, '127.0.0.1', () => resolve(listening))
    })
    base = await spawnAgent({
      label: 'base',
      env: { AGENT_EVENT_URL: `${baseUrl}${BASE_WALLET_EVENTS_PATH}`, AGENT_EVENT_TOKEN: TEST_API_KEY },
    })
    owner = await aUserWithToken(api)
    admin = await aUserWithToken(api, ADMIN_EMAIL)
    holder = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await as(owner).post(`/v1/orgs/${orgId}/agents/spinup`, { label: 'Issuer Org', method: 'key' }).expect(201)
    const agent = await waitUntil(async () => {
      const health = await as(owner).get(`/v1/orgs/${orgId}/agents/health`)
      const status = (health.body.data as { status: string }).status
      return status === 'DID_CREATED' || status === 'FAILED' ? health.body.data : undefined
    }, 300_000)
    expect(agent).toMatchObject({ status: 'DID_CREATED' })
  }, 600_000)

  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
    await api?.stop()
    await base?.stop()
    compiled?.remove()
  }, 120_000)

  it('connects by invitation URL and exchanges basic messages', async () => {
    await as(admin)
      .post('/v1/configure/base-wallet', { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'k-0001' })
      .expect(201)
    await as(holder).post('/v1/create-wallet', { label: 'Holder' }).expect(201)

    const invitation = await as(owner).post(`/v1/orgs/${orgId}/connections`).expect(201)
    const received = await as(holder)
      .post('/v1/receive-invitation-url', { invitationUrl: invitation.body.data.invitationUrl })
      .expect(201)
    const walletConnection = received.body.data.connectionRecord.id as string
    await waitUntil(async () => {
      const one = await as(holder).get(`/v1/connection/${walletConnection}`).expect(200)
      return one.body.data.state === 'completed' ? true : undefined
    }, 60_000)
    expect((await as(holder).get(`/v1/connection/${walletConnection}`)).body.data.theirLabel).toBe('Issuer Org')
    const orgConnection = await waitUntil(async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
      const items = page.body.data.connections as { id: string; state: string; outOfBandId: string }[]
      return items.find(
        (item) => item.outOfBandId === invitation.body.data.outOfBandRecord.id && item.state === 'completed',
      )
    }, 60_000)

    await as(holder).post(`/v1/basic-message/${walletConnection}`, { content: 'Hello from my wallet' }).expect(201)
    await as(owner).post(`/v1/orgs/${orgId}/basic-message/${orgConnection.id}`, { content: 'Hello holder' }).expect(201)
    await waitUntil(async () => {
      const list = await as(holder).get(`/v1/basic-message/${walletConnection}`).expect(200)
      const contents = (list.body.data as { content: string }[]).map((message) => message.content)
      return contents.includes('Hello holder') ? true : undefined
    }, 60_000)
    await waitUntil(async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/basic-message/${orgConnection.id}`).expect(200)
      const contents = (page.body.data.data as { content: string }[]).map((message) => message.content)
      return contents.includes('Hello from my wallet') ? true : undefined
    }, 60_000)
  })
})
