import request from 'supertest'
import { AGENT_EVENTS_PATH, AGENT_READY_SUFFIX } from '@idplane/common/agent-contract/events'
import { startApi, type TestApi } from '../helpers/api'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { startPlatform, type Platform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'
import { claimAgentPorts } from '../helpers/ports'

/**
 * Provisioning with the real agent program (issue 27 item 4): the agent announces its readiness
 * (POST <event URL>/ready) and the platform goes on at once; without the announcement the spec's GET /agent
 * polling still gets there. On the embedded path and, with DATABASE_URL, on PostgreSQL.
 */

/** Spins the organization's agent up and waits for DID_CREATED or FAILED; the record and the seconds it took. */
async function provision(
  api: TestApi,
  timeoutMs: number,
): Promise<{ agent: Record<string, unknown>; seconds: number }> {
  const owner = await aUserWithToken(api)
  const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  const started = Date.now()
  await request(api.app)
    .post(`/v1/orgs/${orgId}/agents/spinup`)
    .set('Authorization', `Bearer ${owner.token}`)
    .send({ label: 'Readiness', method: 'key' })
    .expect(201)
  let agent: Record<string, unknown> = {}
  while (Date.now() - started < timeoutMs) {
    const health = await request(api.app)
      .get(`/v1/orgs/${orgId}/agents/health`)
      .set('Authorization', `Bearer ${owner.token}`)
    agent = health.body.data as Record<string, unknown>
    if (agent.status === 'DID_CREATED' || agent.status === 'FAILED') break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { agent, seconds: (Date.now() - started) / 1000 }
}

describe('agent provisioning with the readiness announcement', () => {
  let platform: Platform | undefined

  beforeAll(async () => {
    // A poll interval no provisioning in this test can wait for: only the announcement ends the first wait.
    platform = await startPlatform({
      AGENT_POLL_ATTEMPTS: '6',
      AGENT_POLL_INTERVAL_MS: '600000',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
    })
  }, 120_000)
  afterAll(async () => {
    await platform?.stop()
  }, 60_000)

  it('reaches DID_CREATED without waiting for a poll', async () => {
    if (!platform) throw new Error('The platform did not start (see beforeAll)')
    const { agent, seconds } = await provision(platform.api, 150_000)
    expect(agent).toMatchObject({ status: 'DID_CREATED', failureReason: null, isAnswering: true })
    // The first poll would come after 600 s.
    expect(seconds).toBeLessThan(150)
  }, 200_000)

  it('answers 401 to an announcement without a valid event token', async () => {
    if (!platform) throw new Error('The platform did not start (see beforeAll)')
    const route = `${AGENT_EVENTS_PATH}${AGENT_READY_SUFFIX}`
    await request(platform.api.app).post(route).send({}).expect(401)
    const refused = await request(platform.api.app).post(route).set('Authorization', 'Bearer not-a-token').send({})
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ statusCode: 401 })
  })
})

describe('agent provisioning without the readiness announcement', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi | undefined

  beforeAll(async () => {
    compiled = await compileProgram('agent')
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '120',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      // Nothing listens there: the agent's announcement (and its events) cannot get through.
      API_INTERNAL_URL: 'http://127.0.0.1:9',
    })
  }, 120_000)
  afterAll(async () => {
    await api?.stop()
    compiled?.remove()
  }, 60_000)

  it('reaches DID_CREATED by polling GET /agent', async () => {
    if (!api) throw new Error('The API did not start (see beforeAll)')
    const { agent } = await provision(api, 150_000)
    expect(agent).toMatchObject({ status: 'DID_CREATED', failureReason: null, isAnswering: true })
  }, 200_000)
})
