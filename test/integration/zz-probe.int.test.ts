import { Logger } from '@idplane/common'
import request from 'supertest'
import { createAdminApp } from '../../agent/src/admin/admin-app'
import { AgentRuntime } from '../../agent/src/admin/agent-runtime'
import { AgentMetrics } from '../../agent/src/metrics/agent-metrics'
import { startInProcessAgent, type InProcessAgent } from '../helpers/agent-in-process'

const KEY = 'admin-api-key-0001'
const auth = { Authorization: `Bearer ${KEY}` }
describe('probe', () => {
  let agent: InProcessAgent
  let app: ReturnType<typeof createAdminApp>
  beforeAll(async () => {
    agent = await startInProcessAgent()
    const runtime = new AgentRuntime('probe', ['http://127.0.0.1:1'])
    runtime.setInitialized(agent.agent)
    app = createAdminApp({ runtime, apiKey: KEY, metrics: new AgentMetrics(), logger: new Logger({}, 'error') })
  })
  afterAll(() => agent.close())
  it('probes', async () => {
    const out: unknown[] = []
    const oob = Buffer.from(JSON.stringify({ foo: 'bar' })).toString('base64url')
    out.push((await request(app).post('/oob/receive-invitation-url').set(auth).send({ invitationUrl: `https://example.com/?oob=${oob}` })).body)
    out.push((await request(app).post('/oob/receive-invitation-url').set(auth).send({ invitationUrl: `https://example.com/?oob=bm90LWpzb24` })).body)
    out.push((await request(app).post('/oob/create-invitation').set(auth).send({ label: 'a\ud800b' })).body)
    const inv = { '@type': 'https://didcomm.org/out-of-band/1.1/invitation', '@id': 'e3f1d2c4-0000-4000-8000-000000000001', label: 'x', services: ['did:example:123'], handshake_protocols: ['https://didcomm.org/didexchange/1.1'] }
    out.push((await request(app).post('/oob/receive-invitation').set(auth).send({ invitation: inv, autoAcceptInvitation: true, autoAcceptConnection: true })).body)
    console.log(JSON.stringify(out, null, 1))
  })
})
