import request from 'supertest'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'
import { type AgentPorts, claimAgentPorts } from '../helpers/ports'

/**
 * The platform's spin-up against the real agent program (agent/). An agent that does not compile fails this
 * file (beforeAll throws); it never passes by skipping.
 */
describe('agent spin-up with the real agent program', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi | undefined
  let agentPorts: AgentPorts
  const runningApi = (): TestApi => {
    if (!api) throw new Error('The API did not start (see beforeAll)')
    return api
  }

  beforeAll(async () => {
    compiled = await compileProgram('agent')
    agentPorts = await claimAgentPorts()
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '90',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: agentPorts.setting,
    })
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
    compiled?.remove()
  }, 60_000)

  it('reaches DID_CREATED and lists the DID as primary', async () => {
    const running = runningApi()
    const owner = await aUserWithToken(running)
    const orgId = await anOrganizationWith(running, [{ user: owner, roles: ['owner'] }])
    const created = await request(running.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Real agent', method: 'key' })
    expect(created.status).toBe(201)
    const deadline = Date.now() + 110_000
    let agent: Record<string, unknown> = {}
    while (Date.now() < deadline) {
      const health = await request(running.app)
        .get(`/v1/orgs/${orgId}/agents/health`)
        .set('Authorization', `Bearer ${owner.token}`)
      agent = health.body.data as Record<string, unknown>
      if (agent.status === 'DID_CREATED' || agent.status === 'FAILED') break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(agent).toMatchObject({
      status: 'DID_CREATED',
      failureReason: null,
      controllerEndpoint: `http://127.0.0.1:${agentPorts.admin + 1}`,
      isAnswering: true,
    })
    const dids = await request(running.app).get(`/v1/orgs/${orgId}/dids`).set('Authorization', `Bearer ${owner.token}`)
    expect(dids.body.data).toEqual([
      expect.objectContaining({ did: expect.stringMatching(/^did:key:z6Mk/), isPrimaryDid: true }),
    ])
  }, 150_000)
})
