import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { hashToken, randomSecret } from '../../api/src/infra/crypto/token-hash'
import { OrgAgent } from '../../api/src/modules/agents/org-agent.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { recordPlatformEvents } from '../helpers/platform-events'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { AgentsRepository } from '../../api/src/modules/agents/agents.repository'

jest.setTimeout(120_000)

/** Platform events published by any module, as a webhook listener would get them. */
const published = recordPlatformEvents()

/** An invitation URL whose `oob` parameter decodes to an invitation object. */
const INVITATION_URL = `https://agent.example/?oob=${Buffer.from(
  JSON.stringify({ '@type': 'https://didcomm.org/out-of-band/1.1/invitation', '@id': 'inv-1', label: 'Elsewhere' }),
).toString('base64url')}`

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0)
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString()

/** A Credo connection record's JSON as an agent writes it. */
function aConnection(id: string, state: string, seconds: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    state,
    role: 'responder',
    did: `did:peer:1zQm${id.slice(0, 8)}`,
    createdAt: at(0),
    updatedAt: at(seconds),
    outOfBandId: `oob-${id}`,
    threadId: `thread-${id}`,
    protocol: 'https://didcomm.org/didexchange/1.1',
    autoAcceptConnection: true,
    ...fields,
  }
}

describe('connections and messages through the API (records from agent events)', () => {
  let api: TestApi
  let owner: TestUser
  let holder: TestUser
  let orgId: string
  let eventToken: string
  let eventCount = 0

  /** An organization agent row holding an event token, as spin-up leaves it; no endpoint (not answering). */
  async function anAgentRow(forOrg: string): Promise<string> {
    const token = randomSecret()
    const em = api.runtime.container.get(EntityManager).fork()
    em.create(OrgAgent, {
      organization: em.getReference(Organization, forOrg),
      label: 'Test wallet',
      runtime: 'process',
      encryptedApiKey: 'unused',
      encryptedWalletKey: 'unused',
      eventTokenHash: hashToken(token),
    })
    await em.flush()
    return token
  }

  beforeAll(async () => {
    api = await startApi()
    owner = await aUserWithToken(api)
    holder = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [
      { user: owner, roles: ['owner'] },
      { user: holder, roles: ['holder'] },
    ])
    eventToken = await anAgentRow(orgId)
  })

  afterAll(async () => {
    await api?.stop()
  })

  const postEvent = (kind: string, record: Record<string, unknown>, token = eventToken) =>
    request(api.app)
      .post('/v1/internal/agent-events')
      .set('Authorization', `Bearer ${token}`)
      .send({
        id: `evt-${++eventCount}`,
        kind,
        agentLabel: 'Test wallet',
        occurredAt: new Date().toISOString(),
        record,
      })
      .expect(200)
  const get = (path: string, user: TestUser = owner) =>
    request(api.app).get(path).set('Authorization', `Bearer ${user.token}`)
  const post = (path: string, body?: unknown, user: TestUser = owner) => {
    const req = request(api.app).post(path).set('Authorization', `Bearer ${user.token}`)
    return body === undefined ? req : req.send(body as object)
  }
  const eventsFor = (type: string, id: string) =>
    published.filter((event) => event.type === type && event.record.id === id)

  describe('connection records', () => {
    const first = randomUUID()
    const second = randomUUID()
    const third = randomUUID()

    beforeAll(async () => {
      await postEvent('connection', aConnection(first, 'request-received', 1, { theirLabel: 'Alice Wallet' }))
      await postEvent(
        'connection',
        aConnection(first, 'completed', 3, { theirLabel: 'Alice Wallet', theirDid: 'did:peer:alice' }),
      )
      // Late and repeated: must not move the record back or announce anything.
      await postEvent('connection', aConnection(first, 'response-sent', 2, { theirLabel: 'Alice Wallet' }))
      await postEvent(
        'connection',
        aConnection(first, 'completed', 3, { theirLabel: 'Alice Wallet', theirDid: 'did:peer:alice' }),
      )
      await postEvent(
        'connection',
        aConnection(second, 'request-received', 1, { theirLabel: 'Bob Agent', createdAt: at(10) }),
      )
      await postEvent('connection', aConnection(third, 'completed', 5, { theirLabel: 'Carol 100%', createdAt: at(20) }))
    })

    it('keep the latest state whatever order and repetition the events arrive in', async () => {
      const res = await get(`/v1/orgs/${orgId}/connections/${first}`).expect(200)
      expect(res.body.data).toEqual({
        id: first,
        state: 'completed',
        role: 'responder',
        did: expect.stringMatching(/^did:peer:/),
        theirDid: 'did:peer:alice',
        theirLabel: 'Alice Wallet',
        alias: null,
        autoAcceptConnection: true,
        protocol: 'https://didcomm.org/didexchange/1.1',
        outOfBandId: `oob-${first}`,
        threadId: `thread-${first}`,
        createdAt: at(0),
        updatedAt: at(3),
      })
    })

    it('publish connection.state-changed once per state entered', () => {
      expect(eventsFor('connection.state-changed', first).map((event) => event.record.state)).toEqual([
        'request-received',
        'completed',
      ])
      const [event] = eventsFor('connection.state-changed', third)
      expect(event).toMatchObject({ orgId, record: { id: third, state: 'completed', previousState: null } })
    })

    it('page newest first with the spec paging fields and the items in `connections`', async () => {
      const page1 = await get(`/v1/orgs/${orgId}/connections?pageSize=2`).expect(200)
      expect(page1.body.data).toMatchObject({
        totalItems: 3,
        hasNextPage: true,
        hasPreviousPage: false,
        nextPage: 2,
        previousPage: null,
        lastPage: 2,
      })
      expect(page1.body.data.data).toBeUndefined()
      expect(page1.body.data.connections.map((item: { id: string }) => item.id)).toEqual([third, second])
      expect(Object.keys(page1.body.data.connections[0]).sort()).toEqual(
        ['id', 'state', 'theirLabel', 'did', 'theirDid', 'createdAt', 'updatedAt', 'outOfBandId'].sort(),
      )
      const page2 = await get(`/v1/orgs/${orgId}/connections?pageSize=2&pageNumber=2`).expect(200)
      expect(page2.body.data.connections.map((item: { id: string }) => item.id)).toEqual([first])
      expect(page2.body.data).toMatchObject({ hasNextPage: false, hasPreviousPage: true, previousPage: 1 })
    })

    it('search by text (wildcards taken literally) and sort by the given field and direction', async () => {
      const bob = await get(`/v1/orgs/${orgId}/connections?searchByText=bob`).expect(200)
      expect(bob.body.data.connections.map((item: { id: string }) => item.id)).toEqual([second])
      const percent = await get(`/v1/orgs/${orgId}/connections?searchByText=100%25`).expect(200)
      expect(percent.body.data.connections.map((item: { id: string }) => item.id)).toEqual([third])
      const literal = await get(`/v1/orgs/${orgId}/connections?searchByText=%25`).expect(200)
      expect(literal.body.data.totalItems).toBe(1)
      const byLabel = await get(`/v1/orgs/${orgId}/connections?sortField=theirLabel&sortBy=asc`).expect(200)
      expect(byLabel.body.data.connections.map((item: { theirLabel: string }) => item.theirLabel)).toEqual([
        'Alice Wallet',
        'Bob Agent',
        'Carol 100%',
      ])
      const oldest = await get(`/v1/orgs/${orgId}/connections?sortBy=ASC`).expect(200)
      expect(oldest.body.data.connections[0].id).toBe(first)
    })

    it('refuse bad paging, sort and ids with 400, and answer 404 for an unknown connection', async () => {
      for (const query of ['pageSize=0', 'pageSize=101', 'pageNumber=0', 'sortField=secret', 'sortBy=up', 'other=1']) {
        const res = await get(`/v1/orgs/${orgId}/connections?${query}`)
        expect({ query, status: res.status }).toEqual({ query, status: 400 })
      }
      await get(`/v1/orgs/${orgId}/connections/not-a-uuid`).expect(400)
      const unknown = await get(`/v1/orgs/${orgId}/connections/${randomUUID()}`).expect(404)
      expect(unknown.body.message).toBe('Connection not found')
    })

    it('are not shown to a holder (spec roles) nor to another organization', async () => {
      await get(`/v1/orgs/${orgId}/connections`, holder).expect(403)
      const stranger = await aUserWithToken(api)
      const otherOrg = await anOrganizationWith(api, [{ user: stranger, roles: ['owner'] }])
      const theirs = await get(`/v1/orgs/${otherOrg}/connections`, stranger).expect(200)
      expect(theirs.body.data.totalItems).toBe(0)
      await get(`/v1/orgs/${otherOrg}/connections/${first}`, stranger).expect(404)
    })
  })

  describe('invitation and receive routes', () => {
    it('validate bodies before calling the agent', async () => {
      const bad: [string, unknown][] = [
        ['/connections', { handshake: 'yes' }],
        ['/connections', { routing: { endpoints: [], recipientKey: 'k' } }],
        ['/connections', { messages: 'hello' }],
        ['/connections', { unknownField: 1 }],
        ['/receive-invitation-url', {}],
        ['/receive-invitation-url', { invitationUrl: 'not a url' }],
        ['/receive-invitation-url', { invitationUrl: INVITATION_URL, acceptInvitationTimeoutMs: 0 }],
        ['/receive-invitation-url', { invitationUrl: 'https://a.example/?oob=not-an-invitation' }],
        ['/receive-invitation-url', { invitationUrl: 'https://a.example/?c_i=W10' }],
        ['/receive-invitation-url', { invitationUrl: INVITATION_URL, reuseConnection: 'true' }],
        ['/receive-invitation', { invitation: 'text' }],
        ['/receive-invitation', { alias: 'no invitation' }],
      ]
      for (const [path, body] of bad) {
        const res = await post(`/v1/orgs/${orgId}${path}`, body)
        expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 })
      }
    })

    it('answer 404 for a short link of this platform that does not exist', async () => {
      const unknown = `${api.config.http.publicUrl.replace(/\/$/, '')}/s/AAAAAAAAAAAAAAAAAAAAAA`
      const res = await post(`/v1/orgs/${orgId}/receive-invitation-url`, { invitationUrl: unknown })
      expect(res.status).toBe(404)
      expect(res.body.message).toMatch(/does not exist/)
    })

    it('answer 409 while the agent is not ready and 404 when the organization has no agent', async () => {
      const notReady = await post(`/v1/orgs/${orgId}/connections`)
      expect(notReady.status).toBe(409)
      expect(notReady.body.message).toMatch(/agent is not ready/)
      const bare = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
      const none = await post(`/v1/orgs/${bare}/connections`, {})
      expect(none.status).toBe(404)
      expect(none.body.message).toMatch(/no agent/)
      await post(`/v1/orgs/${bare}/receive-invitation-url`, { invitationUrl: INVITATION_URL }).expect(404)
      await post(`/v1/orgs/${bare}/connections/${randomUUID()}/accept`).expect(404)
      await post(`/v1/orgs/${orgId}/connections/not-a-uuid/accept`).expect(400)
    })
  })

  describe('question-answer records', () => {
    const connectionId = randomUUID()
    const asked = randomUUID()
    const received = randomUUID()
    const question = (id: string, state: string, seconds: number, fields: Record<string, unknown> = {}) => ({
      id,
      state,
      connectionId,
      threadId: `thread-${id}`,
      role: 'questioner',
      questionText: 'Are you over 18?',
      questionDetail: 'For the bar',
      validResponses: [{ text: 'yes' }, { text: 'no' }],
      createdAt: at(0),
      updatedAt: at(seconds),
      ...fields,
    })

    beforeAll(async () => {
      await postEvent('question-answer', question(asked, 'question-sent', 1))
      await postEvent('question-answer', question(asked, 'answer-received', 2, { response: 'yes' }))
      await postEvent('question-answer', question(asked, 'question-sent', 1))
      await postEvent(
        'question-answer',
        question(received, 'question-received', 1, { role: 'responder', createdAt: at(5) }),
      )
    })

    it('show every record of the organization with its state and the answer that came back', async () => {
      for (const user of [owner, holder]) {
        const res = await get(`/v1/orgs/${orgId}/question-answer/question`, user).expect(200)
        expect(res.body.data).toEqual([
          expect.objectContaining({ id: received, state: 'question-received', role: 'responder', response: null }),
          {
            id: asked,
            connectionId,
            threadId: `thread-${asked}`,
            role: 'questioner',
            state: 'answer-received',
            questionText: 'Are you over 18?',
            questionDetail: 'For the bar',
            validResponses: [{ text: 'yes' }, { text: 'no' }],
            response: 'yes',
            createdAt: at(0),
            updatedAt: at(2),
          },
        ])
      }
      expect(eventsFor('question-answer.state-changed', asked).map((event) => event.record.state)).toEqual([
        'question-sent',
        'answer-received',
      ])
    })

    it('validate questions and answers', async () => {
      const base = `/v1/orgs/${orgId}/question-answer`
      const bad: [string, unknown][] = [
        [`${base}/question/${connectionId}`, { validResponses: [{ text: 'yes' }] }],
        [`${base}/question/${connectionId}`, { question: 'Q?', validResponses: [] }],
        [`${base}/question/${connectionId}`, { question: 'Q?', validResponses: [{ label: 'yes' }] }],
        [`${base}/question/${connectionId}`, { question: 'Q?', validResponses: ['yes'] }],
        [`${base}/question/not-a-uuid`, { question: 'Q?', validResponses: [{ text: 'yes' }] }],
        [`${base}/answer/${received}`, { response: 'maybe' }],
        [`${base}/answer/${asked}`, { response: 'yes' }],
        [`${base}/answer/${received}`, {}],
      ]
      for (const [path, body] of bad) {
        const res = await post(path, body)
        expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 })
      }
      await post(`${base}/answer/${randomUUID()}`, { response: 'yes' }).expect(404)
      // A valid answer reaches the agent step: this organization's agent is not ready.
      await post(`${base}/answer/${received}`, { response: 'yes' }).expect(409)
    })
  })

  describe('basic-message records', () => {
    const connectionId = randomUUID()
    const message = (id: string, role: string, seconds: number, content: string) => ({
      id,
      connectionId,
      role,
      content,
      sentTime: at(seconds),
      createdAt: at(seconds),
      updatedAt: at(seconds),
    })
    const ids = [randomUUID(), randomUUID(), randomUUID()]

    beforeAll(async () => {
      await postEvent('basic-message', message(ids[0], 'sender', 1, 'Hello'))
      await postEvent('basic-message', message(ids[1], 'receiver', 2, 'Hi back'))
      await postEvent('basic-message', message(ids[1], 'receiver', 2, 'Hi back'))
      await postEvent('basic-message', message(ids[2], 'sender', 3, 'Bye'))
    })

    it('list the messages of one connection once each, paged, newest first', async () => {
      const path = `/v1/orgs/${orgId}/basic-message/${connectionId}`
      const page1 = await get(`${path}?pageSize=2`, holder).expect(200)
      expect(page1.body.data).toMatchObject({ totalItems: 3, hasNextPage: true, lastPage: 2 })
      expect(page1.body.data.data.map((item: { content: string }) => item.content)).toEqual(['Bye', 'Hi back'])
      const oldest = await get(`${path}?sortBy=ASC&pageSize=1`).expect(200)
      expect(oldest.body.data.data).toEqual([
        {
          id: ids[0],
          connectionId,
          role: 'sender',
          content: 'Hello',
          sentTime: at(1),
          threadId: null,
          createdAt: at(1),
        },
      ])
      const other = await get(`/v1/orgs/${orgId}/basic-message/${randomUUID()}`).expect(200)
      expect(other.body.data.totalItems).toBe(0)
      await get(`/v1/orgs/${orgId}/basic-message/not-a-uuid`).expect(400)
    })

    it('publish basic-message.sent and basic-message.received once per message', () => {
      expect(eventsFor('basic-message.sent', ids[0])).toHaveLength(1)
      expect(eventsFor('basic-message.received', ids[1])).toHaveLength(1)
      expect(eventsFor('basic-message.received', ids[0])).toHaveLength(0)
    })

    it('validate the message body', async () => {
      for (const body of [{}, { content: '' }, { content: 5 }, { content: 'x', extra: true }]) {
        const res = await post(`/v1/orgs/${orgId}/basic-message/${connectionId}`, body)
        expect({ body, status: res.status }).toEqual({ body, status: 400 })
      }
    })
  })

  describe('delete-all', () => {
    it("is the owner's only and deletes the organization's records (no agent left to ask)", async () => {
      const admin = await aUserWithToken(api)
      const otherOrg = await anOrganizationWith(api, [
        { user: owner, roles: ['owner'] },
        { user: admin, roles: ['admin'] },
      ])
      const token = await anAgentRow(otherOrg)
      const lateOne = randomUUID()
      await postEvent('connection', aConnection(randomUUID(), 'completed', 1), token)
      await postEvent('connection', aConnection(lateOne, 'request-received', 1), token)
      // With the agent row there but not ready, the agent's records cannot be deleted: nothing is.
      await request(api.app)
        .delete(`/v1/orgs/${otherOrg}/connections`)
        .set('Authorization', `Bearer ${owner.token}`)
        .expect(409)
      await api.runtime.container.get(EntityManager).fork().nativeDelete(OrgAgent, { organization: otherOrg })
      // Deleted behind the API's back, as another replica would: the API's reused address must not outlive it.
      api.runtime.container.get(AgentsRepository).forgetRecent(otherOrg)
      await request(api.app)
        .delete(`/v1/orgs/${otherOrg}/connections`)
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(403)
      const deleted = await request(api.app)
        .delete(`/v1/orgs/${otherOrg}/connections`)
        .set('Authorization', `Bearer ${owner.token}`)
        .expect(200)
      expect(deleted.body.data).toEqual({ deletedCount: 2 })
      expect((await get(`/v1/orgs/${otherOrg}/connections`).expect(200)).body.data.totalItems).toBe(0)
      // A late event of a deleted connection does not bring it back; a connection made afterwards is recorded.
      const againToken = await anAgentRow(otherOrg)
      await postEvent('connection', aConnection(lateOne, 'completed', 2), againToken)
      expect((await get(`/v1/orgs/${otherOrg}/connections`).expect(200)).body.data.totalItems).toBe(0)
      const later = new Date(Date.now() + 1000).toISOString()
      const newOne = randomUUID()
      await postEvent(
        'connection',
        aConnection(newOne, 'completed', 2, { createdAt: later, updatedAt: later }),
        againToken,
      )
      const after = await get(`/v1/orgs/${otherOrg}/connections`).expect(200)
      expect(after.body.data.connections.map((item: { id: string }) => item.id)).toEqual([newOne])
      // The first organization's records are untouched.
      expect((await get(`/v1/orgs/${orgId}/connections`).expect(200)).body.data.totalItems).toBe(3)
    })
  })

  it('counts state changes per state', async () => {
    const metrics = await request(api.app).get('/metrics').expect(200)
    expect(metrics.text).toMatch(/idplane_api_connection_state_changes_total\{state="completed"\} [3-9]/)
    expect(metrics.text).toMatch(/idplane_api_question_answer_state_changes_total\{state="answer-received"\} 1/)
    expect(metrics.text).toMatch(/idplane_api_basic_messages_total\{direction="received"\} 1/)
  })
})
