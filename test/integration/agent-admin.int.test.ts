import { silentLogger } from '@idplane/common'
import request from 'supertest'

import { createAdminApp } from '../../agent/src/admin/admin-app'
import { AgentRuntime } from '../../agent/src/admin/agent-runtime'
import { AgentMetrics } from '../../agent/src/metrics/agent-metrics'
import { startInProcessAgent, type InProcessAgent } from '../helpers/agent-in-process'
import { histogramLabelSets } from '../helpers/metrics'
import { freePort } from '../helpers/ports'

const API_KEY = 'admin-api-key-0001'
const DURATION_METRIC = 'idplane_agent_admin_request_duration_seconds'

/** The admin app of `agent` (or of an agent still starting), served in this process through supertest. */
function anAdminApp(agent?: InProcessAgent) {
  const runtime = new AgentRuntime('admin-test', ['http://127.0.0.1:1'])
  if (agent) runtime.setInitialized(agent.agent)
  const app = createAdminApp({ runtime, apiKey: API_KEY, metrics: new AgentMetrics(), logger: silentLogger })
  const durationLabels = async () => {
    const metrics = await request(app).get('/metrics').set('Authorization', `Bearer ${API_KEY}`).expect(200)
    return histogramLabelSets(metrics.text, DURATION_METRIC)
  }
  return { app, durationLabels }
}

describe('agent admin API (in-process agent)', () => {
  let agent: InProcessAgent

  beforeAll(async () => {
    agent = await startInProcessAgent()
  })

  afterAll(async () => {
    await agent?.close()
  })

  describe('request duration metrics', () => {
    const auth = { Authorization: `Bearer ${API_KEY}` }
    const unknownId = '7d0f6a3e-0000-4000-8000-000000000000'

    it('labels answers of controllers, their errors and the authorization checker with the route template', async () => {
      const { app, durationLabels } = anAdminApp(agent)
      await request(app).post('/oob/create-invitation').set(auth).send({}).expect(201)
      await request(app).get(`/connections/${unknownId}`).set(auth).expect(404)
      await request(app).post('/oob/receive-invitation-url').set(auth).send({ bogus: 1 }).expect(400)
      await request(app).get('/connections').expect(401)
      await request(app).get('/nothing-here').set(auth).expect(404)

      const labels = await durationLabels()
      expect(labels).toEqual(
        expect.arrayContaining([
          { method: 'POST', route: '/oob/create-invitation', status: '201' },
          { method: 'GET', route: '/connections/:connectionId', status: '404' },
          { method: 'POST', route: '/oob/receive-invitation-url', status: '400' },
          { method: 'GET', route: '/connections', status: '401' },
          { method: 'GET', route: 'unmatched', status: '404' },
        ]),
      )
      expect(labels.filter(({ route }) => route.includes(unknownId))).toEqual([])
    })

    it('labels requests refused before routing (tenant scope) with the route template', async () => {
      const { app, durationLabels } = anAdminApp(agent)
      await request(app).get(`/connections/${unknownId}`).set(auth).set('X-Tenant-Id', unknownId).expect(404)
      await request(app).get('/connections').set('X-Tenant-Id', unknownId).expect(401)
      await request(app).get('/tenants').set(auth).set('X-Tenant-Id', unknownId).expect(400)

      expect(await durationLabels()).toEqual([
        { method: 'GET', route: '/connections/:connectionId', status: '404' },
        { method: 'GET', route: '/connections', status: '401' },
        { method: 'GET', route: '/tenants', status: '400' },
      ])
    })

    it('labels requests refused while the agent starts with the route template', async () => {
      const { app, durationLabels } = anAdminApp()
      await request(app).get('/connections').set(auth).expect(503)
      await request(app).get('/agent').expect(503)

      expect(await durationLabels()).toEqual([
        { method: 'GET', route: '/connections', status: '503' },
        { method: 'GET', route: '/agent', status: '503' },
      ])
    })
  })
  describe('hostile input (issue 8, item 7)', () => {
    const auth = { Authorization: `Bearer ${API_KEY}` }
    let peer: InProcessAgent
    let connectionId: string

    beforeAll(async () => {
      peer = await startInProcessAgent()
      const oob = await agent.agent.didcomm.oob.createInvitation({ label: 'admin-test', autoAcceptConnection: true })
      const { connectionRecord } = await peer.agent.didcomm.oob.receiveInvitation(oob.outOfBandInvitation, {
        label: 'peer',
        autoAcceptConnection: true,
        autoAcceptInvitation: true,
      })
      if (!connectionRecord) throw new Error('The peer made no connection')
      await peer.agent.didcomm.connections.returnWhenIsConnected(connectionRecord.id, { timeoutMs: 20000 })
      const [ours] = await agent.agent.didcomm.connections.findAllByOutOfBandId(oob.id)
      if (!ours) throw new Error('The agent has no connection')
      connectionId = (await agent.agent.didcomm.connections.returnWhenIsConnected(ours.id, { timeoutMs: 20000 })).id
    })

    afterAll(async () => {
      await peer?.close()
    })

    it('answers 400 with the error body to a NUL byte in a basic message', async () => {
      const { app } = anAdminApp(agent)
      const res = await request(app).post(`/basic-messages/${connectionId}`).set(auth).send({ content: 'a\u0000b' })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(expect.objectContaining({ statusCode: 400, error: 'Bad Request' }))
      await request(app).post(`/basic-messages/${connectionId}`).set(auth).send({ content: 'hello' }).expect(201)
    })

    it('answers 400 to a NUL byte in a query string and to JSON nested 2,000 levels deep', async () => {
      const { app } = anAdminApp(agent)
      await request(app).get('/connections?alias=a%00b').set(auth).expect(400)
      const deep = `{"content":${'['.repeat(2000)}${']'.repeat(2000)}}`
      const res = await request(app)
        .post(`/basic-messages/${connectionId}`)
        .set(auth)
        .set('Content-Type', 'application/json')
        .send(deep)
      expect(res.status).toBe(400)
      expect(res.body).toEqual(expect.objectContaining({ statusCode: 400, error: 'Bad Request' }))
    })
  })

  describe('an invitation whose answer could not be sent', () => {
    const auth = { Authorization: `Bearer ${API_KEY}` }
    let inviter: InProcessAgent

    beforeAll(async () => {
      inviter = await startInProcessAgent()
    })

    afterAll(async () => {
      await inviter?.close()
    })

    it('answers 502 and keeps nothing, so the same invitation is received once the inviter can be reached, then 409', async () => {
      const { app } = anAdminApp(agent)
      const created = await inviter.agent.didcomm.oob.createInvitation({ label: 'inviter', autoAcceptConnection: true })
      const invitation = created.outOfBandInvitation.toJSON()
      const endpoint = `http://127.0.0.1:${inviter.port}`
      expect(JSON.stringify(invitation)).toContain(endpoint)
      // The same invitation (its @id) with its service on a port nobody listens on: the DID Exchange request fails.
      const unreachable = JSON.parse(
        JSON.stringify(invitation)
          .split(endpoint)
          .join(`http://127.0.0.1:${await freePort()}`),
      ) as object

      const failed = await request(app).post('/oob/receive-invitation').set(auth).send({
        invitation: unreachable,
        autoAcceptConnection: true,
        autoAcceptInvitation: true,
      })
      expect(failed.status).toBe(502)
      expect(failed.body.message).toMatch(
        /^The answer to the invitation could not be delivered to the other agent: .*; nothing was kept: receive the invitation again/s,
      )
      expect(await agent.agent.didcomm.oob.findByReceivedInvitationId(created.outOfBandInvitation.id)).toBeNull()

      const received = await request(app)
        .post('/oob/receive-invitation')
        .set(auth)
        .send({ invitation, autoAcceptConnection: true, autoAcceptInvitation: true })
        .expect(201)
      const connectionId = received.body.data.connectionRecord.id as string
      const connected = await agent.agent.didcomm.connections.returnWhenIsConnected(connectionId, { timeoutMs: 20000 })
      expect(connected.state).toBe('completed')
      const outOfBandId = received.body.data.outOfBandRecord.id as string
      expect(await agent.agent.didcomm.connections.findAllByOutOfBandId(outOfBandId)).toHaveLength(1)

      // Received once, it is refused as the contract says: 409, the invitation's state, not the request's fault.
      const again = await request(app)
        .post('/oob/receive-invitation')
        .set(auth)
        .send({ invitation, autoAcceptConnection: true, autoAcceptInvitation: true })
      expect(again.status).toBe(409)
      expect(again.body.message).toMatch(/has already been received/)
    })
  })
})
