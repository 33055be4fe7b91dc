import { Registry } from 'prom-client'
import { ConflictError, InvalidInputError, NotFoundError, silentLogger, type IdplaneError } from '@idplane/common'
import { AgentClient } from '../../api/src/agent-client/agent-client'
import { AgentClientMetrics } from '../../api/src/agent-client/agent-client-metrics'
import { spawnAgent, type SpawnedAgent, TEST_API_KEY, waitUntil } from '../helpers/agent-process'
import { histogramLabelSets } from '../helpers/metrics'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'
import { buildPrograms } from '../helpers/build-programs'
import { testAgentSchema } from '../helpers/test-schema'

jest.setTimeout(180_000)

/**
 * The API's AgentClient against the real agent program (dist/agent/src/main.js): two agents connect through
 * the typed methods only. With DATABASE_URL set the agents store in that PostgreSQL, else in PGlite.
 */
describe('AgentClient with the real agent program', () => {
  let issuer: SpawnedAgent
  let holder: SpawnedAgent
  let registry: Registry
  let issuerClient: AgentClient
  let holderClient: AgentClient

  const storageEnv = (label: string): Record<string, string> =>
    process.env.DATABASE_URL
      ? {
          AGENT_DATABASE_URL: process.env.DATABASE_URL,
          AGENT_DATABASE_SCHEMA: testAgentSchema(`client_${label}_${Math.random().toString(36).slice(2, 10)}`),
        }
      : {}

  beforeAll(async () => {
    buildPrograms()
    ;[issuer, holder] = await Promise.all([
      spawnAgent({ label: 'issuer', env: storageEnv('issuer') }),
      spawnAgent({ label: 'holder', env: storageEnv('holder') }),
    ])
    registry = new Registry()
    const options = { timeoutMs: 30_000, metrics: new AgentClientMetrics(registry), logger: silentLogger }
    issuerClient = new AgentClient({ orgId: 'issuer-org', endpoint: issuer.adminUrl, apiKey: TEST_API_KEY }, options)
    holderClient = new AgentClient({ orgId: 'holder-org', endpoint: holder.adminUrl, apiKey: TEST_API_KEY }, options)
  })

  afterAll(async () => {
    await Promise.all([issuer?.stop(), holder?.stop()])
  })

  async function failureOf(work: Promise<unknown>): Promise<IdplaneError> {
    try {
      await work
    } catch (error) {
      return error as IdplaneError
    }
    throw new Error('expected the call to fail')
  }

  it('reads the agent status', async () => {
    expect(await issuerClient.getStatus()).toEqual({
      label: 'issuer',
      endpoints: [issuer.endpoint],
      isInitialized: true,
    })
  })

  it('creates DIDs and lists them', async () => {
    const created = await issuerClient.createDid({ method: 'key', seed: 'agent-client-seed-00000000000001' })
    expect(created.did).toMatch(/^did:key:z6Mk/)
    const again = await issuerClient.createDid({ method: 'key', seed: 'agent-client-seed-00000000000001' })
    expect(again.did).toBe(created.did)
    expect((await issuerClient.listDids()).map((entry) => entry.did)).toContain(created.did)
  })

  it("passes the agent's refusals on as our 4xx errors with its message", async () => {
    const web = await failureOf(issuerClient.createDid({ method: 'web' }))
    expect(web).toBeInstanceOf(InvalidInputError)
    expect(web.message).toBe('domain is required for did:web')
    expect(await failureOf(issuerClient.getConnection('7d3ad1a4-0000-4000-8000-000000000000'))).toBeInstanceOf(
      NotFoundError,
    )
    expect(await failureOf(issuerClient.verifyProof('7d3ad1a4-0000-4000-8000-000000000000'))).toBeInstanceOf(
      NotFoundError,
    )
  })

  it('connects two agents: create invitation, receive it by URL and as JSON, list and get connections', async () => {
    const invitation = await issuerClient.createInvitation({ label: 'Issuer', autoAcceptConnection: true })
    expect(invitation.invitationUrl).toContain('oob=')
    const received = await holderClient.receiveInvitationUrl({
      invitationUrl: invitation.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    expect(received.outOfBandRecord.id).toEqual(expect.any(String))
    const holderConnectionId = received.connectionRecord?.id
    expect(holderConnectionId).toEqual(expect.any(String))

    const issuerSide = await waitUntil(async () => {
      const connections = await issuerClient.listConnections({ outOfBandId: invitation.outOfBandRecord.id })
      return connections.find((connection) => connection.state === 'completed')
    })
    expect(issuerSide.theirLabel).toBe('holder')
    const holderSide = await waitUntil(async () => {
      const connection = await holderClient.getConnection(holderConnectionId ?? '')
      return connection.state === 'completed' ? connection : undefined
    })
    expect(holderSide.theirLabel).toBe('Issuer')

    const second = await issuerClient.createInvitation({ autoAcceptConnection: true })
    const byJson = await holderClient.receiveInvitation({
      invitation: second.invitation,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    expect(byJson.connectionRecord?.outOfBandId).toBe(byJson.outOfBandRecord.id)
    expect((await holderClient.listConnections()).length).toBeGreaterThanOrEqual(2)

    const message = await holderClient.sendBasicMessage(holderSide.id, { content: 'hello through AgentClient' })
    expect(message.content).toBe('hello through AgentClient')
    const messages = await waitUntil(async () => {
      const list = await issuerClient.listBasicMessages(issuerSide.id)
      return list.length > 0 ? list : undefined
    })
    expect(messages[0]?.content).toBe('hello through AgentClient')

    const refused = await failureOf(holderClient.receiveInvitation({ invitation: { nonsense: true } }))
    expect(refused).toBeInstanceOf(InvalidInputError)
  })

  it('accepts a waiting connection request, then deletes the connection', async () => {
    const invitation = await issuerClient.createInvitation({ autoAcceptConnection: false })
    await holderClient.receiveInvitationUrl({
      invitationUrl: invitation.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    const waiting = await waitUntil(async () => {
      const [connection] = await issuerClient.listConnections({ outOfBandId: invitation.outOfBandRecord.id })
      return connection?.state === 'request-received' ? connection : undefined
    })
    const accepted = await issuerClient.acceptConnectionRequest(waiting.id)
    expect(accepted.id).toBe(waiting.id)
    await waitUntil(async () => {
      const connection = await issuerClient.getConnection(waiting.id)
      return connection.state === 'completed' ? connection : undefined
    })
    const again = await failureOf(issuerClient.acceptConnectionRequest(waiting.id))
    expect(again).toBeInstanceOf(ConflictError)
    expect(again.message).toBe('Connection is in state completed; no request to accept')

    expect(await issuerClient.deleteConnection(waiting.id)).toEqual({ id: waiting.id })
    expect(await failureOf(issuerClient.getConnection(waiting.id))).toBeInstanceOf(NotFoundError)
    expect(await failureOf(issuerClient.deleteConnection(waiting.id))).toBeInstanceOf(NotFoundError)
  })

  it('creates out-of-band credential offers and proof requests, reads and deletes their records', async () => {
    const { did } = await issuerClient.createDid({ method: 'key' })
    const offer = await issuerClient.offerCredentialOutOfBand({
      credential: aDegreeCredential(did, 'did:example:holder'),
      options: signingOptions(),
    })
    expect(offer.invitationUrl).toContain('oob=')
    const credentialId = offer.credentialRecord.id
    expect((await issuerClient.getCredential(credentialId)).state).toBe('offer-sent')
    expect((await issuerClient.listCredentials({ state: 'offer-sent' })).map((record) => record.id)).toContain(
      credentialId,
    )
    expect(await issuerClient.deleteCredential(credentialId)).toEqual({ id: credentialId })
    expect(await failureOf(issuerClient.getCredential(credentialId))).toBeInstanceOf(NotFoundError)

    const request = await issuerClient.requestProofOutOfBand({
      presentationDefinition: aDegreePresentationDefinition(),
    })
    const proofId = request.proofRecord.id
    expect((await issuerClient.getProof(proofId)).state).toBe('request-sent')
    expect(await failureOf(issuerClient.verifyProof(proofId))).toBeInstanceOf(ConflictError)
    expect(await issuerClient.deleteProof(proofId)).toEqual({ id: proofId })
    expect(await failureOf(issuerClient.deleteProof(proofId))).toBeInstanceOf(NotFoundError)
  })

  it('counted every call by operation and outcome', async () => {
    const sets = histogramLabelSets(await registry.metrics(), 'idplane_api_agent_request_duration_seconds')
    expect(sets).toEqual(
      expect.arrayContaining([
        { method: 'POST', operation: 'createDid', outcome: 'success' },
        { method: 'POST', operation: 'createDid', outcome: 'rejected' },
        { method: 'POST', operation: 'createInvitation', outcome: 'success' },
        { method: 'POST', operation: 'receiveInvitationUrl', outcome: 'success' },
        { method: 'GET', operation: 'listConnections', outcome: 'success' },
      ]),
    )
  })
})
