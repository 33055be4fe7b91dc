import { randomBytes } from 'node:crypto'
import request from 'supertest'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { spawnAgent, TEST_API_KEY, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { startPlatform, type Platform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(900_000)

const ADMIN_EMAIL = 'wallet-revocation-root@example.test'
/** Generous: under a loaded machine an agent round trip plus its event can take tens of seconds. */
const STATE_MS = 180_000

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const now = () => Math.floor(Date.now() / 1000)

/**
 * Issue 25 item 3, last clause, through the platform API: the cloud wallet honours
 * `filterByNonRevocationRequirements`. An organization (its agent run by the platform, on the platform ledger) issues
 * a revocable AnonCreds credential to a cloud-wallet user (a tenant of a real base agent); a proof request with
 * `non_revoked` is answered and verified. Once the credential is revoked and published, the wallet asked to filter
 * refuses the same request (409: nothing meets it), and asked not to filter presents the revoked credential, which
 * the organization's verification rejects.
 * DATABASE_URL / AMQP_URL choose PostgreSQL and RabbitMQ.
 */
describe('the cloud wallet and a revoked AnonCreds credential', () => {
  let platform: Platform
  let base: SpawnedAgent
  let owner: TestUser
  let holder: TestUser
  let orgId: string
  let orgConnection: string
  let definition: Json
  let issued: Json

  const as = (user: TestUser) => ({
    get: (route: string) => request(platform.api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body: object = {}) =>
      request(platform.api.app).post(route).set('Authorization', `Bearer ${user.token}`).send(body),
  })

  /** The wallet's list at `route` once it holds a record matching `found`. */
  const walletListHas = (route: string, found: (record: Json) => boolean) =>
    waitUntil(async () => ((await as(holder).get(route).expect(200)).body.data as Json[]).find(found), STATE_MS)

  /** The organization's record at `route` once its state is one of `states`. */
  const orgRecordReaches = (route: string, states: string[]) =>
    waitUntil(async () => {
      const record = (await as(owner).get(route).expect(200)).body.data as Json
      return states.includes(record.state) ? record : undefined
    }, STATE_MS)

  beforeAll(async () => {
    buildPrograms()
    platform = await startPlatform({ PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL, REVOCATION_REGISTRY_SIZE: '8' })
    // The base agent's ledger is the platform's (the origin of its event URL).
    base = await spawnAgent({
      label: 'base',
      env: { AGENT_EVENT_URL: `${platform.baseUrl}${BASE_WALLET_EVENTS_PATH}`, AGENT_EVENT_TOKEN: TEST_API_KEY },
    })
    owner = await aUserWithToken(platform.api)
    holder = await aUserWithToken(platform.api)
    const admin = await aUserWithToken(platform.api, ADMIN_EMAIL)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Revoking Issuer', 'indy')
    await as(admin)
      .post('/v1/configure/base-wallet', { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'k-0001' })
      .expect(201)
  }, 900_000)

  afterAll(async () => {
    await base?.stop()
    await platform?.stop()
  }, 120_000)

  it('issues a revocable AnonCreds credential to a cloud wallet', async () => {
    const schema = await as(owner)
      .post(`/v1/orgs/${orgId}/schemas`, {
        type: 'INDY',
        schemaPayload: {
          schemaName: `wallet-member-${randomBytes(3).toString('hex')}`,
          schemaVersion: '1.0',
          attributes: [{ attributeName: 'name', schemaDataType: 'string', displayName: 'Name', isRequired: true }],
        },
      })
      .expect(201)
    const created = await as(owner)
      .post(`/v1/orgs/${orgId}/cred-defs`, {
        tag: 'revocable',
        schemaLedgerId: schema.body.data.schemaLedgerId,
        revocable: true,
      })
      .expect(201)
    definition = await waitUntil(async () => {
      const current = (await as(owner).get(`/v1/orgs/${orgId}/cred-defs/${created.body.data.id}`).expect(200)).body
        .data as Json
      if (current.status === 'failed') throw new Error(`The job failed: ${current.error}`)
      return current.status === 'created' ? current : undefined
    }, 600_000)
    expect(definition.revocable).toBe(true)

    await as(holder).post('/v1/create-wallet', { label: 'Wallet Holder' }).expect(201)
    const invitation = await as(owner).post(`/v1/orgs/${orgId}/connections`).expect(201)
    const { invitationUrl, outOfBandRecord } = invitation.body.data as Json
    const received = await as(holder).post('/v1/receive-invitation-url', { invitationUrl }).expect(201)
    const walletConnection = received.body.data.connectionRecord.id as string
    await walletListHas('/v1/connections', (record) => record.id === walletConnection && record.state === 'completed')
    orgConnection = await waitUntil(async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
      const items = page.body.data.connections as Json[]
      return items.find((item) => item.outOfBandId === outOfBandRecord.id && item.state === 'completed')?.id
    }, STATE_MS)

    const offered = await as(owner)
      .post(`/v1/orgs/${orgId}/credentials/offer?credentialType=INDY`, {
        credentialDefinitionId: definition.credentialDefinitionId,
        protocolVersion: 'v2',
        credentialData: [{ connectionId: orgConnection, attributes: [{ name: 'name', value: 'Alice' }] }],
      })
      .expect(201)
    const [record] = offered.body.data as Json[]
    expect(record).toMatchObject({ revocationIndex: 1, revoked: false })
    const offer = await walletListHas(
      `/v1/credential?threadId=${record.threadId}`,
      (entry) => entry.state === 'offer-received',
    )
    await as(holder)
      .post('/v1/accept-offer', {
        credentialRecordId: offer.id,
        autoAcceptCredential: 'always',
        credentialFormats: { anoncreds: {} },
      })
      .expect(201)
    await walletListHas(`/v1/credential?threadId=${record.threadId}`, (entry) => entry.state === 'done')
    issued = await orgRecordReaches(`/v1/orgs/${orgId}/credentials/${record.id}`, ['done'])
  })

  /** A proof request of the name with a non_revoked interval to now, through the API; the wallet's copy of it. */
  async function requestProof(): Promise<{ orgProof: Json; walletProof: Json }> {
    const requested = await as(owner)
      .post(`/v1/orgs/${orgId}/proofs`, {
        connectionId: orgConnection,
        proofFormats: {
          indy: {
            attributes: [{ attributeName: 'name', credDefId: definition.credentialDefinitionId }],
            non_revoked: { to: now() },
          },
        },
      })
      .expect(201)
    const orgProof = requested.body.data as Json
    const walletProof = await walletListHas(
      `/v1/proofs?threadId=${orgProof.threadId}`,
      (entry) => entry.state === 'request-received',
    )
    return { orgProof, walletProof }
  }

  /** The wallet answers, the organization verifies: its result and the verified-proofs read. */
  async function answerAndVerify(filterByNonRevocationRequirements: boolean): Promise<Json> {
    const { orgProof, walletProof } = await requestProof()
    await as(holder)
      .post('/v1/proofs/accept-request', { proofRecordId: walletProof.id, filterByNonRevocationRequirements })
      .expect(201)
    await orgRecordReaches(`/v1/orgs/${orgId}/proofs/${orgProof.id}`, ['presentation-received', 'done', 'abandoned'])
    const verified = await as(owner).post(`/v1/orgs/${orgId}/proofs/${orgProof.id}/verify`).expect(201)
    const read = (await as(owner).get(`/v1/orgs/${orgId}/verified-proofs/${orgProof.id}`).expect(200)).body.data as Json
    expect(read.isVerified).toBe(verified.body.data.isVerified)
    return read
  }

  it('presents the credential while it is not revoked, filtering or not', async () => {
    for (const filter of [true, false]) {
      const read = await answerAndVerify(filter)
      expect(read).toMatchObject({ isVerified: true, verificationStatus: 'verified' })
      expect(read.revocationChecks.credentials).toEqual([
        expect.objectContaining({ revocationRegistryId: issued.revocationRegistryId }),
      ])
    }
  })

  it('revokes and publishes the credential', async () => {
    // Status lists are dated in seconds: the revocation lands after the proofs above.
    await sleep(1100)
    const revoked = await as(owner).post(`/v1/orgs/${orgId}/credentials/${issued.id}/revoke`, {}).expect(201)
    expect(revoked.body.data).toMatchObject({ revoked: true, revocationStatus: 'revoked' })
    await sleep(1100)
  })

  it('refuses the request with filterByNonRevocationRequirements true: nothing meets it (409)', async () => {
    const { orgProof, walletProof } = await requestProof()
    const refused = await as(holder)
      .post('/v1/proofs/accept-request', { proofRecordId: walletProof.id, filterByNonRevocationRequirements: true })
      .expect(409)
    expect(refused.body.message).toMatch(/cannot be answered/)
    // Nothing was presented: the organization's exchange never reaches a presentation.
    const orgRecord = (await as(owner).get(`/v1/orgs/${orgId}/proofs/${orgProof.id}`).expect(200)).body.data as Json
    expect(orgRecord.isVerified).toBeNull()
    expect(['request-sent', 'abandoned']).toContain(orgRecord.state)
  })

  it('presents the revoked credential with filterByNonRevocationRequirements false, and it is not verified', async () => {
    const read = await answerAndVerify(false)
    expect(read).toMatchObject({ isVerified: false, verificationStatus: 'not-verified' })
  })
})
