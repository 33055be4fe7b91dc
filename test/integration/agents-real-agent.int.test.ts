import { existsSync } from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

const ROOT = path.join(__dirname, '..', '..')
const hasAgent = existsSync(path.join(ROOT, 'agent', 'src', 'main.ts'))

/** The real agent program compiled for this test; undefined (with a SKIP line) when it does not compile. */
async function compileAgent(): Promise<CompiledProgram | undefined> {
  try {
    return await compileProgram('agent')
  } catch (error) {
    console.warn(`SKIP real agent: agent/src does not compile (${(error as Error).message})`)
    return undefined
  }
}

/** The platform's spin-up against the real agent program (agent/), when it is there. */
;(hasAgent ? describe : describe.skip)('agent spin-up with the real agent program', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi | undefined

  beforeAll(async () => {
    compiled = await compileAgent()
    if (!compiled) return
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '90',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: '18201,19201',
    })
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
    compiled?.remove()
  }, 60_000)

  it('reaches DID_CREATED and lists the DID as primary', async () => {
    if (!api) return
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const created = await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Real agent', method: 'key' })
    expect(created.status).toBe(201)
    const deadline = Date.now() + 110_000
    let agent: Record<string, unknown> = {}
    while (Date.now() < deadline) {
      const health = await request(api.app)
        .get(`/v1/orgs/${orgId}/agents/health`)
        .set('Authorization', `Bearer ${owner.token}`)
      agent = health.body.data as Record<string, unknown>
      if (agent.status === 'DID_CREATED' || agent.status === 'FAILED') break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(agent).toMatchObject({
      status: 'DID_CREATED',
      failureReason: null,
      controllerEndpoint: 'http://127.0.0.1:18202',
      isAnswering: true,
    })
    const dids = await request(api.app).get(`/v1/orgs/${orgId}/dids`).set('Authorization', `Bearer ${owner.token}`)
    expect(dids.body.data).toEqual([
      expect.objectContaining({ did: expect.stringMatching(/^did:key:z6Mk/), isPrimaryDid: true }),
    ])
  }, 150_000)
})
