import http from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { spawnAgent, TEST_API_KEY, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { startPlatform, type Platform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(180_000)

const ADMIN_EMAIL = 'targets-e2e-root@example.test'
const PRIVATE_TARGET = /must not point at a private, loopback, link-local or metadata address/

interface Envelope<T> {
  data: T
}
type Rec = Record<string, unknown> & { id: string; state: string }

/**
 * Issue 23, item 3: agents fetch invitation URLs and send DIDComm messages only to public targets unless the
 * platform allows private ones. Here the platform (NETWORK_ALLOW_PRIVATE_TARGETS unset, as in production) runs an
 * organization agent and a cloud-wallet base agent that refuse loopback; two test agents on loopback allow it.
 */
describe('outgoing targets of agents (private targets refused)', () => {
  let platform: Platform
  let base: SpawnedAgent
  let peer: SpawnedAgent
  let otherPeer: SpawnedAgent
  let owner: TestUser
  let walletUser: TestUser
  let orgId: string
  let receiver: http.Server
  const receiverHits: string[] = []
  let receiverUrl: string

  const as = (user: TestUser) => ({
    get: (route: string) => request(platform.api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body: object = {}) =>
      request(platform.api.app).post(route).set('Authorization', `Bearer ${user.token}`).send(body),
  })

  beforeAll(async () => {
    buildPrograms()
    // '' is unset: the production default, over the test helper's allowance.
    platform = await startPlatform({ NETWORK_ALLOW_PRIVATE_TARGETS: '', PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL })
    ;[base, peer, otherPeer] = await Promise.all([
      spawnAgent({
        label: 'base',
        env: {
          AGENT_EVENT_URL: `${platform.baseUrl}${BASE_WALLET_EVENTS_PATH}`,
          AGENT_EVENT_TOKEN: TEST_API_KEY,
          AGENT_ALLOW_PRIVATE_TARGETS: 'false',
        },
      }),
      spawnAgent({ label: 'peer' }),
      spawnAgent({ label: 'other-peer' }),
    ])
    owner = await aUserWithToken(platform.api)
    walletUser = await aUserWithToken(platform.api)
    const admin = await aUserWithToken(platform.api, ADMIN_EMAIL)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Guarded Org')
    await as(admin)
      .post('/v1/configure/base-wallet', { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'k-0001' })
      .expect(201)
    await as(walletUser).post('/v1/create-wallet', { label: 'Guarded wallet' }).expect(201)
    // A loopback "internal service": it must never be called.
    receiver = http.createServer((req, res) => {
      receiverHits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/internal`
  }, 900_000)

  afterAll(async () => {
    receiver?.close()
    await Promise.all([base?.stop(), peer?.stop(), otherPeer?.stop()])
    await platform?.stop()
  }, 120_000)

  it('refuses a loopback invitation URL with 400 and the reason, for an organization and a cloud wallet', async () => {
    const ofOrg = await as(owner).post(`/v1/orgs/${orgId}/receive-invitation-url`, { invitationUrl: receiverUrl })
    expect(ofOrg.status).toBe(400)
    expect(ofOrg.body.message).toMatch(/invitationUrl/)
    expect(ofOrg.body.message).toMatch(PRIVATE_TARGET)
    const ofWallet = await as(walletUser).post('/v1/receive-invitation-url', { invitationUrl: receiverUrl })
    expect(ofWallet.status).toBe(400)
    expect(ofWallet.body.message).toMatch(PRIVATE_TARGET)
    for (const url of ['http://localhost:9/x', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:9/x']) {
      expect((await as(owner).post(`/v1/orgs/${orgId}/receive-invitation-url`, { invitationUrl: url })).status).toBe(
        400,
      )
    }
    expect(receiverHits).toEqual([])
  })

  it('refuses an invitation whose service endpoint is loopback before anything is sent', async () => {
    const invitation = await peer.call<Envelope<{ invitation: Record<string, unknown>; outOfBandRecord: Rec }>>(
      'POST',
      '/oob/create-invitation',
      { autoAcceptConnection: true },
    )
    const received = await as(owner).post(`/v1/orgs/${orgId}/receive-invitation`, {
      invitation: invitation.body.data.invitation,
    })
    expect(received.status).toBe(400)
    expect(received.body.message).toMatch(/serviceEndpoint/)
    expect(received.body.message).toMatch(PRIVATE_TARGET)
    const peerSide = await peer.call<Envelope<Rec[]>>(
      'GET',
      `/connections?outOfBandId=${invitation.body.data.outOfBandRecord.id}`,
    )
    expect(peerSide.body.data).toEqual([])
  })

  it('refuses to send a DIDComm message to a loopback endpoint: a peer that asks to connect gets no answer', async () => {
    // The organization invites (its own URL is encoded, nothing to fetch); the peer, which may reach loopback, asks
    // to connect; the organization's agent must answer at the peer's loopback endpoint, and refuses to.
    const invitation = await as(owner).post(`/v1/orgs/${orgId}/connections`, {}).expect(201)
    const received = await peer.call<Envelope<{ connectionRecord: Rec }>>('POST', '/oob/receive-invitation-url', {
      invitationUrl: invitation.body.data.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    expect(received.status).toBe(201)
    const peerConnection = received.body.data.connectionRecord.id
    // The request reaches the organization (loopback is allowed for the peer)...
    await waitUntil(async () => {
      const page = (await as(owner).get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)).body.data as {
        connections: Rec[]
      }
      return page.connections.length > 0 ? true : undefined
    })
    // ...but no response ever comes back to the peer.
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    const record = await peer.call<Envelope<Rec>>('GET', `/connections/${peerConnection}`)
    expect(record.body.data.state).toBe('request-sent')
  })

  it('connects agents that are allowed private targets (the setting on)', async () => {
    const invitation = await peer.call<Envelope<{ invitationUrl: string; outOfBandRecord: Rec }>>(
      'POST',
      '/oob/create-invitation',
      { autoAcceptConnection: true },
    )
    const received = await otherPeer.call<Envelope<{ connectionRecord: Rec }>>('POST', '/oob/receive-invitation-url', {
      invitationUrl: invitation.body.data.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    expect(received.status).toBe(201)
    await waitUntil(async () => {
      const record = await otherPeer.call<Envelope<Rec>>(
        'GET',
        `/connections/${received.body.data.connectionRecord.id}`,
      )
      return record.body.data.state === 'completed' ? true : undefined
    })
  })
})
