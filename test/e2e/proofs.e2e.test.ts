import { rmSync } from 'node:fs'
import type { Server } from 'node:http'
import request from 'supertest'
import { RequestContext } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { AgentClients } from '../../api/src/agent-client/agent-clients'
import { startApi, type TestApi } from '../helpers/api'
import { freePort } from '../helpers/ports'
import { spawnAgent, type SpawnedAgent, waitUntil } from '../helpers/agent-process'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { aDegreeCredential, EXAMPLES_CONTEXT, signingOptions } from '../fixtures/degree-credential'
import { buildPrograms } from '../helpers/build-programs'
import { claimAgentPorts } from '../helpers/ports'

interface Envelope<T> {
  data: T
}
type AgentRecord = Record<string, unknown> & { id: string; state: string; threadId: string }
interface ProofBody {
  id: string
  state: string
  connectionId: string | null
  threadId: string
  isVerified: boolean | null
  errorMessage: string | null
}

const PE = 'requestType=PRESENTATIONEXCHANGE'

jest.setTimeout(240_000)

/** A definition asking for a degree of the given name, signed with Ed25519Signature2020 (format ldp_vc). */
function definitionFor(degreeName: string) {
  return {
    id: `degree-${degreeName.replace(/\W/g, '-')}`,
    format: { ldp_vc: { proof_type: ['Ed25519Signature2020'] }, ldp_vp: { proof_type: ['Ed25519Signature2020'] } },
    input_descriptors: [
      {
        id: 'degree',
        schema: [{ uri: EXAMPLES_CONTEXT }],
        constraints: {
          fields: [
            { path: ['$.credentialSubject.degree.type'] },
            { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: degreeName } },
          ],
        },
      },
    ],
  }
}

/**
 * Verification through the platform API end to end: a verifier organization whose agent the API provisions (the
 * real agent program), and a holder agent process driven through its own admin API as an outside wallet, which
 * first receives two JSON-LD credentials from a separate issuer agent process: one signed with
 * Ed25519Signature2020 and one with Ed25519Signature2018.
 */
describe('proofs through the platform API with real agents', () => {
  let api: TestApi
  let server: Server
  let issuer: SpawnedAgent
  let holder: SpawnedAgent
  let owner: TestUser
  let orgId: string

  const as = (path: string, body?: unknown) =>
    request(api.app)
      .post(path)
      .set('Authorization', `Bearer ${owner.token}`)
      .send(body as object)
  const read = (path: string) => request(api.app).get(path).set('Authorization', `Bearer ${owner.token}`)
  const proofOf = async (proofId: string): Promise<ProofBody> =>
    (await read(`/v1/orgs/${orgId}/proofs/${proofId}`).expect(200)).body.data as ProofBody
  const untilState = (proofId: string, states: string[]) =>
    waitUntil(async () => {
      const proof = await proofOf(proofId)
      return states.includes(proof.state) ? proof : undefined
    }, 60_000)

  /** Holder side: the request of `threadId` arrives, and the holder answers it. */
  async function holderPresents(threadId: string): Promise<string> {
    const received = await waitUntil(async () => {
      const list = await holder.call<Envelope<AgentRecord[]>>('GET', `/proofs?threadId=${threadId}`)
      return list.body.data.find((record) => record.state === 'request-received')
    }, 60_000)
    const accepted = await holder.call('POST', '/proofs/accept-request', { proofRecordId: received.id })
    expect(accepted.status).toBe(201)
    return received.id
  }

  /** Connects the verifier organization's agent to the holder; the organization's connection id. */
  async function connectHolder(): Promise<string> {
    // Outside a request: the repositories behind AgentClients need an EntityManager context of their own.
    const em = api.runtime.container.get(EntityManager).fork()
    const verifierAgent = await RequestContext.create(em, () => api.runtime.container.get(AgentClients).forOrg(orgId))
    const invitation = await verifierAgent.createInvitation({ autoAcceptConnection: true })
    const received = await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: invitation.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    expect(received.status).toBe(201)
    const outOfBandId = (invitation.outOfBandRecord as { id: string }).id
    const connection = await waitUntil(async () => {
      const list = await verifierAgent.listConnections({ outOfBandId })
      return list.find((record) => record.state === 'completed')
    }, 60_000)
    return connection.id
  }

  /** The issuer agent issues one credential to the holder over their connection, signed with `proofType`. */
  async function issueToHolder(connectionId: string, degreeName: string, proofType: string): Promise<void> {
    const issuerDid = (await issuer.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did
    const holderDid = (await holder.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did
    const offer = await issuer.call<Envelope<AgentRecord>>('POST', '/credentials/offer', {
      connectionId,
      credential: aDegreeCredential(issuerDid, holderDid, degreeName),
      options: signingOptions(proofType),
    })
    expect(offer.status).toBe(201)
    const holderOffer = await waitUntil(async () => {
      const list = await holder.call<Envelope<AgentRecord[]>>(
        'GET',
        `/credentials?threadId=${offer.body.data.threadId}`,
      )
      return list.body.data.find((record) => record.state === 'offer-received')
    }, 60_000)
    expect(
      (await holder.call('POST', '/credentials/accept-offer', { credentialRecordId: holderOffer.id })).status,
    ).toBe(201)
    await waitUntil(async () => {
      const record = await holder.call<Envelope<AgentRecord>>('GET', `/credentials/${holderOffer.id}`)
      return record.body.data.state === 'done' ? true : undefined
    }, 60_000)
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
    await as(`/v1/orgs/${orgId}/agents/spinup`, { label: 'Verifier', method: 'key' }).expect(201)
    // One at a time: on a loaded machine three agents starting together can miss the helper's start deadline.
    issuer = await spawnAgent({ label: 'issuer' })
    holder = await spawnAgent({ label: 'holder' })
    await waitUntil(async () => {
      const health = await read(`/v1/orgs/${orgId}/agents/health`)
      if (health.body.data?.status === 'FAILED') throw new Error(JSON.stringify(health.body.data))
      return health.body.data?.status === 'DID_CREATED' ? true : undefined
    }, 150_000)

    // The holder's wallet: credentials from the issuer agent, through the agents' admin APIs directly.
    const invitation = await issuer.call<Envelope<{ invitationUrl: string; outOfBandRecord: { id: string } }>>(
      'POST',
      '/oob/create-invitation',
      { autoAcceptConnection: true },
    )
    await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: invitation.body.data.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    const issuerConnection = await waitUntil(async () => {
      const list = await issuer.call<Envelope<AgentRecord[]>>(
        'GET',
        `/connections?outOfBandId=${invitation.body.data.outOfBandRecord.id}`,
      )
      return list.body.data.find((record) => record.state === 'completed')
    }, 60_000)
    await issueToHolder(issuerConnection.id, 'Bachelor of Science', 'Ed25519Signature2020')
    await issueToHolder(issuerConnection.id, 'Master of Old Signatures', 'Ed25519Signature2018')
  }, 240_000)

  afterAll(async () => {
    await Promise.all([issuer?.stop(), holder?.stop()])
    for (const agent of [issuer, holder]) if (agent) rmSync(agent.dataDir, { recursive: true, force: true })
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    await api?.stop()
  }, 60_000)

  let firstConnection: string

  it('v1: requests over a connection; the holder presents; verify is true; verified-proofs shows the values', async () => {
    firstConnection = await connectHolder()
    const sent = await as(`/v1/orgs/${orgId}/proofs?${PE}`, {
      connectionId: firstConnection,
      presentationDefinition: definitionFor('Bachelor of Science'),
      comment: 'Your degree, please',
    }).expect(201)
    expect(sent.body.data).toMatchObject({ state: 'request-sent', connectionId: firstConnection })
    await holderPresents(sent.body.data.threadId)
    // The agent's events move the platform's record.
    await untilState(sent.body.data.id, ['presentation-received', 'done'])
    const verified = await as(`/v1/orgs/${orgId}/proofs/${sent.body.data.id}/verify`).expect(201)
    expect(verified.body.data).toMatchObject({ state: 'done', isVerified: true })
    const shown = await read(`/v1/orgs/${orgId}/verified-proofs/${sent.body.data.id}`).expect(200)
    expect(shown.body.data).toMatchObject({ isVerified: true, verificationStatus: 'verified' })
    expect(shown.body.data.revealed).toEqual([
      expect.objectContaining({ degree: { type: 'BachelorDegree', name: 'Bachelor of Science' } }),
    ])
    const detail = await read(`/v1/orgs/${orgId}/proofs/${sent.body.data.id}`).expect(200)
    expect(JSON.stringify(detail.body.data.proofData)).toContain('Bachelor of Science')
  })

  it('v2: one request to each of two connections, each verified', async () => {
    const secondConnection = await connectHolder()
    const sent = await as(`/v2/orgs/${orgId}/proofs?${PE}`, {
      connectionId: [firstConnection, secondConnection],
      presentationDefinition: definitionFor('Bachelor of Science'),
    }).expect(201)
    const records = sent.body.data as ProofBody[]
    expect(records.map((record) => record.connectionId)).toEqual([firstConnection, secondConnection])
    for (const record of records) await holderPresents(record.threadId)
    for (const record of records) {
      await untilState(record.id, ['presentation-received', 'done'])
      const verified = await as(`/v1/orgs/${orgId}/proofs/${record.id}/verify`).expect(201)
      expect(verified.body.data).toMatchObject({ state: 'done', isVerified: true })
    }
  })

  it('OOB: the holder follows the short URL, presents, and the proof verifies', async () => {
    const sent = await as(`/v1/orgs/${orgId}/proofs/oob?${PE}`, {
      presentationDefinition: definitionFor('Bachelor of Science'),
      label: 'Verifier desk',
    }).expect(201)
    const [created] = sent.body.data as { invitationUrl: string; proofRecord: ProofBody }[]
    expect(created.invitationUrl).toMatch(/\/s\/[A-Za-z0-9_-]+$/)
    const received = await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: created.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    expect(received.status).toBe(201)
    await holderPresents(created.proofRecord.threadId)
    const arrived = await untilState(created.proofRecord.id, ['presentation-received', 'done'])
    expect(arrived.connectionId).not.toBeNull()
    const verified = await as(`/v1/orgs/${orgId}/proofs/${created.proofRecord.id}/verify`).expect(201)
    expect(verified.body.data).toMatchObject({ isVerified: true })
  })

  it('OOB with reuseConnection: a holder connected through the standing invitation DID reuses its connection', async () => {
    const connectionIds: (string | null)[] = []
    for (let round = 0; round < 2; round += 1) {
      const sent = await as(`/v1/orgs/${orgId}/proofs/oob?${PE}`, {
        presentationDefinition: definitionFor('Bachelor of Science'),
        reuseConnection: true,
      }).expect(201)
      // The short URL: a long one naming a did:peer:2 service exceeds what the holder's route takes as a URL.
      const [created] = sent.body.data as { invitationUrl: string; proofRecord: ProofBody }[]
      const received = await holder.call('POST', '/oob/receive-invitation-url', {
        invitationUrl: created.invitationUrl,
        autoAcceptConnection: true,
        autoAcceptInvitation: true,
        reuseConnection: true,
      })
      expect({ round, status: received.status }).toEqual({ round, status: 201 })
      await holderPresents(created.proofRecord.threadId)
      const arrived = await untilState(created.proofRecord.id, ['presentation-received', 'done'])
      connectionIds.push(arrived.connectionId)
    }
    expect(connectionIds[0]).not.toBeNull()
    expect(connectionIds[1]).toBe(connectionIds[0])
  })

  it('format: a 2018-signed credential presented for an Ed25519Signature2020 request does not verify', async () => {
    const sent = await as(`/v1/orgs/${orgId}/proofs?${PE}`, {
      connectionId: firstConnection,
      presentationDefinition: definitionFor('Master of Old Signatures'),
    }).expect(201)
    const holderRecordId = await holderPresents(sent.body.data.threadId)
    const abandoned = await untilState(sent.body.data.id, ['abandoned', 'done', 'presentation-received'])
    expect(abandoned.state).toBe('abandoned')
    expect(abandoned.errorMessage).toMatch(/Ed25519Signature2018.*Ed25519Signature2020/)
    const verified = await as(`/v1/orgs/${orgId}/proofs/${sent.body.data.id}/verify`).expect(201)
    expect(verified.body.data).toMatchObject({ state: 'abandoned', isVerified: false })
    const shown = await read(`/v1/orgs/${orgId}/verified-proofs/${sent.body.data.id}`).expect(200)
    expect(shown.body.data).toMatchObject({ isVerified: false, verificationStatus: 'not-verified' })
    // The holder got the problem report: its side ends too, it does not wait.
    await waitUntil(async () => {
      const record = await holder.call<Envelope<AgentRecord>>('GET', `/proofs/${holderRecordId}`)
      return record.body.data.state === 'abandoned' ? true : undefined
    }, 30_000)
  })
})
