import 'reflect-metadata'
import type { Server } from 'node:http'
import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { RequestContext } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { AgentClients } from '../../api/src/agent-client/agent-clients'
import { freePort } from '../helpers/ports'
import { waitUntil } from '../helpers/agent-process'
import { recordPlatformEvents } from '../helpers/platform-events'
import { startApi, type TestApi } from '../helpers/api'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { claimAgentPorts } from '../helpers/ports'

jest.setTimeout(600_000)

/** Platform events published by any module, as a webhook listener would get them. */
const published = recordPlatformEvents()

interface ConnectionItem {
  id: string
  state: string
  outOfBandId: string | null
  theirLabel: string | null
}

/**
 * Issue 10 (connections, question-answer, basic messages): two organizations' real agents, provisioned through the
 * API (embedded mode, or PostgreSQL and RabbitMQ when DATABASE_URL / AMQP_URL are set), connect by invitation URL,
 * by a platform short link and by invitation object with the accept extension; ask and answer a question; exchange
 * basic messages; and the issuer deletes all its connections. Every record is read back through the API, built from
 * the agents' events.
 */
describe('connections between two organizations through the platform API', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi
  let server: Server
  let owner: TestUser
  let issuerOrg: string
  let verifierOrg: string

  beforeAll(async () => {
    compiled = await compileProgram('agent')
    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    // Far from the ports of other tests running at the same time (the counter hands out the next ones).
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '240',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      API_PUBLIC_URL: baseUrl,
      API_INTERNAL_URL: baseUrl,
    })
    server = await new Promise<Server>((resolve) => {
      const listening = api.app.listen(port, '127.0.0.1', () => resolve(listening))
    })
    owner = await aUserWithToken(api)
    issuerOrg = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    verifierOrg = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await Promise.all([spinUp(issuerOrg, 'Issuer Org'), spinUp(verifierOrg, 'Verifier Org')])
  }, 600_000)

  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
    await api?.stop()
    compiled?.remove()
  }, 120_000)

  const get = (path: string) => request(api.app).get(path).set('Authorization', `Bearer ${owner.token}`)
  const post = (path: string, body?: object) => {
    const req = request(api.app).post(path).set('Authorization', `Bearer ${owner.token}`)
    return body === undefined ? req : req.send(body)
  }

  async function spinUp(orgId: string, label: string): Promise<void> {
    await post(`/v1/orgs/${orgId}/agents/spinup`, { label, method: 'key' }).expect(201)
    const agent = await waitUntil(async () => {
      const health = await get(`/v1/orgs/${orgId}/agents/health`)
      const status = (health.body.data as { status: string }).status
      return status === 'DID_CREATED' || status === 'FAILED' ? health.body.data : undefined
    }, 300_000)
    expect(agent).toMatchObject({ status: 'DID_CREATED' })
  }

  async function connections(orgId: string): Promise<ConnectionItem[]> {
    const page = await get(`/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
    return page.body.data.connections as ConnectionItem[]
  }

  /** The organization's connection made from its invitation `outOfBandId`, once it is in `state` (from events). */
  function connectionOfInvitation(orgId: string, outOfBandId: string, state: string): Promise<ConnectionItem> {
    return waitUntil(async () => {
      const found = (await connections(orgId)).find((item) => item.outOfBandId === outOfBandId)
      return found?.state === state ? found : undefined
    }, 60_000)
  }

  function connectionInState(orgId: string, connectionId: string, state: string): Promise<ConnectionItem> {
    return waitUntil(async () => {
      const found = (await connections(orgId)).find((item) => item.id === connectionId)
      return found?.state === state ? found : undefined
    }, 60_000)
  }

  let issuerSide: ConnectionItem
  let verifierSide: ConnectionItem

  it('connects by invitation URL: both organizations list the completed connection, from their agents events', async () => {
    const created = await post(`/v1/orgs/${issuerOrg}/connections`).expect(201)
    const { invitationUrl, invitation, outOfBandRecord } = created.body.data
    expect(invitationUrl).toMatch(/[?&]oob=/)
    expect(invitation).toMatchObject({ '@type': expect.stringContaining('out-of-band'), label: 'Issuer Org' })
    expect(outOfBandRecord).toMatchObject({ id: expect.any(String), role: 'sender' })

    const received = await post(`/v1/orgs/${verifierOrg}/receive-invitation-url`, { invitationUrl }).expect(201)
    const verifierConnectionId = received.body.data.connection.id as string
    expect(received.body.data.connection).toMatchObject({ theirLabel: 'Issuer Org', role: 'requester' })

    issuerSide = await connectionOfInvitation(issuerOrg, outOfBandRecord.id as string, 'completed')
    verifierSide = await connectionInState(verifierOrg, verifierConnectionId, 'completed')
    expect(issuerSide.theirLabel).toBe('Verifier Org')

    const detail = await get(`/v1/orgs/${issuerOrg}/connections/${issuerSide.id}`).expect(200)
    expect(detail.body.data).toMatchObject({
      id: issuerSide.id,
      state: 'completed',
      role: 'responder',
      autoAcceptConnection: true,
      outOfBandId: outOfBandRecord.id,
      theirDid: expect.stringMatching(/^did:/),
      threadId: expect.any(String),
    })
    // One platform event per state the issuer's record entered, never a repeat.
    const states = published
      .filter((event) => event.type === 'connection.state-changed' && event.record.id === issuerSide.id)
      .map((event) => event.record.state)
    expect(states[states.length - 1]).toBe('completed')
    expect(new Set(states).size).toBe(states.length)
  })

  it('connects by a platform short link that the receiving agent fetches', async () => {
    const created = await post(`/v1/orgs/${issuerOrg}/connections`, {
      isShortenUrl: true,
      alias: 'short-link',
    }).expect(201)
    const shortUrl = created.body.data.invitationUrl as string
    expect(shortUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+$/)
    // An unknown link of this platform is refused before the agent is asked.
    await post(`/v1/orgs/${verifierOrg}/receive-invitation-url`, { invitationUrl: `${shortUrl}x` }).expect(404)
    const received = await post(`/v1/orgs/${verifierOrg}/receive-invitation-url`, {
      invitationUrl: shortUrl,
      alias: 'issuer by short link',
    }).expect(201)
    const verifierConnectionId = received.body.data.connection.id as string
    await connectionOfInvitation(issuerOrg, created.body.data.outOfBandRecord.id as string, 'completed')
    await connectionInState(verifierOrg, verifierConnectionId, 'completed')
    const detail = await get(`/v1/orgs/${verifierOrg}/connections/${verifierConnectionId}`).expect(200)
    expect(detail.body.data.alias).toBe('issuer by short link')
  })

  it('with autoAcceptConnection false, waits for the accept extension (409 when nothing waits)', async () => {
    const created = await post(`/v1/orgs/${issuerOrg}/connections`, { autoAcceptConnection: false }).expect(201)
    await post(`/v1/orgs/${verifierOrg}/receive-invitation`, {
      invitation: created.body.data.invitation,
      reuseConnection: false,
    }).expect(201)
    const waiting = await connectionOfInvitation(
      issuerOrg,
      created.body.data.outOfBandRecord.id as string,
      'request-received',
    )
    // Nothing moves on its own.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect((await get(`/v1/orgs/${issuerOrg}/connections/${waiting.id}`).expect(200)).body.data.state).toBe(
      'request-received',
    )
    // Messages need a completed connection.
    const early = await post(`/v1/orgs/${issuerOrg}/basic-message/${waiting.id}`, { content: 'too early' })
    expect(early.status).toBe(409)
    expect(early.body.message).toMatch(/request-received/)
    const notWaiting = await post(`/v1/orgs/${issuerOrg}/connections/${issuerSide.id}/accept`)
    expect(notWaiting.status).toBe(409)

    const accepted = await post(`/v1/orgs/${issuerOrg}/connections/${waiting.id}/accept`).expect(201)
    expect(accepted.body.data).toMatchObject({
      id: waiting.id,
      state: expect.stringMatching(/^(response-sent|completed)$/),
    })
    await connectionInState(issuerOrg, waiting.id, 'completed')
  })

  it('asks a question that the other organization answers; the answer shows in the list', async () => {
    const asked = await post(`/v1/orgs/${issuerOrg}/question-answer/question/${issuerSide.id}`, {
      question: 'Do you accept the terms?',
      validResponses: [{ text: 'yes' }, { text: 'no' }],
      detail: 'Version 3 of the terms',
    }).expect(201)
    expect(asked.body.data).toMatchObject({ state: 'question-sent', role: 'questioner', connectionId: issuerSide.id })

    const received = await waitUntil(async () => {
      const list = await get(`/v1/orgs/${verifierOrg}/question-answer/question`).expect(200)
      return (list.body.data as { id: string; state: string; threadId: string }[]).find(
        (record) => record.threadId === asked.body.data.threadId,
      )
    }, 60_000)
    expect(received).toMatchObject({
      state: 'question-received',
      role: 'responder',
      connectionId: verifierSide.id,
      questionText: 'Do you accept the terms?',
      questionDetail: 'Version 3 of the terms',
    })
    await post(`/v1/orgs/${verifierOrg}/question-answer/answer/${received.id}`, { response: 'maybe' }).expect(400)
    const answered = await post(`/v1/orgs/${verifierOrg}/question-answer/answer/${received.id}`, {
      response: 'yes',
    }).expect(201)
    expect(answered.body.data).toMatchObject({ state: 'answer-sent', response: 'yes' })

    const arrived = await waitUntil(async () => {
      const list = await get(`/v1/orgs/${issuerOrg}/question-answer/question`).expect(200)
      const record = (list.body.data as { id: string; state: string }[]).find((item) => item.id === asked.body.data.id)
      return record?.state === 'answer-received' ? record : undefined
    }, 60_000)
    expect(arrived).toMatchObject({ response: 'yes' })
    const changes = published.filter(
      (event) => event.type === 'question-answer.state-changed' && event.record.id === asked.body.data.id,
    )
    expect(changes.map((event) => event.record.state)).toEqual(['question-sent', 'answer-received'])
  })

  it('sends basic messages both ways; each organization lists what it sent and received', async () => {
    await post(`/v1/orgs/${issuerOrg}/basic-message/${randomUUID()}`, { content: 'to nobody' }).expect(404)
    await post(`/v1/orgs/${issuerOrg}/basic-message/${issuerSide.id}`, { content: 'Hello from the issuer' }).expect(201)
    await post(`/v1/orgs/${verifierOrg}/basic-message/${verifierSide.id}`, { content: 'Hello back' }).expect(201)
    for (const [orgId, connectionId] of [
      [issuerOrg, issuerSide.id],
      [verifierOrg, verifierSide.id],
    ]) {
      const messages = await waitUntil(async () => {
        const page = await get(`/v1/orgs/${orgId}/basic-message/${connectionId}?sortBy=ASC`).expect(200)
        const items = page.body.data.data as { content: string; role: string }[]
        return items.length === 2 ? items : undefined
      }, 60_000)
      expect(messages.map((message) => message.content).sort()).toEqual(['Hello back', 'Hello from the issuer'])
      const own = orgId === issuerOrg ? 'Hello from the issuer' : 'Hello back'
      expect(messages.find((message) => message.content === own)?.role).toBe('sender')
    }
    expect(published.filter((event) => event.type === 'basic-message.sent')).toHaveLength(2)
    expect(published.filter((event) => event.type === 'basic-message.received')).toHaveLength(2)
  })

  it("deletes all of an organization's connections, the agent's records too", async () => {
    expect((await connections(issuerOrg)).length).toBeGreaterThanOrEqual(3)
    const deleted = await request(api.app)
      .delete(`/v1/orgs/${issuerOrg}/connections`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(deleted.body.data.deletedCount).toBeGreaterThanOrEqual(3)
    expect(await connections(issuerOrg)).toEqual([])
    // The agent itself, asked directly (a request context of its own, as an HTTP request would have).
    const agentConnections = await RequestContext.create(api.runtime.container.get(EntityManager).fork(), async () =>
      (await api.runtime.container.get(AgentClients).forOrg(issuerOrg)).listConnections(),
    )
    expect(agentConnections).toEqual([])
    await get(`/v1/orgs/${issuerOrg}/connections/${issuerSide.id}`).expect(404)
    // The other organization keeps its own.
    expect((await connections(verifierOrg)).length).toBeGreaterThanOrEqual(3)
  })
})
