import request from 'supertest'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'
import { spawnAgent, TEST_API_KEY, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { histogramLabelSets } from '../helpers/metrics'
import { startPlatform, type Platform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(900_000)

const ADMIN_EMAIL = 'caller-errors-root@example.test'
const STATE_MS = 180_000

type Rec = Record<string, unknown> & { id: string; state: string }
interface ErrorAnswer {
  statusCode: number
  message: string
  error: string
  errors?: { field: string; message: string }[]
}

/**
 * Issue 23, item 8: mistakes of the caller that reach an agent are the caller's 4xx with the agent's reason, never a
 * 502 (the agent answered 500 for each before). Through the real API, an organization's agent and a cloud wallet
 * on a real base agent: an invitation URL that holds no invitation, a label with a lone surrogate, an invitation
 * whose service is a DID nobody resolves, a proof request no credential of the wallet satisfies, and accepting an
 * offer a second time. The API's agent-call metric counts each as `rejected`, not `failed`.
 */
describe('caller errors at the agent come back as 4xx with its reason', () => {
  let platform: Platform
  let base: SpawnedAgent
  let owner: TestUser
  let alice: TestUser
  let orgId: string
  let orgConnection: string
  let acceptedOffer: string

  const as = (user: TestUser) => ({
    get: (route: string) => request(platform.api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body: object = {}) =>
      request(platform.api.app).post(route).set('Authorization', `Bearer ${user.token}`).send(body),
  })

  const walletListHas = (route: string, found: (record: Rec) => boolean) =>
    waitUntil(async () => ((await as(alice).get(route).expect(200)).body.data as Rec[]).find(found), STATE_MS)

  /** The API's outcomes of its calls to agents, by operation. */
  async function outcomesOf(operation: string): Promise<string[]> {
    const metrics = await request(platform.api.app).get('/metrics').expect(200)
    return histogramLabelSets(metrics.text, 'idplane_api_agent_request_duration_seconds')
      .filter((labels) => labels.operation === operation)
      .map((labels) => labels.outcome ?? '')
      .sort()
  }

  beforeAll(async () => {
    buildPrograms()
    platform = await startPlatform({ PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL })
    base = await spawnAgent({
      label: 'base',
      env: { AGENT_EVENT_URL: `${platform.baseUrl}${BASE_WALLET_EVENTS_PATH}`, AGENT_EVENT_TOKEN: TEST_API_KEY },
    })
    owner = await aUserWithToken(platform.api)
    alice = await aUserWithToken(platform.api)
    const admin = await aUserWithToken(platform.api, ADMIN_EMAIL)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Issuer Org')
    const issuerDid = ((await as(owner).get(`/v1/orgs/${orgId}/dids`).expect(200)).body.data as { did: string }[])[0]
      ?.did as string
    await as(admin)
      .post('/v1/configure/base-wallet', { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'k-0001' })
      .expect(201)
    await as(alice).post('/v1/create-wallet', { label: 'Alice' }).expect(201)
    const holderDid = (await as(alice).post('/v1/did', { method: 'key', keyType: 'ed25519' }).expect(201)).body.data
      .did as string

    const invitation = await as(owner).post(`/v1/orgs/${orgId}/connections`).expect(201)
    const { invitationUrl, outOfBandRecord } = invitation.body.data as {
      invitationUrl: string
      outOfBandRecord: { id: string }
    }
    const connection = (await as(alice).post('/v1/receive-invitation-url', { invitationUrl }).expect(201)).body.data
      .connectionRecord.id as string
    await walletListHas('/v1/connections', (record) => record.id === connection && record.state === 'completed')
    orgConnection = await waitUntil(async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
      const items = page.body.data.connections as { id: string; state: string; outOfBandId: string }[]
      return items.find((item) => item.outOfBandId === outOfBandRecord.id && item.state === 'completed')?.id
    }, STATE_MS)

    const offered = await as(owner)
      .post(`/v1/orgs/${orgId}/credentials/offer?credentialType=JSONLD`, {
        credentialData: [
          {
            connectionId: orgConnection,
            credential: aDegreeCredential(issuerDid, holderDid),
            options: signingOptions(),
          },
        ],
        protocolVersion: 'v2',
      })
      .expect(201)
    const thread = String((offered.body.data as Rec[])[0]?.threadId)
    const offer = await walletListHas(
      `/v1/credential?threadId=${thread}`,
      (record) => record.state === 'offer-received',
    )
    await as(alice)
      .post('/v1/accept-offer', {
        credentialRecordId: offer.id,
        autoAcceptCredential: 'always',
        credentialFormats: { jsonld: {} },
      })
      .expect(201)
    await walletListHas(`/v1/credential?threadId=${thread}`, (record) => record.state === 'done')
    acceptedOffer = offer.id
  }, 900_000)

  afterAll(async () => {
    await base?.stop()
    await platform?.stop()
  }, 120_000)

  it('answers 400 to an invitation URL that holds no invitation', async () => {
    const notAnInvitation = Buffer.from(JSON.stringify({ greeting: 'hello' })).toString('base64url')
    const res = await as(alice)
      .post('/v1/receive-invitation-url', { invitationUrl: `https://example.com/invite?oob=${notAnInvitation}` })
      .expect(400)
    const body = res.body as ErrorAnswer
    expect(body.message).toMatch(/^invitationUrl holds no out-of-band invitation: .*not a valid DIDComm message/)
    expect(body.errors).toEqual([
      { field: 'invitationUrl', message: 'must carry or lead to an out-of-band invitation' },
    ])
    expect(await outcomesOf('receiveInvitationUrl')).toContain('rejected')
    expect(await outcomesOf('receiveInvitationUrl')).not.toContain('failed')
  })

  it('answers 400 naming the field to a label with a lone surrogate', async () => {
    const res = await as(owner).post(`/v1/orgs/${orgId}/connections`, { label: 'Issuer \ud800 Org' }).expect(400)
    const body = res.body as ErrorAnswer
    expect(body.message).toBe('label is not valid Unicode text (it holds a lone surrogate)')
    expect(body.errors).toEqual([{ field: 'label', message: 'must be valid Unicode text (no lone surrogate)' }])
    expect(await outcomesOf('createInvitation')).toEqual(expect.arrayContaining(['rejected', 'success']))
    expect(await outcomesOf('createInvitation')).not.toContain('failed')
  })

  it('answers 400 to an invitation whose service is a DID that cannot be resolved', async () => {
    const invitation = {
      '@type': 'https://didcomm.org/out-of-band/1.1/invitation',
      '@id': '8c4f8b52-7a55-4d3f-9d5e-3c6f0c2a1b10',
      label: 'Nobody',
      handshake_protocols: ['https://didcomm.org/didexchange/1.1'],
      services: ['did:example:nobody-resolves-this'],
    }
    const res = await as(owner).post(`/v1/orgs/${orgId}/receive-invitation`, { invitation }).expect(400)
    const body = res.body as ErrorAnswer
    expect(body.message).toMatch(/^The invitation cannot be received: Unable to resolve did document for did/)
    expect(body.message).toContain('did:example:nobody-resolves-this')
    expect(await outcomesOf('receiveInvitation')).toEqual(['rejected'])
  })

  it('answers 409 to answering a proof request that no credential of the wallet satisfies', async () => {
    const requested = await as(owner)
      .post(`/v1/orgs/${orgId}/proofs?requestType=PRESENTATIONEXCHANGE`, {
        connectionId: orgConnection,
        presentationDefinition: aDegreePresentationDefinition([
          { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: 'Doctor of Nothing' } },
        ]),
      })
      .expect(201)
    const thread = String((requested.body.data as Rec).threadId)
    const proofRequest = await walletListHas(
      `/v1/proofs?threadId=${thread}`,
      (record) => record.state === 'request-received',
    )
    const res = await as(alice).post('/v1/proofs/accept-request', { proofRecordId: proofRequest.id }).expect(409)
    const body = res.body as ErrorAnswer
    expect(body.message).toMatch(/^The proof request cannot be answered: /)
    expect(body.message).toMatch(/credential/i)
    expect(await outcomesOf('acceptProofRequest')).toEqual(['rejected'])
  })

  it('answers 409 with the state to accepting an offer a second time', async () => {
    const res = await as(alice)
      .post('/v1/accept-offer', {
        credentialRecordId: acceptedOffer,
        autoAcceptCredential: 'always',
        credentialFormats: { jsonld: {} },
      })
      .expect(409)
    const body = res.body as ErrorAnswer
    expect(body.message).toBe('Credential record is in invalid state done. Valid states are: offer-received.')
    expect(await outcomesOf('acceptCredentialOffer')).toEqual(['rejected', 'success'])
  })
})
