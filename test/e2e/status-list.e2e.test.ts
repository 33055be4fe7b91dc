import { rmSync } from 'node:fs'
import type { Server } from 'node:http'
import request from 'supertest'
import { RequestContext } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { decodeBitstring, getBit, MIN_STATUS_LIST_SIZE } from '../../common/bitstring-status-list'
import { AgentClients } from '../../api/src/agent-client/agent-clients'
import { startApi, type TestApi } from '../helpers/api'
import { freePort } from '../helpers/ports'
import { spawnAgent, type SpawnedAgent, waitUntil } from '../helpers/agent-process'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { aDegreeCredential, EXAMPLES_CONTEXT, signingOptions } from '../fixtures/degree-credential'
import { buildPrograms } from '../helpers/build-programs'
import { claimAgentPorts } from '../helpers/ports'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
interface Envelope<T> {
  data: T
}

const PE = 'requestType=PRESENTATIONEXCHANGE'

jest.setTimeout(600_000)

/** A definition asking for a degree of the given name (format ldp_vc, Ed25519Signature2020). */
function definitionFor(degreeName: string) {
  return {
    id: `degree-${degreeName.replace(/\W/g, '-')}`,
    format: { ldp_vc: { proof_type: ['Ed25519Signature2020'] }, ldp_vp: { proof_type: ['Ed25519Signature2020'] } },
    input_descriptors: [
      {
        id: 'degree',
        schema: [{ uri: EXAMPLES_CONTEXT }],
        constraints: {
          fields: [{ path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: degreeName } }],
        },
      },
    ],
  }
}

/**
 * Issue 25 item 4 through the platform API with two real agents: the organization's agent (the API provisions it)
 * issues JSON-LD credentials with a BitstringStatusListEntry (one of purpose revocation, one of suspension) to a
 * holder agent process, and then requests presentations of them. The status lists are served without a token and
 * signed by the organization's DID; a presentation verifies, and after revoke (pending, then revocations/publish),
 * suspend and reinstate it fails (reason given) or verifies again. DATABASE_URL / AMQP_URL choose PostgreSQL and
 * RabbitMQ.
 */
describe('W3C Bitstring Status Lists through the platform API', () => {
  let api: TestApi
  let server: Server
  let holder: SpawnedAgent
  let owner: TestUser
  let orgId: string
  let issuerDid: string
  let holderDid: string
  let connectionId: string
  let revocable: Json
  let suspendable: Json

  const post = (route: string, body?: unknown) =>
    request(api.app)
      .post(route)
      .set('Authorization', `Bearer ${owner.token}`)
      .send(body as object)
  const read = (route: string) => request(api.app).get(route).set('Authorization', `Bearer ${owner.token}`)

  async function offerWithStatus(degreeName: string, statusPurpose: string): Promise<Json> {
    const { credentialSubject, ...credential } = aDegreeCredential(issuerDid, holderDid, degreeName)
    const offered = await post(`/v1/orgs/${orgId}/credentials/offer?credentialType=JSONLD`, {
      credentialData: [
        {
          connectionId,
          credential: { ...credential, credentialSubject: { degree: credentialSubject.degree } },
          options: signingOptions(),
          credentialStatus: { statusPurpose },
        },
      ],
    }).expect(201)
    const [record] = offered.body.data as Json[]
    const holderOffer = await waitUntil(async () => {
      const list = await holder.call<Envelope<Json[]>>('GET', `/credentials?threadId=${record.threadId}`)
      return list.body.data.find((entry) => entry.state === 'offer-received')
    }, 60_000)
    const accepted = await holder.call('POST', '/credentials/accept-offer', {
      credentialRecordId: holderOffer.id,
      credentialFormats: { jsonld: { credentialSubjectId: holderDid } },
    })
    expect(accepted.status).toBe(201)
    const done = await waitUntil(async () => {
      const shown = (await read(`/v1/orgs/${orgId}/credentials/${record.id}`).expect(200)).body.data as Json
      if (shown.state === 'abandoned') throw new Error(`Abandoned: ${shown.errorMessage}`)
      return shown.state === 'done' ? shown : undefined
    }, 60_000)
    return { ...done, holderRecordId: holderOffer.id }
  }

  /** Requests a presentation of the degree, the holder answers, the API verifies: the verified-proofs read. */
  async function prove(degreeName: string): Promise<Json> {
    const sent = await post(`/v1/orgs/${orgId}/proofs?${PE}`, {
      connectionId,
      presentationDefinition: definitionFor(degreeName),
    }).expect(201)
    const requested = await waitUntil(async () => {
      const list = await holder.call<Envelope<Json[]>>('GET', `/proofs?threadId=${sent.body.data.threadId}`)
      return list.body.data.find((entry) => entry.state === 'request-received')
    }, 60_000)
    expect((await holder.call('POST', '/proofs/accept-request', { proofRecordId: requested.id })).status).toBe(201)
    await waitUntil(async () => {
      const proof = (await read(`/v1/orgs/${orgId}/proofs/${sent.body.data.id}`).expect(200)).body.data as Json
      return ['abandoned', 'done', 'presentation-received'].includes(proof.state) ? proof : undefined
    }, 60_000)
    await post(`/v1/orgs/${orgId}/proofs/${sent.body.data.id}/verify`)
    return (await read(`/v1/orgs/${orgId}/verified-proofs/${sent.body.data.id}`).expect(200)).body.data as Json
  }

  /** The served list of a record, fetched without a token, and the record's bit in it. */
  async function servedBit(record: Json): Promise<{ list: Json; bit: boolean }> {
    const served = await request(api.app).get(`/v1/status-lists/${record.statusListId}`).expect(200)
    const list = JSON.parse(served.text) as Json
    return { list, bit: getBit(decodeBitstring(list.credentialSubject.encodedList), record.statusListIndex) }
  }

  beforeAll(async () => {
    buildPrograms()
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    api = await startApi({
      API_PUBLIC_URL: base,
      API_INTERNAL_URL: base,
      AGENT_POLL_ATTEMPTS: '120',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
    })
    server = api.app.listen(port, '127.0.0.1')
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await post(`/v1/orgs/${orgId}/agents/spinup`, { label: 'Status University', method: 'key' }).expect(201)
    holder = await spawnAgent({ label: 'status-holder' })
    await waitUntil(async () => {
      const health = await read(`/v1/orgs/${orgId}/agents/health`)
      if (health.body.data?.status === 'FAILED') throw new Error(JSON.stringify(health.body.data))
      return health.body.data?.status === 'DID_CREATED' ? true : undefined
    }, 150_000)
    issuerDid = ((await read(`/v1/orgs/${orgId}/dids`).expect(200)).body.data as Json[])[0].did
    holderDid = (await holder.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did

    const em = api.runtime.container.get(EntityManager).fork()
    const orgAgent = await RequestContext.create(em, () => api.runtime.container.get(AgentClients).forOrg(orgId))
    const invitation = await orgAgent.createInvitation({ autoAcceptConnection: true })
    await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: invitation.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    const outOfBandId = (invitation.outOfBandRecord as { id: string }).id
    const connection = await waitUntil(async () => {
      const list = await orgAgent.listConnections({ outOfBandId })
      return list.find((record) => record.state === 'completed')
    }, 60_000)
    connectionId = connection.id
  }, 600_000)

  afterAll(async () => {
    await holder?.stop()
    if (holder) rmSync(holder.dataDir, { recursive: true, force: true })
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    await api?.stop()
  }, 60_000)

  it('issues JSON-LD credentials with a status entry at a random index of a public, signed list', async () => {
    revocable = await offerWithStatus('Revocable Science', 'revocation')
    suspendable = await offerWithStatus('Suspendable Arts', 'suspension')
    expect(revocable).toMatchObject({ statusPurpose: 'revocation', revoked: false, suspended: false })
    expect(suspendable).toMatchObject({ statusPurpose: 'suspension', suspensionStatus: null })
    expect(revocable.statusListId).not.toBe(suspendable.statusListId)
    const { list, bit } = await servedBit(revocable)
    expect(bit).toBe(false)
    expect(list).toMatchObject({
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: issuerDid,
      credentialSubject: { type: 'BitstringStatusList', statusPurpose: 'revocation' },
    })
    expect(list.proof).toMatchObject({ type: 'Ed25519Signature2020' })
    expect(decodeBitstring(list.credentialSubject.encodedList).length * 8).toBe(MIN_STATUS_LIST_SIZE)
    // The credential the holder stored carries the entry pointing at that list.
    const stored = await holder.call<Envelope<Json>>('GET', `/credentials/${revocable.holderRecordId}/form-data`)
    expect(JSON.stringify(stored.body.data)).toContain(`/v1/status-lists/${revocable.statusListId}#`)
  })

  /** The revocationChecks of a verified-proofs read of one presented credential of `record`: its status entry. */
  const checkedStatusOf = (record: Json) => ({
    nonRevoked: null,
    credentials: [],
    statusLists: [
      {
        credentialId: null,
        issuer: issuerDid,
        statusListCredential: expect.stringMatching(new RegExp(`/v1/status-lists/${record.statusListId}$`)),
        statusListIndex: record.statusListIndex,
        statusPurpose: record.statusPurpose,
      },
    ],
  })

  it('verifies a presentation of each while neither is revoked or suspended, naming the status checked', async () => {
    const first = await prove('Revocable Science')
    expect(first).toMatchObject({ isVerified: true, verificationStatus: 'verified' })
    expect(first.revocationChecks).toEqual(checkedStatusOf(revocable))
    const second = await prove('Suspendable Arts')
    expect(second).toMatchObject({ isVerified: true })
    expect(second.revocationChecks).toEqual(checkedStatusOf(suspendable))
  })

  it('revokes (pending, then published): the list bit is set and the presentation fails with the reason', async () => {
    const pending = await post(`/v1/orgs/${orgId}/credentials/${revocable.id}/revoke`, { publish: false }).expect(201)
    expect(pending.body.data).toMatchObject({ revoked: false, revocationStatus: 'pending' })
    expect((await servedBit(revocable)).bit).toBe(false)
    const published = await post(`/v1/orgs/${orgId}/revocations/publish`).expect(201)
    expect(published.body.data).toEqual([
      expect.objectContaining({ revocationRegistryId: null, credentialRecordIds: [revocable.id] }),
    ])
    expect((await read(`/v1/orgs/${orgId}/credentials/${revocable.id}`)).body.data).toMatchObject({ revoked: true })
    expect((await servedBit(revocable)).bit).toBe(true)
    const shown = await prove('Revocable Science')
    expect(shown).toMatchObject({ isVerified: false, verificationStatus: 'not-verified' })
    expect(shown.errorMessage).toMatch(/revoked/)
    // The failed check is named in the reason (list and index). revocationChecks cannot list it: Credo keeps a
    // presentation only once it verified, so the format data of this one has none.
    expect(shown.errorMessage).toContain(
      `/v1/status-lists/${revocable.statusListId}, index ${revocable.statusListIndex}`,
    )
    expect(shown.revocationChecks).toEqual({ nonRevoked: null, credentials: [], statusLists: [] })
    // Revocation is permanent; suspension does not apply to a revocation entry.
    await post(`/v1/orgs/${orgId}/credentials/${revocable.id}/revoke`, {}).expect(409)
    await post(`/v1/orgs/${orgId}/credentials/${revocable.id}/revoke`, { reinstate: true }).expect(400)
    await post(`/v1/orgs/${orgId}/credentials/${revocable.id}/revoke`, { purpose: 'suspension' }).expect(400)
  })

  it('suspends (the presentation fails) and reinstates (it verifies again)', async () => {
    const suspended = await post(`/v1/orgs/${orgId}/credentials/${suspendable.id}/revoke`, {
      purpose: 'suspension',
    }).expect(201)
    expect(suspended.body.data).toMatchObject({ suspended: true, suspensionStatus: 'suspended', revoked: false })
    expect((await servedBit(suspendable)).bit).toBe(true)
    const failed = await prove('Suspendable Arts')
    expect(failed).toMatchObject({ isVerified: false })
    expect(failed.errorMessage).toMatch(/suspended/)

    const reinstated = await post(`/v1/orgs/${orgId}/credentials/${suspendable.id}/revoke`, {
      purpose: 'suspension',
      reinstate: true,
    }).expect(201)
    expect(reinstated.body.data).toMatchObject({ suspended: false, suspensionStatus: null })
    expect((await servedBit(suspendable)).bit).toBe(false)
    expect(await prove('Suspendable Arts')).toMatchObject({ isVerified: true })
    // Not suspended any more: reinstating again is a conflict.
    await post(`/v1/orgs/${orgId}/credentials/${suspendable.id}/revoke`, {
      purpose: 'suspension',
      reinstate: true,
    }).expect(409)
  })

  it('answers 404 for an unknown status list, without a token', async () => {
    await request(api.app).get('/v1/status-lists/00000000-0000-4000-8000-000000000000').expect(404)
    await request(api.app).get('/v1/status-lists/not-a-list').expect(404)
  })
})
