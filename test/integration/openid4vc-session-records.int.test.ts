import { randomUUID } from 'node:crypto'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { AGENT_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import type { PresentationSessionJson } from '@idplane/common/agent-contract/openid4vc-api'
import { IssuanceSessionRecords } from '../../api/src/modules/oid4vc/issuance-session-records'
import { IssuanceSessionRecord } from '../../api/src/modules/oid4vc/issuance-session.entity'
import { VerificationSessionRecord } from '../../api/src/modules/oid4vp/verification-session.entity'
import { WebhooksService } from '../../api/src/modules/webhooks/webhooks.service'
import { startApi, type TestApi } from '../helpers/api'
import { type AgentPorts, claimAgentPorts } from '../helpers/ports'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'
import { eventually } from '../helpers/queue-contract'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'
import { ORDERED_WEBHOOK_ENV } from '../helpers/webhook-fixtures'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { AgentsRepository } from '../../api/src/modules/agents/agents.repository'

jest.setTimeout(90_000)

/**
 * OpenID4VC sessions on the record kit, on the real database: the agent's `openid4vc-issuance` and
 * `openid4vc-verification` events become `oid4vc-issuance.state-changed` and `oid4vp-verification.state-changed` at
 * the organization's webhook, in order, once per state, without codes or nonces. The organization's agent is
 * provisioned through the API (the fake agent program); its recorded endpoint then points at `sessionAgent` below,
 * which answers the session read of the agent contract from memory. The real agent and holder are in the e2e.
 */

/** The session read of an agent's admin API (GET /openid4vc/presentations/:id), in memory. */
function startSessionAgent() {
  const sessions = new Map<string, PresentationSessionJson>()
  const reads: string[] = []
  let failing = false
  const send = (res: ServerResponse, status: number, data?: unknown, message = 'ok') => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(status < 400 ? { statusCode: status, message, data } : { statusCode: status, message }))
  }
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const [, first, second, third] = new URL(req.url ?? '/', 'http://agent').pathname.split('/')
      if (req.method !== 'GET' || first !== 'openid4vc' || second !== 'presentations' || !third) return send(res, 404)
      reads.push(third)
      if (failing) return send(res, 500, undefined, 'Storage unavailable')
      const session = sessions.get(third)
      return session ? send(res, 200, session) : send(res, 404, undefined, 'Verification session not found')
    })
  })
  return {
    sessions,
    reads,
    fail: (value: boolean) => (failing = value),
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

const programs = writeFakeAgentPrograms(tmpdir())
afterAll(() => programs.remove())

interface DeliveredEvent {
  type: string
  orgId: string
  record: Record<string, unknown>
}

describe('OpenID4VC sessions as exchange records', () => {
  let api: TestApi
  let receiver: WebhookReceiver
  const agent = startSessionAgent()
  let orgId: string
  let eventToken: string
  const hookPath = '/oid4vc'
  // The first agent gets admin + 1.
  let agentPorts: AgentPorts

  beforeAll(async () => {
    const agentUrl = await agent.listen()
    agentPorts = await claimAgentPorts()
    receiver = await startWebhookReceiver()
    api = await startApi({
      ...ORDERED_WEBHOOK_ENV,
      WEBHOOK_RETRY_DELAYS_MS: '100,200',
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_POLL_ATTEMPTS: '50',
      AGENT_POLL_INTERVAL_MS: '100',
      AGENT_PORT_COUNTER_START: agentPorts.setting,
    })
    const owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Acme' })
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
    await api.runtime.container
      .get(EntityManager)
      .fork()
      .getConnection()
      .execute('update org_agents set controller_endpoint = ? where organization_id = ?', [agentUrl, orgId])
    // The API reuses an agent's address for a moment (recent-reads.ts): a change behind its back must be told.
    api.runtime.container.get(AgentsRepository).forgetRecent(orgId)
    await api.runtime.container.get(WebhooksService).registerForOrg(orgId, { webhookUrl: `${receiver.url}${hookPath}` })
  }, 60_000)

  afterAll(async () => {
    await api?.stop()
    await receiver?.stop()
    await agent.close()
  })

  const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 6, 0, second)).toISOString()
  const postEvent = (kind: 'openid4vc-issuance' | 'openid4vc-verification', record: Record<string, unknown>) =>
    request(api.app)
      .post(AGENT_EVENTS_PATH)
      .set('Authorization', `Bearer ${eventToken}`)
      .send({ id: randomUUID(), kind, agentLabel: 'Acme', occurredAt: new Date().toISOString(), record })
  const delivered = (type: string, id: string): DeliveredEvent[] =>
    receiver
      .accepted(hookPath)
      .map((delivery) => delivery.body?.data as unknown as DeliveredEvent)
      .filter((event) => event.type === type && event.record.id === id)
  /** Lets a wrong extra delivery arrive before counting. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000))
  const stored = <T extends object>(entity: new () => T, id: string) =>
    api.runtime.container
      .get(EntityManager)
      .fork()
      .findOne(entity, { id } as never)

  /** An issuance session as the agent's event carries it: codes already left out, the tags' nonce too. */
  const issuance = (id: string, state: string, second: number, extra: Record<string, unknown> = {}) => ({
    id,
    issuerId: 'acme-issuer',
    state,
    createdAt: at(0),
    updatedAt: at(second),
    issuedCredentials: state === 'Completed' ? ['employee'] : [],
    credentialOfferPayload: {
      credential_configuration_ids: ['employee'],
      grants: { 'urn:ietf:params:oauth:grant-type:pre-authorized_code': { tx_code: { length: 6 } } },
    },
    issuanceMetadata: { credentials: { employee: { given_name: 'Ada' } } },
    ...extra,
  })
  const verification = (id: string, state: string, second: number) => ({
    id,
    verifierId: 'acme-hr',
    state,
    createdAt: at(0),
    updatedAt: at(second),
    authorizationRequestUri: `openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri=https%3A%2F%2Fr%2F${id}`,
    authorizationRequestPayload: { nonce: 'request-nonce-value' },
    authorizationResponsePayload: state === 'ResponseVerified' ? { vp_token: 'raw-vp-token-value' } : undefined,
    _tags: { nonce: 'request-nonce-value' },
  })
  const disclosed = [
    {
      queryId: 'employee',
      format: 'dc+sd-jwt',
      issuerCertificateSubject: 'CN=Acme',
      type: 'https://acme.example/credentials/employee',
      claims: { given_name: 'Ada', department: 'Engines' },
    },
  ]

  it('announces each issuance state entered once, in order, whatever order and how often the reports come', async () => {
    const id = randomUUID()
    await postEvent('openid4vc-issuance', issuance(id, 'OfferCreated', 1)).expect(200)
    await postEvent('openid4vc-issuance', issuance(id, 'Completed', 6)).expect(200)
    // Late and repeated reports: earlier states with older and newer times, the final state again.
    await postEvent('openid4vc-issuance', issuance(id, 'AccessTokenCreated', 4)).expect(200)
    await postEvent('openid4vc-issuance', issuance(id, 'OfferUriRetrieved', 9)).expect(200)
    await postEvent('openid4vc-issuance', issuance(id, 'Completed', 6)).expect(200)
    await postEvent('openid4vc-issuance', issuance(id, 'Error', 12, { errorMessage: 'late failure' })).expect(200)
    expect(await stored(IssuanceSessionRecord, id)).toEqual(
      expect.objectContaining({
        state: 'Completed',
        issuedCredentials: ['employee'],
        isPreAuthorized: true,
        hasTxCode: true,
        errorMessage: null,
        agentUpdatedAt: new Date(at(6)),
      }),
    )
    await receiver.waitFor(() => delivered('oid4vc-issuance.state-changed', id).length >= 2)
    await settle()
    const events = delivered('oid4vc-issuance.state-changed', id)
    expect(events.map((event) => event.record.state)).toEqual(['OfferCreated', 'Completed'])
    expect(events[1]).toEqual({
      id: expect.any(String),
      type: 'oid4vc-issuance.state-changed',
      orgId,
      occurredAt: expect.any(String),
      record: {
        id,
        issuerId: 'acme-issuer',
        state: 'Completed',
        credentialConfigurationIds: ['employee'],
        issuedCredentials: ['employee'],
        isPreAuthorized: true,
        hasTxCode: true,
        createdAt: at(0),
        updatedAt: at(6),
      },
    })
  })

  it('ends two reports of one new session racing in one row and one announcement per state', async () => {
    const records = api.runtime.container.get(IssuanceSessionRecords)
    const same = randomUUID()
    /** Applies a record in a transaction of its own, as an event or an answer would. */
    const applyAlone = (record: Record<string, unknown>) => {
      const report = records.reportOf(record)
      if (!report) throw new Error('the mapper refused the record')
      return records.applyAlone(orgId, report)
    }
    const repeats = await Promise.all([1, 2].map(() => applyAlone(issuance(same, 'OfferCreated', 1))))
    expect(repeats.map((outcome) => outcome?.decision).sort()).toEqual(['ignore', 'insert'])

    const apart = randomUUID()
    const [early, late] = await Promise.all([
      applyAlone(issuance(apart, 'OfferCreated', 1)),
      applyAlone(issuance(apart, 'OfferUriRetrieved', 2)),
    ])
    // Exactly one of them inserted the row; the other locked it and advanced it or was too old to.
    expect([early?.decision, late?.decision].filter((decision) => decision === 'insert')).toHaveLength(1)
    expect(await stored(IssuanceSessionRecord, apart)).toEqual(expect.objectContaining({ state: 'OfferUriRetrieved' }))
    const count = await api.runtime.container
      .get(EntityManager)
      .fork()
      .count(IssuanceSessionRecord, { id: { $in: [same, apart] } })
    expect(count).toBe(2)

    await receiver.waitFor(() => delivered('oid4vc-issuance.state-changed', apart).length >= 1)
    await settle()
    expect(delivered('oid4vc-issuance.state-changed', same).map((event) => event.record.state)).toEqual([
      'OfferCreated',
    ])
    const apartStates = delivered('oid4vc-issuance.state-changed', apart).map((event) => event.record.state)
    expect([['OfferCreated', 'OfferUriRetrieved'], ['OfferUriRetrieved']]).toContainEqual(apartStates)
  })

  it("announces a verified session with the claims of the agent's session read, asking the agent once", async () => {
    const id = randomUUID()
    agent.sessions.set(id, {
      id,
      verifierId: 'acme-hr',
      state: 'ResponseVerified',
      disclosed,
      createdAt: at(0),
    })
    await postEvent('openid4vc-verification', verification(id, 'RequestCreated', 1)).expect(200)
    await postEvent('openid4vc-verification', verification(id, 'ResponseVerified', 5)).expect(200)
    await postEvent('openid4vc-verification', verification(id, 'ResponseVerified', 5)).expect(200)
    await postEvent('openid4vc-verification', verification(id, 'RequestUriRetrieved', 3)).expect(200)
    expect(agent.reads.filter((read) => read === id)).toHaveLength(1)
    expect(await stored(VerificationSessionRecord, id)).toEqual(
      expect.objectContaining({ state: 'ResponseVerified', disclosed }),
    )
    await receiver.waitFor(() => delivered('oid4vp-verification.state-changed', id).length >= 2)
    await settle()
    const events = delivered('oid4vp-verification.state-changed', id)
    expect(events.map((event) => [event.record.state, event.record.disclosed])).toEqual([
      ['RequestCreated', undefined],
      ['ResponseVerified', disclosed],
    ])
    expect(events[1].record).toEqual({
      id,
      verifierId: 'acme-hr',
      state: 'ResponseVerified',
      authorizationRequestUri: expect.stringMatching(/^openid4vp:\/\//),
      disclosed,
      createdAt: at(0),
      updatedAt: at(5),
    })
  })

  it('announces a verified session once when two of its reports race through the event route', async () => {
    const id = randomUUID()
    agent.sessions.set(id, { id, verifierId: 'acme-hr', state: 'ResponseVerified', disclosed, createdAt: at(0) })
    const answers = await Promise.all(
      [1, 2].map(() => postEvent('openid4vc-verification', verification(id, 'ResponseVerified', 5))),
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    expect(await stored(VerificationSessionRecord, id)).toEqual(
      expect.objectContaining({ state: 'ResponseVerified', disclosed }),
    )
    await receiver.waitFor(() => delivered('oid4vp-verification.state-changed', id).length >= 1)
    await settle()
    expect(delivered('oid4vp-verification.state-changed', id).map((event) => event.record.disclosed)).toEqual([
      disclosed,
    ])
  })

  it('has a failed session read delivered again, and stores a verified session the agent no longer has', async () => {
    const retried = randomUUID()
    agent.sessions.set(retried, {
      id: retried,
      verifierId: 'acme-hr',
      state: 'ResponseVerified',
      disclosed,
      createdAt: at(0),
    })
    agent.fail(true)
    const refused = await postEvent('openid4vc-verification', verification(retried, 'ResponseVerified', 5))
    expect(refused.status).toBeGreaterThanOrEqual(500)
    expect(await stored(VerificationSessionRecord, retried)).toBeNull()
    agent.fail(false)
    await postEvent('openid4vc-verification', verification(retried, 'ResponseVerified', 5)).expect(200)
    expect(await stored(VerificationSessionRecord, retried)).toEqual(expect.objectContaining({ disclosed }))

    const gone = randomUUID()
    await postEvent('openid4vc-verification', verification(gone, 'ResponseVerified', 5)).expect(200)
    expect(await stored(VerificationSessionRecord, gone)).toEqual(
      expect.objectContaining({ state: 'ResponseVerified', disclosed: null }),
    )
    await receiver.waitFor(() => delivered('oid4vp-verification.state-changed', gone).length === 1)
    expect(delivered('oid4vp-verification.state-changed', gone)[0].record).not.toHaveProperty('disclosed')
  })

  it('never puts a nonce, a wallet response or a code into a webhook event', async () => {
    await settle()
    const bodies = receiver.accepted(hookPath).map((delivery) => delivery.rawBody)
    expect(bodies.length).toBeGreaterThan(0)
    for (const body of bodies)
      expect(body).not.toMatch(/request-nonce-value|raw-vp-token-value|issuanceMetadata|credentialOfferPayload|_tags/)
  })
})
