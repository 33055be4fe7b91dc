import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { AGENT_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { ModuleRegistry } from '../../api/src/infra/module-registry'
import type { PlatformEvent } from '../../api/src/infra/platform-events'
import { readLatestMail } from '../../api/src/infra/mail/file-mailer'
import { startApi, type TestApi } from '../helpers/api'
import { type AgentPorts, claimAgentPorts } from '../helpers/ports'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'
import { eventually } from '../helpers/queue-contract'
import { grantRoles } from '../helpers/org-fixtures'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { AgentsRepository } from '../../api/src/modules/agents/agents.repository'

/**
 * The Verification routes against an agent admin API at the edge: the org's agent is provisioned through the API
 * (the fake agent program), then its recorded endpoint points at `proofAgent` below, which answers the proof
 * routes of the agent contract (common/agent-contract/admin-api.ts) from memory. The real agent is in the e2e.
 */
interface AgentProof {
  id: string
  state: string
  role: string
  connectionId?: string
  threadId: string
  protocolVersion: string
  isVerified?: boolean
  errorMessage?: string
  createdAt: string
  updatedAt: string
}

const UNKNOWN_CONNECTION = '00000000-0000-4000-8000-000000000404'
const CONNECTION_A = randomUUID()
const CONNECTION_B = randomUUID()

const definition = (overrides: Record<string, unknown> = {}) => ({
  id: 'degree',
  input_descriptors: [
    {
      id: 'degree',
      schema: [{ uri: 'https://www.w3.org/2018/credentials/examples/v1' }],
      constraints: { fields: [{ path: ['$.credentialSubject.degree.type'] }] },
    },
  ],
  ...overrides,
})

/** The proof routes of an agent's admin API, in memory. */
function startProofAgent() {
  const proofs = new Map<string, AgentProof>()
  const requests: Record<string, unknown>[] = []
  let authorizations = 0
  const send = (res: ServerResponse, status: number, data?: unknown, message = 'ok') => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(status < 400 ? { statusCode: status, message, data } : { statusCode: status, message }))
  }
  const newProof = (connectionId?: string): AgentProof => {
    const now = new Date().toISOString()
    const proof = {
      id: randomUUID(),
      state: 'request-sent',
      role: 'verifier',
      connectionId,
      threadId: randomUUID(),
      protocolVersion: 'v2',
      createdAt: now,
      updatedAt: now,
    }
    proofs.set(proof.id, proof)
    return proof
  }
  const handle = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => {
    if (req.headers.authorization?.startsWith('Bearer ')) authorizations += 1
    const url = new URL(req.url ?? '/', 'http://agent')
    const [, first, second, third] = url.pathname.split('/')
    if (first !== 'proofs') return send(res, 404)
    if (req.method === 'POST' && second === 'request') {
      requests.push(body)
      if (body.connectionId === UNKNOWN_CONNECTION) return send(res, 404, undefined, 'Connection not found')
      return send(res, 201, newProof(body.connectionId as string))
    }
    if (req.method === 'POST' && second === 'oob' && third === 'request') {
      requests.push(body)
      const proof = newProof()
      const invitation = { '@type': 'https://didcomm.org/out-of-band/1.1/invitation', '@id': randomUUID() }
      const invitationUrl = `http://127.0.0.1:9/?oob=${Buffer.from(JSON.stringify(invitation)).toString('base64url')}`
      return send(res, 201, { invitationUrl, invitation, outOfBandRecord: { id: randomUUID() }, proofRecord: proof })
    }
    if (req.method === 'GET' && !second) return send(res, 200, [...proofs.values()])
    const proof = second ? proofs.get(second) : undefined
    if (!proof) return send(res, 404, undefined, 'Proof record not found')
    if (req.method === 'POST' && third === 'verify') {
      if (proof.state !== 'presentation-received') return send(res, 409, undefined, `Proof is in state ${proof.state}`)
      Object.assign(proof, { state: 'done', isVerified: true, updatedAt: new Date().toISOString() })
      return send(res, 201, { isVerified: true, proofRecord: proof })
    }
    if (req.method === 'GET' && third === 'form-data') {
      return send(res, 200, {
        isVerified: proof.isVerified ?? null,
        state: proof.state,
        revealed: [{ id: 'did:key:holder', degree: { type: 'BachelorDegree' } }],
        formData: { request: { presentationExchange: { presentation_definition: definition() } } },
      })
    }
    if (req.method === 'DELETE' && !third) {
      proofs.delete(proof.id)
      return send(res, 200, { id: proof.id })
    }
    return send(res, 404)
  }
  const server: Server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => (text += chunk))
    req.on('end', () => handle(req, res, text ? (JSON.parse(text) as Record<string, unknown>) : {}))
  })
  return {
    proofs,
    requests,
    authorizations: () => authorizations,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const programs = writeFakeAgentPrograms(tmpdir())
afterAll(() => programs.remove())

describe('verification routes', () => {
  let api: TestApi
  const agent = startProofAgent()
  let owner: TestUser
  let orgId: string
  let eventToken: string
  const published: PlatformEvent[] = []

  // The first agent gets admin + 1.
  let agentPorts: AgentPorts
  beforeAll(async () => {
    const agentUrl = await agent.listen()
    agentPorts = await claimAgentPorts()
    api = await startApi({
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_POLL_ATTEMPTS: '50',
      AGENT_POLL_INTERVAL_MS: '100',
      AGENT_PORT_COUNTER_START: agentPorts.setting,
      PROOF_REQ_CONN_LIMIT: '3',
      OOB_BATCH_SIZE: '2',
    })
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Verifier' })
      .expect(201)
    const env = await eventually(async () => {
      try {
        return (await (await fetch(`http://127.0.0.1:${agentPorts.admin + 1}/env`)).json()) as Record<string, string>
      } catch {
        return undefined
      }
    }, 30_000)
    eventToken = env.AGENT_EVENT_TOKEN
    await eventually(async () => {
      const health = await request(api.app)
        .get(`/v1/orgs/${orgId}/agents/health`)
        .set('Authorization', `Bearer ${owner.token}`)
      return health.body.data?.status === 'DID_CREATED' ? true : undefined
    }, 30_000)
    // Every platform event published, observed on its way to the modules' listeners (the call goes through).
    const registry = api.runtime.container.get(ModuleRegistry)
    const publish = registry.publish.bind(registry)
    registry.publish = async (events) => {
      published.push(...events)
      await publish(events)
    }
    // From here on the organization's agent is the in-memory proof agent.
    await api.runtime.container
      .get(EntityManager)
      .fork()
      .getConnection()
      .execute('update org_agents set controller_endpoint = ? where organization_id = ?', [agentUrl, orgId])
    // The API reuses an agent's address for a moment (recent-reads.ts): a change behind its back must be told.
    api.runtime.container.get(AgentsRepository).forgetRecent(orgId)
  }, 60_000)

  afterAll(async () => {
    await api?.stop()
    await agent.close()
  })

  const as = (user: TestUser) => ({
    post: (path: string, body?: unknown) =>
      request(api.app)
        .post(path)
        .set('Authorization', `Bearer ${user.token}`)
        .send(body as object),
    get: (path: string) => request(api.app).get(path).set('Authorization', `Bearer ${user.token}`),
    delete: (path: string) => request(api.app).delete(path).set('Authorization', `Bearer ${user.token}`),
  })
  const PE = 'requestType=PRESENTATIONEXCHANGE'
  const postEvent = (record: Record<string, unknown>, occurredAt = new Date().toISOString(), id = randomUUID()) =>
    request(api.app)
      .post(AGENT_EVENTS_PATH)
      .set('Authorization', `Bearer ${eventToken}`)
      .send({ id, kind: 'proof', agentLabel: 'Verifier', occurredAt, record })
  const metric = async (name: string, labels: string) => {
    const text = (await request(api.app).get('/metrics')).text
    const escaped = `${name}{${labels}}`.replace(/[{}"]/g, (char) => `\\${char}`)
    return Number(new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text)?.[1] ?? 0)
  }

  describe('POST /v1/orgs/:orgId/proofs', () => {
    it('sends a Presentation Exchange request and answers the record in request-sent', async () => {
      const res = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs?${PE}`, {
          connectionId: CONNECTION_A,
          presentationDefinition: definition(),
          comment: 'Your degree, please',
        })
        .expect(201)
      expect(res.body.data).toMatchObject({
        state: 'request-sent',
        connectionId: CONNECTION_A,
        protocolVersion: 'v2',
        requestType: 'PRESENTATIONEXCHANGE',
        isVerified: null,
      })
      expect(agent.proofs.get(res.body.data.id)).toBeDefined()
      expect(agent.requests.at(-1)).toMatchObject({
        connectionId: CONNECTION_A,
        comment: 'Your degree, please',
        presentationDefinition: definition(),
      })
      const listed = await as(owner).get(`/v1/orgs/${orgId}/proofs?searchByText=${CONNECTION_A}`).expect(200)
      expect(listed.body.data.data.map((proof: { id: string }) => proof.id)).toContain(res.body.data.id)
    })

    it('answers 400 for INDY (the default) without proofFormats; with them the agent gets the AnonCreds request', async () => {
      const body = { connectionId: CONNECTION_A, presentationDefinition: definition() }
      const missing = await as(owner).post(`/v1/orgs/${orgId}/proofs`, body).expect(400)
      expect(missing.body.message).toMatch(/proofFormats is required/)
      const indy = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs?requestType=INDY`, {
          connectionId: CONNECTION_A,
          protocolVersion: 'v1',
          proofFormats: {
            indy: {
              attributes: [
                { attributeName: 'name', credDefId: 'cd:1' },
                { attributeNames: ['name', 'degree'], schemaId: 's:1' },
                { attributeName: 'age', condition: '>=', value: '18' },
              ],
            },
          },
        })
        .expect(201)
      expect(indy.body.data).toMatchObject({ requestType: 'INDY', state: 'request-sent' })
      expect(agent.requests.at(-1)).toEqual({
        connectionId: CONNECTION_A,
        protocolVersion: 'v1',
        proofFormats: {
          anoncreds: {
            name: 'Proof request',
            version: '1.0',
            requested_attributes: {
              attribute_0: { name: 'name', restrictions: [{ cred_def_id: 'cd:1' }] },
              attribute_group_1: { names: ['name', 'degree'], restrictions: [{ schema_id: 's:1' }] },
            },
            requested_predicates: { predicate_2: { name: 'age', p_type: '>=', p_value: 18 } },
          },
        },
      })
    })

    it.each([
      ['attributeName with attributeNames', [{ attributeName: 'a', attributeNames: ['b'] }], 'attributes[0]'],
      ['a condition without value', [{ attributeName: 'age', condition: '>' }], 'attributes[0].value'],
      ['a value without condition', [{ attributeName: 'age', value: '3' }], 'attributes[0].condition'],
      ['a value that is not a number', [{ attributeName: 'age', condition: '>', value: 'ten' }], 'value'],
      ['an unknown condition', [{ attributeName: 'age', condition: '!=', value: '1' }], 'condition'],
      ['no attributes', [], 'attributes'],
    ])('answers 400 for INDY attributes with %s, naming the field', async (_case, attributes, field) => {
      const before = agent.requests.length
      const res = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs`, { connectionId: CONNECTION_A, proofFormats: { indy: { attributes } } })
        .expect(400)
      expect(JSON.stringify(res.body)).toContain(field)
      expect(agent.requests.length).toBe(before)
    })

    it.each([
      ['no presentationDefinition', { connectionId: CONNECTION_A }, PE, /presentationDefinition is required/],
      [
        'an unknown requestType',
        { connectionId: CONNECTION_A, presentationDefinition: definition() },
        'requestType=JWT',
        /requestType/,
      ],
      [
        'a connectionId that is no UUID',
        { connectionId: 'abc', presentationDefinition: definition() },
        PE,
        /connectionId/,
      ],
      [
        'a definition without id',
        { connectionId: CONNECTION_A, presentationDefinition: { ...definition(), id: undefined } },
        PE,
        /id/,
      ],
      [
        'no input descriptor',
        { connectionId: CONNECTION_A, presentationDefinition: definition({ input_descriptors: [] }) },
        PE,
        /input_descriptors/,
      ],
      [
        'a descriptor without schema',
        { connectionId: CONNECTION_A, presentationDefinition: definition({ input_descriptors: [{ id: 'x' }] }) },
        PE,
        /schema/,
      ],
      [
        'a field path that is a string',
        {
          connectionId: CONNECTION_A,
          presentationDefinition: definition({
            input_descriptors: [{ id: 'x', schema: [{ uri: 'u' }], constraints: { fields: [{ path: '$.a' }] } }],
          }),
        },
        PE,
        /path/,
      ],
      [
        'protocolVersion v1',
        { connectionId: CONNECTION_A, presentationDefinition: definition(), protocolVersion: 'v1' },
        PE,
        /v2/,
      ],
    ])('answers 400 for %s', async (_name, body, query, message) => {
      const before = agent.requests.length
      const res = await as(owner).post(`/v1/orgs/${orgId}/proofs?${query}`, body).expect(400)
      expect(JSON.stringify(res.body)).toMatch(message)
      expect(agent.requests.length).toBe(before)
    })

    it("answers the agent's 404 for a connection it does not know", async () => {
      const res = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs?${PE}`, {
          connectionId: UNKNOWN_CONNECTION,
          presentationDefinition: definition(),
        })
        .expect(404)
      expect(res.body.message).toMatch(/Connection not found/)
    })

    it('lets a verifier and an admin request, and refuses an issuer and a member', async () => {
      for (const [role, status] of [
        ['verifier', 201],
        ['admin', 201],
        ['issuer', 403],
        ['member', 403],
        ['holder', 403],
      ] as const) {
        const user = await aUserWithToken(api)
        await grantRoles(api, orgId, user.id, [role])
        const res = await as(user).post(`/v1/orgs/${orgId}/proofs?${PE}`, {
          connectionId: CONNECTION_B,
          presentationDefinition: definition(),
        })
        expect({ role, status: res.status }).toEqual({ role, status })
      }
    })

    it('answers 404 for an organization without an agent', async () => {
      const other = await aUserWithToken(api)
      const otherOrg = await anOrganizationWith(api, [{ user: other, roles: ['owner'] }])
      const res = await as(other)
        .post(`/v1/orgs/${otherOrg}/proofs?${PE}`, { connectionId: CONNECTION_A, presentationDefinition: definition() })
        .expect(404)
      expect(res.body.message).toMatch(/no agent/)
      await as(other).delete(`/v1/orgs/${otherOrg}/verification-records`).expect(200)
    })
  })

  describe('POST /v2/orgs/:orgId/proofs', () => {
    it('sends one request per connection and answers one record each', async () => {
      const res = await as(owner)
        .post(`/v2/orgs/${orgId}/proofs?${PE}`, {
          connectionId: [CONNECTION_A, CONNECTION_B],
          presentationDefinition: definition(),
        })
        .expect(201)
      expect(res.body.data).toHaveLength(2)
      expect(res.body.data.map((proof: { connectionId: string }) => proof.connectionId)).toEqual([
        CONNECTION_A,
        CONNECTION_B,
      ])
      expect(new Set(res.body.data.map((proof: { id: string }) => proof.id)).size).toBe(2)
    })

    it('answers 400 beyond PROOF_REQ_CONN_LIMIT, for an empty list, a repeated id, and INDY without proofFormats', async () => {
      const four = [randomUUID(), randomUUID(), randomUUID(), randomUUID()]
      const over = await as(owner)
        .post(`/v2/orgs/${orgId}/proofs?${PE}`, { connectionId: four, presentationDefinition: definition() })
        .expect(400)
      expect(over.body.message).toMatch(/at most 3/)
      await as(owner)
        .post(`/v2/orgs/${orgId}/proofs?${PE}`, { connectionId: [], presentationDefinition: definition() })
        .expect(400)
      await as(owner)
        .post(`/v2/orgs/${orgId}/proofs?${PE}`, {
          connectionId: [CONNECTION_A, CONNECTION_A],
          presentationDefinition: definition(),
        })
        .expect(400)
      await as(owner)
        .post(`/v2/orgs/${orgId}/proofs`, { connectionId: [CONNECTION_A] })
        .expect(400)
      await as(owner)
        .post(`/v2/orgs/${orgId}/proofs`, { connectionId: [CONNECTION_A], proofFormats: { indy: {} } })
        .expect(400)
    })

    it('keeps the records already sent when the agent refuses a later connection, and names it', async () => {
      const before = (await as(owner).get(`/v1/orgs/${orgId}/proofs?pageSize=100`)).body.data.totalItems
      const res = await as(owner)
        .post(`/v2/orgs/${orgId}/proofs?${PE}`, {
          connectionId: [CONNECTION_A, UNKNOWN_CONNECTION],
          presentationDefinition: definition(),
        })
        .expect(404)
      expect(res.body.message).toContain(UNKNOWN_CONNECTION)
      const after = (await as(owner).get(`/v1/orgs/${orgId}/proofs?pageSize=100`)).body.data.totalItems
      expect(after).toBe(before + 1)
    })
  })

  describe('POST /v1/orgs/:orgId/proofs/oob', () => {
    it('answers a short URL by default that resolves to the invitation, and the long one when asked', async () => {
      const res = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs/oob?${PE}`, { presentationDefinition: definition(), label: 'Bank' })
        .expect(201)
      expect(res.body.data).toHaveLength(1)
      const [created] = res.body.data
      expect(created.invitationUrl).toMatch(/\/s\/[A-Za-z0-9_-]+$/)
      expect(created.longInvitationUrl).toContain('?oob=')
      expect(created.proofRecord).toMatchObject({
        state: 'request-sent',
        connectionId: null,
        outOfBandId: created.outOfBandId,
      })
      expect(agent.requests.at(-1)).toMatchObject({ label: 'Bank', reuseConnection: false })
      const code = new URL(created.invitationUrl).pathname
      const resolved = await request(api.app).get(code).set('Accept', 'application/json').expect(200)
      expect(resolved.body['@type']).toContain('out-of-band')

      const long = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs/oob?${PE}`, {
          presentationDefinition: definition(),
          isShortenUrl: false,
          reuseConnection: true,
        })
        .expect(201)
      expect(long.body.data[0].invitationUrl).toBe(long.body.data[0].longInvitationUrl)
      expect(agent.requests.at(-1)).toMatchObject({ reuseConnection: true })
    })

    it('mails one request per address with its link and a QR code', async () => {
      const addresses = [`a-${randomUUID()}@example.test`, `b-${randomUUID()}@example.test`]
      const res = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs/oob?${PE}`, { presentationDefinition: definition(), emailId: addresses })
        .expect(201)
      expect(res.body.data.map((item: { email: string }) => item.email)).toEqual(addresses)
      for (const [index, address] of addresses.entries()) {
        const mail = await eventually(() => readLatestMail(api.dataDir, address), 15_000)
        expect(mail.text).toContain(res.body.data[index].invitationUrl)
        expect(mail.html).toContain('data:image/png;base64,')
      }
    })

    it('answers 400 beyond OOB_BATCH_SIZE addresses, for a bad address, and for malformed INDY requests', async () => {
      const three = [1, 2, 3].map((n) => `p${n}-${randomUUID()}@example.test`)
      const over = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs/oob?${PE}`, { presentationDefinition: definition(), emailId: three })
        .expect(400)
      expect(over.body.message).toMatch(/at most 2/)
      await as(owner)
        .post(`/v1/orgs/${orgId}/proofs/oob?${PE}`, { presentationDefinition: definition(), emailId: ['nope'] })
        .expect(400)
      await as(owner).post(`/v1/orgs/${orgId}/proofs/oob`, { presentationDefinition: definition() }).expect(400)
      await as(owner)
        .post(`/v1/orgs/${orgId}/proofs/oob`, { proofFormats: { indy: {} } })
        .expect(400)
      const bad = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs/oob`, {
          proofFormats: { indy: { requested_predicates: { adult: { name: 'age', p_type: '=>', p_value: 18 } } } },
        })
        .expect(400)
      expect(JSON.stringify(bad.body)).toContain('requested_predicates.adult.p_type')
    })

    it('sends an INDY out-of-band request as the AnonCreds request JSON, shortened by default', async () => {
      const indy = {
        name: 'Age check',
        version: '2.0',
        requested_attributes: { name: { name: 'name', restrictions: [{ cred_def_id: 'cd:1' }] } },
        requested_predicates: { adult: { name: 'age', p_type: '>=', p_value: 18 } },
      }
      const res = await as(owner).post(`/v1/orgs/${orgId}/proofs/oob`, { proofFormats: { indy } }).expect(201)
      expect(res.body.data[0].invitationUrl).toMatch(/\/s\/[A-Za-z0-9_-]+$/)
      expect(res.body.data[0].proofRecord.requestType).toBe('INDY')
      expect(agent.requests.at(-1)).toMatchObject({ protocolVersion: 'v2', proofFormats: { anoncreds: indy } })
    })
  })

  describe('records from agent events', () => {
    it('applies events idempotently and in order, announcing each change once', async () => {
      const sent = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs?${PE}`, { connectionId: CONNECTION_A, presentationDefinition: definition() })
        .expect(201)
      const proof = agent.proofs.get(sent.body.data.id) as AgentProof
      const doneBefore = await metric('idplane_api_proof_state_changes_total', 'state="done"')
      const receivedBefore = await metric('idplane_api_proof_state_changes_total', 'state="presentation-received"')
      const t = Date.parse(proof.updatedAt)
      const at = (ms: number) => new Date(t + ms).toISOString()
      const done = { ...proof, state: 'done', isVerified: true, updatedAt: at(2000) }
      const received = { ...proof, state: 'presentation-received', updatedAt: at(1000) }
      // The later state first, then the earlier one late, then the request's own event, then a repeat.
      await postEvent(done, at(2000)).expect(200)
      await postEvent(received, at(1000)).expect(200)
      await postEvent({ ...proof }, proof.updatedAt).expect(200)
      await postEvent(done, at(2000)).expect(200)
      const read = await as(owner).get(`/v1/orgs/${orgId}/proofs/${proof.id}`).expect(200)
      expect(read.body.data).toMatchObject({ state: 'done', isVerified: true })
      expect(await metric('idplane_api_proof_state_changes_total', 'state="done"')).toBe(doneBefore + 1)
      const announced = published.filter((event) => event.record.id === proof.id)
      expect(announced.map((event) => [event.type, event.orgId, event.record.state])).toEqual([
        ['proof.state-changed', orgId, 'request-sent'],
        ['proof.state-changed', orgId, 'done'],
      ])
      expect(announced[1].record).toMatchObject({ isVerified: true, connectionId: CONNECTION_A })
      expect(await metric('idplane_api_proof_state_changes_total', 'state="presentation-received"')).toBe(
        receivedBefore,
      )
    })

    it('creates a record from an event of an exchange the platform did not start, and ignores malformed ones', async () => {
      const id = randomUUID()
      const now = new Date().toISOString()
      await postEvent({
        id,
        state: 'request-received',
        role: 'prover',
        threadId: randomUUID(),
        protocolVersion: 'v2',
        createdAt: now,
        updatedAt: now,
      }).expect(200)
      const read = await as(owner).get(`/v1/orgs/${orgId}/proofs?searchByText=request-received`).expect(200)
      expect(read.body.data.data).toEqual([expect.objectContaining({ id, role: 'prover', requestType: null })])
      await postEvent({ state: 'done' }).expect(200)
      await postEvent({ id: 'not-a-uuid', state: 'done', threadId: 't' }).expect(200)
    })
  })

  describe('verify, read, verified-proofs', () => {
    it('verifies a received presentation and shows the revealed values', async () => {
      const sent = await as(owner)
        .post(`/v1/orgs/${orgId}/proofs?${PE}`, { connectionId: CONNECTION_A, presentationDefinition: definition() })
        .expect(201)
      const id = sent.body.data.id as string
      const early = await as(owner).post(`/v1/orgs/${orgId}/proofs/${id}/verify`).expect(409)
      expect(early.body.message).toMatch(/request-sent/)
      const pending = await as(owner).get(`/v1/orgs/${orgId}/verified-proofs/${id}`).expect(200)
      expect(pending.body.data).toMatchObject({ isVerified: null, verificationStatus: 'pending' })

      Object.assign(agent.proofs.get(id) as AgentProof, { state: 'presentation-received' })
      const verifiedBefore = await metric('idplane_api_proof_verify_duration_seconds_count', 'result="verified"')
      const verifier = await aUserWithToken(api)
      await grantRoles(api, orgId, verifier.id, ['verifier'])
      const verified = await as(verifier).post(`/v1/orgs/${orgId}/proofs/${id}/verify`).expect(201)
      expect(verified.body.data).toMatchObject({ id, state: 'done', isVerified: true })
      expect(await metric('idplane_api_proof_verify_duration_seconds_count', 'result="verified"')).toBe(
        verifiedBefore + 1,
      )

      const holder = await aUserWithToken(api)
      await grantRoles(api, orgId, holder.id, ['holder'])
      const shown = await as(holder).get(`/v1/orgs/${orgId}/verified-proofs/${id}`).expect(200)
      expect(shown.body.data).toEqual({
        proofId: id,
        state: 'done',
        isVerified: true,
        verificationStatus: 'verified',
        errorMessage: null,
        revealed: [{ id: 'did:key:holder', degree: { type: 'BachelorDegree' } }],
        // AnonCreds only; a Presentation Exchange proof has none.
        revealedAttributes: [],
        revealedAttributeGroups: [],
        predicates: [],
        // No AnonCreds interval or registry; its credential carries no credentialStatus, so no status list was
        // checked either (status-list.e2e.test.ts has one that does).
        revocationChecks: { nonRevoked: null, credentials: [], statusLists: [] },
      })
      const detail = await as(holder).get(`/v1/orgs/${orgId}/proofs/${id}`).expect(200)
      expect(detail.body.data.proofData).toMatchObject({ request: { presentationExchange: expect.any(Object) } })
      await as(holder).post(`/v1/orgs/${orgId}/proofs/${id}/verify`).expect(403)
    })

    it('answers 404 for an unknown proof and 400 for an id that is no UUID', async () => {
      for (const path of ['proofs', 'verified-proofs']) {
        await as(owner).get(`/v1/orgs/${orgId}/${path}/${randomUUID()}`).expect(404)
        await as(owner).get(`/v1/orgs/${orgId}/${path}/not-a-uuid`).expect(400)
      }
      await as(owner).post(`/v1/orgs/${orgId}/proofs/${randomUUID()}/verify`).expect(404)
    })

    it('pages, searches and sorts the list', async () => {
      const page = await as(owner).get(`/v1/orgs/${orgId}/proofs?pageSize=2&pageNumber=1&sortBy=ASC`).expect(200)
      expect(page.body.data).toMatchObject({ hasNextPage: true, nextPage: 2, hasPreviousPage: false })
      expect(page.body.data.data).toHaveLength(2)
      const times = page.body.data.data.map((proof: { createdAt: string }) => Date.parse(proof.createdAt))
      expect(times[0]).toBeLessThanOrEqual(times[1])
      await as(owner).get(`/v1/orgs/${orgId}/proofs?pageSize=101`).expect(400)
      await as(owner).get(`/v1/orgs/${orgId}/proofs?sortField=password`).expect(400)
      const byState = await as(owner).get(`/v1/orgs/${orgId}/proofs?sortField=state&search=done`).expect(200)
      expect(byState.body.data.data.every((proof: { state: string }) => proof.state === 'done')).toBe(true)
    })
  })

  describe('DELETE /v1/orgs/:orgId/verification-records', () => {
    it("is the owner's: deletes the platform's records and the agent's", async () => {
      const admin = await aUserWithToken(api)
      await grantRoles(api, orgId, admin.id, ['admin'])
      await as(admin).delete(`/v1/orgs/${orgId}/verification-records`).expect(403)
      expect(agent.proofs.size).toBeGreaterThan(0)
      const res = await as(owner).delete(`/v1/orgs/${orgId}/verification-records`).expect(200)
      expect(res.body.data.deletedRecords).toBeGreaterThan(0)
      expect(agent.proofs.size).toBe(0)
      const list = await as(owner).get(`/v1/orgs/${orgId}/proofs`).expect(200)
      expect(list.body.data.totalItems).toBe(0)
      expect(agent.authorizations()).toBeGreaterThan(0)
    })
  })
})
