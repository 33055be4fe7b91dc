import request from 'supertest'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { NO_WALLET } from '../../api/src/modules/cloud-wallet/wallet-access'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'
import { spawnAgent, TEST_API_KEY, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { startPlatform, type Platform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(900_000)

const ADMIN_EMAIL = 'wallet-e2e-root@example.test'
/** Generous: under a loaded machine an agent round trip plus its event can take tens of seconds. */
const STATE_MS = 180_000
const JSONLD = 'credentialType=JSONLD'
const PE = 'requestType=PRESENTATIONEXCHANGE'

type Rec = Record<string, unknown> & { id: string; state: string; threadId?: string | null }

/** The ids one wallet user's journey left behind, on the wallet's side and on the organization's. */
interface Journey {
  did: string
  connection: string
  orgConnection: string
  outOfBandId: string
  credential: string
  credentialThread: string
  proof: string
  proofThread: string
  orgProof: string
}

/**
 * Issue 11, "How it is checked", first bullet: an issuer organization (its agent run by the platform, driven only
 * through the platform API) and two cloud-wallet users (tenants of a real base agent that feeds the wallet records
 * with its events). Each user creates a wallet, receives an invitation URL, connects, accepts a JSON-LD offer,
 * answers a presentation-exchange proof request that the organization verifies, and exchanges basic messages. Then
 * every wallet route is tried with the other user's token and ids (404, never data), and by a signed-in user
 * without a wallet (the clear 404 "create one first").
 */
describe('an organization and two cloud-wallet users, end to end', () => {
  let platform: Platform
  let base: SpawnedAgent
  let owner: TestUser
  let alice: TestUser
  let bob: TestUser
  let carol: TestUser
  let orgId: string
  let issuerDid: string
  const journeys = new Map<TestUser, Journey>()
  const timings: Record<string, number> = {}

  const as = (user: TestUser) => ({
    get: (route: string) => request(platform.api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body: object = {}) =>
      request(platform.api.app).post(route).set('Authorization', `Bearer ${user.token}`).send(body),
    patch: (route: string, body: object = {}) =>
      request(platform.api.app).patch(route).set('Authorization', `Bearer ${user.token}`).send(body),
  })

  /** The organization's record at `route` once its state is one of `states` (records follow agent events). */
  const orgRecordReaches = (route: string, states: string[]) =>
    waitUntil(async () => {
      const record = (await as(owner).get(route).expect(200)).body.data as Rec
      return states.includes(record.state) ? record : undefined
    }, STATE_MS)

  /** The wallet's list at `route` once it holds a record matching `found`. */
  const walletListHas = (user: TestUser, route: string, found: (record: Rec) => boolean) =>
    waitUntil(async () => ((await as(user).get(route).expect(200)).body.data as Rec[]).find(found), STATE_MS)

  beforeAll(async () => {
    const started = Date.now()
    // The base agent runs from dist/ (the platform compiles its own agent program).
    buildPrograms()
    platform = await startPlatform({ PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL })
    base = await spawnAgent({
      label: 'base',
      env: { AGENT_EVENT_URL: `${platform.baseUrl}${BASE_WALLET_EVENTS_PATH}`, AGENT_EVENT_TOKEN: TEST_API_KEY },
    })
    owner = await aUserWithToken(platform.api)
    const admin = await aUserWithToken(platform.api, ADMIN_EMAIL)
    ;[alice, bob, carol] = [
      await aUserWithToken(platform.api),
      await aUserWithToken(platform.api),
      await aUserWithToken(platform.api),
    ]
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Issuer Org')
    issuerDid = ((await as(owner).get(`/v1/orgs/${orgId}/dids`).expect(200)).body.data as { did: string }[])[0].did
    await as(admin)
      .post('/v1/configure/base-wallet', { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'k-0001' })
      .expect(201)
    timings.setupMs = Date.now() - started
  }, 900_000)

  afterAll(async () => {
    // Durations on this run, for the report (jest prints console output of the file).
    console.log(`cloud-wallet e2e timings (ms): ${JSON.stringify(timings)}`)
    await base?.stop()
    await platform?.stop()
  }, 120_000)

  /** One user's whole journey, the organization's side only through the platform API. */
  async function journeyOf(user: TestUser, label: string): Promise<Journey> {
    const started = Date.now()
    await as(user).post('/v1/create-wallet', { label }).expect(201)
    const did = (await as(user).post('/v1/did', { method: 'key', keyType: 'ed25519' }).expect(201)).body.data
      .did as string

    // Connect: the organization invites, the wallet receives the URL; both sides reach `completed`.
    const invitation = await as(owner).post(`/v1/orgs/${orgId}/connections`).expect(201)
    const { invitationUrl, outOfBandRecord } = invitation.body.data as {
      invitationUrl: string
      outOfBandRecord: { id: string }
    }
    const received = await as(user).post('/v1/receive-invitation-url', { invitationUrl }).expect(201)
    const connection = received.body.data.connectionRecord.id as string
    // The list reaches `completed` only through the base agent's events.
    await walletListHas(user, '/v1/connections', (record) => record.id === connection && record.state === 'completed')
    const one = (await as(user).get(`/v1/connection/${connection}`).expect(200)).body.data as Rec
    expect(one.theirLabel).toBe('Issuer Org')
    const orgConnection = await waitUntil(async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
      const items = page.body.data.connections as { id: string; state: string; outOfBandId: string }[]
      return items.find((item) => item.outOfBandId === outOfBandRecord.id && item.state === 'completed')?.id
    }, STATE_MS)

    // A JSON-LD credential offered through the platform API, accepted in the wallet.
    const degree = `Bachelor of ${label}`
    const offered = await as(owner)
      .post(`/v1/orgs/${orgId}/credentials/offer?${JSONLD}`, {
        credentialData: [
          {
            connectionId: orgConnection,
            credential: aDegreeCredential(issuerDid, did, degree),
            options: signingOptions(),
          },
        ],
        protocolVersion: 'v2',
      })
      .expect(201)
    const [orgCredential] = offered.body.data as Rec[]
    expect(orgCredential.state).toBe('offer-sent')
    const credentialThread = String(orgCredential.threadId)
    const offer = await walletListHas(
      user,
      `/v1/credential?threadId=${credentialThread}`,
      (record) => record.state === 'offer-received',
    )
    await as(user)
      .post('/v1/accept-offer', {
        credentialRecordId: offer.id,
        autoAcceptCredential: 'always',
        credentialFormats: { jsonld: {} },
      })
      .expect(201)
    await walletListHas(user, `/v1/credential?threadId=${credentialThread}`, (record) => record.state === 'done')
    expect((await as(user).get(`/v1/credential/${offer.id}`).expect(200)).body.data.state).toBe('done')
    await orgRecordReaches(`/v1/orgs/${orgId}/credentials/${orgCredential.id}`, ['done'])

    // A presentation-exchange proof request, answered in the wallet and verified by the organization.
    const requested = await as(owner)
      .post(`/v1/orgs/${orgId}/proofs?${PE}`, {
        connectionId: orgConnection,
        presentationDefinition: aDegreePresentationDefinition([
          { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: degree } },
        ]),
      })
      .expect(201)
    const orgProof = requested.body.data as Rec
    expect(orgProof.state).toBe('request-sent')
    const proofThread = String(orgProof.threadId)
    const proofRequest = await walletListHas(
      user,
      `/v1/proofs?threadId=${proofThread}`,
      (record) => record.state === 'request-received',
    )
    await as(user)
      .post('/v1/proofs/accept-request', {
        proofRecordId: proofRequest.id,
        filterByPresentationPreview: false,
        filterByNonRevocationRequirements: false,
      })
      .expect(201)
    const arrived = await orgRecordReaches(`/v1/orgs/${orgId}/proofs/${orgProof.id}`, [
      'presentation-received',
      'done',
      'abandoned',
    ])
    expect(arrived.state).not.toBe('abandoned')
    const verified = await as(owner).post(`/v1/orgs/${orgId}/proofs/${orgProof.id}/verify`).expect(201)
    expect(verified.body.data.isVerified).toBe(true)
    const shown = await as(owner).get(`/v1/orgs/${orgId}/verified-proofs/${orgProof.id}`).expect(200)
    expect(shown.body.data.isVerified).toBe(true)
    expect(JSON.stringify(shown.body.data.revealed)).toContain(degree)
    expect((await as(user).get(`/v1/proofs/${proofRequest.id}`).expect(200)).body.data.id).toBe(proofRequest.id)

    // Basic messages both ways, each read on the other side.
    await as(user)
      .post(`/v1/basic-message/${connection}`, { content: `Hello from ${label}` })
      .expect(201)
    await as(owner)
      .post(`/v1/orgs/${orgId}/basic-message/${orgConnection}`, { content: `Hello ${label}` })
      .expect(201)
    await waitUntil(async () => {
      const list = await as(user).get(`/v1/basic-message/${connection}`).expect(200)
      const contents = (list.body.data as { content: string }[]).map((message) => message.content)
      return contents.includes(`Hello ${label}`) && contents.includes(`Hello from ${label}`) ? true : undefined
    }, STATE_MS)
    await waitUntil(async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/basic-message/${orgConnection}`).expect(200)
      const contents = (page.body.data.data as { content: string }[]).map((message) => message.content)
      return contents.includes(`Hello from ${label}`) ? true : undefined
    }, STATE_MS)

    timings[`journey${label}Ms`] = Date.now() - started
    return {
      did,
      connection,
      orgConnection,
      outOfBandId: outOfBandRecord.id,
      credential: offer.id,
      credentialThread,
      proof: proofRequest.id,
      proofThread,
      orgProof: orgProof.id,
    }
  }

  it('takes the first user through wallet, connection, JSON-LD credential, verified PE proof and messages', async () => {
    journeys.set(alice, await journeyOf(alice, 'Alice'))
  })

  it('takes the second user through the same, in a wallet of her own', async () => {
    journeys.set(bob, await journeyOf(bob, 'Bob'))
    const ofAlice = journeys.get(alice)
    const ofBob = journeys.get(bob)
    expect(ofBob?.connection).not.toBe(ofAlice?.connection)
    expect(ofBob?.did).not.toBe(ofAlice?.did)
  })

  /** Every wallet route `user` can aim at the records of `other`, with `other`'s ids. */
  function attemptsOn(user: TestUser, other: Journey): [string, request.Test][] {
    return [
      ['GET connection', as(user).get(`/v1/connection/${other.connection}`)],
      ['GET credential', as(user).get(`/v1/credential/${other.credential}`)],
      ['GET proof', as(user).get(`/v1/proofs/${other.proof}`)],
      ['GET basic messages', as(user).get(`/v1/basic-message/${other.connection}`)],
      ['POST basic message', as(user).post(`/v1/basic-message/${other.connection}`, { content: 'intrusion' })],
      [
        'POST accept-offer',
        as(user).post('/v1/accept-offer', {
          credentialRecordId: other.credential,
          autoAcceptCredential: 'always',
          credentialFormats: { jsonld: {} },
        }),
      ],
      ['POST accept-request', as(user).post('/v1/proofs/accept-request', { proofRecordId: other.proof })],
    ]
  }

  it("gives each user 404 (never data) for every wallet route with the other user's ids", async () => {
    for (const [user, other] of [
      [bob, alice],
      [alice, bob],
    ] as const) {
      const theirs = journeys.get(other) as Journey
      for (const [what, attempt] of attemptsOn(user, theirs)) {
        const res = await attempt
        expect({ what, status: res.status }).toEqual({ what, status: 404 })
        expect(res.body.data).toBeUndefined()
        expect(JSON.stringify(res.body)).not.toContain(theirs.did)
      }
      // The lists answer with the caller's own records only, whatever filter names the other's.
      const lists = await Promise.all([
        as(user).get(`/v1/connections?outOfBandId=${theirs.outOfBandId}`),
        as(user).get(`/v1/credential?connectionId=${theirs.connection}`),
        as(user).get(`/v1/credential?threadId=${theirs.credentialThread}`),
        as(user).get(`/v1/proofs?threadId=${theirs.proofThread}`),
      ])
      for (const list of lists) expect({ status: list.status, data: list.body.data }).toEqual({ status: 200, data: [] })
      const own = journeys.get(user) as Journey
      const everything = await Promise.all(
        ['/v1/connections', '/v1/credential', '/v1/proofs', '/v1/did'].map((route) => as(user).get(route).expect(200)),
      )
      const seen = JSON.stringify(everything.map((res) => res.body.data))
      for (const id of [theirs.connection, theirs.credential, theirs.proof, theirs.did]) expect(seen).not.toContain(id)
      expect(seen).toContain(own.connection)
      expect(seen).toContain(own.credential)
      expect(seen).toContain(own.proof)
      expect(seen).toContain(own.did)
    }
    // Nothing the intruder tried changed the owner's records.
    const ofAlice = journeys.get(alice) as Journey
    const messages = await as(alice).get(`/v1/basic-message/${ofAlice.connection}`).expect(200)
    expect((messages.body.data as { content: string }[]).map((message) => message.content)).not.toContain('intrusion')
    expect((await as(alice).get(`/v1/credential/${ofAlice.credential}`).expect(200)).body.data.state).toBe('done')
    expect(['presentation-sent', 'done']).toContain(
      (await as(alice).get(`/v1/proofs/${ofAlice.proof}`).expect(200)).body.data.state,
    )
  })

  it('answers a signed-in user without a wallet the clear 404 "create one first" on every wallet route', async () => {
    const ofAlice = journeys.get(alice) as Journey
    const invitation = await as(owner).post(`/v1/orgs/${orgId}/connections`).expect(201)
    const attempts: [string, request.Test][] = [
      ...attemptsOn(carol, ofAlice),
      ['POST connections/invitation', as(carol).post('/v1/connections/invitation', { label: 'Carol' })],
      ['GET connections', as(carol).get('/v1/connections')],
      [
        'POST receive-invitation-url',
        as(carol).post('/v1/receive-invitation-url', { invitationUrl: invitation.body.data.invitationUrl }),
      ],
      ['GET credential list', as(carol).get('/v1/credential')],
      ['GET proofs list', as(carol).get('/v1/proofs')],
      ['POST did', as(carol).post('/v1/did', { method: 'key', keyType: 'ed25519' })],
      ['GET did', as(carol).get('/v1/did')],
      [
        'POST webhook register',
        as(carol).post('/v1/webhooks/wallet/register', { webhookUrl: 'https://hooks.example.test/carol' }),
      ],
      ['PATCH webhook', as(carol).patch('/v1/webhooks/wallet', { webhookUrl: 'https://hooks.example.test/carol' })],
    ]
    for (const [what, attempt] of attempts) {
      const res = await attempt
      expect({ what, status: res.status, message: res.body.message }).toEqual({ what, status: 404, message: NO_WALLET })
      expect(res.body.data).toBeUndefined()
    }
    // Once she creates one, the same routes answer her (empty) wallet.
    await as(carol).post('/v1/create-wallet', { label: 'Carol' }).expect(201)
    expect((await as(carol).get('/v1/connections').expect(200)).body.data).toEqual([])
  })
})
