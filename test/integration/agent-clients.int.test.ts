import { tmpdir } from 'node:os'
import request from 'supertest'
import { RequestContext } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { InvalidStateError, NotFoundError } from '@idplane/common'
import { AgentClients } from '../../api/src/agent-client/agent-clients'
import { OrgAgent } from '../../api/src/modules/agents/org-agent.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { startApi, type TestApi } from '../helpers/api'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'
import { histogramLabelSets } from '../helpers/metrics'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'
import { claimAgentPorts } from '../helpers/ports'

const programs = writeFakeAgentPrograms(tmpdir())
afterAll(() => programs.remove())

/** AgentClients.forOrg on a running platform: the organization's recorded endpoint and its sealed API key. */
describe('AgentClients.forOrg', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi({
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_POLL_ATTEMPTS: '50',
      AGENT_POLL_INTERVAL_MS: '100',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
    })
  })
  afterAll(async () => {
    await api?.stop()
  })

  /** Inside a RequestContext, as a controller or a background job runs. */
  const forOrg = (orgId: string) =>
    RequestContext.create(api.runtime.container.get(EntityManager), () =>
      api.runtime.container.get(AgentClients).forOrg(orgId),
    )

  it('answers NotFoundError for an organization without an agent', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await expect(forOrg(orgId)).rejects.toBeInstanceOf(NotFoundError)
  })

  it('answers InvalidStateError naming the status while the agent has no recorded endpoint', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const em = api.runtime.container.get(EntityManager).fork()
    em.create(OrgAgent, {
      organization: em.getReference(Organization, orgId),
      label: 'Not yet',
      runtime: 'process',
      status: 'WALLET_CREATED',
      encryptedApiKey: 'unused',
      encryptedWalletKey: 'unused',
      eventTokenHash: 'unused',
    })
    await em.flush()
    const error = await forOrg(orgId).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidStateError)
    expect((error as Error).message).toBe("The organization's agent is not ready (status WALLET_CREATED)")
  })

  it("calls the organization's agent with its decrypted API key, counted in the API's metrics", async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const spinUp = await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Client test' })
    expect(spinUp.status).toBe(201)
    const deadline = Date.now() + 30_000
    for (;;) {
      const health = await request(api.app)
        .get(`/v1/orgs/${orgId}/agents/health`)
        .set('Authorization', `Bearer ${owner.token}`)
      const status = (health.body.data as { status: string }).status
      if (status === 'DID_CREATED') break
      if (status === 'FAILED' || Date.now() > deadline) throw new Error(`Agent ended in ${status}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }

    const client = await forOrg(orgId)
    expect(client.orgId).toBe(orgId)
    // The stand-in agent answers 401 unless the bearer is the key it was launched with.
    expect((await client.createDid({ method: 'key', seed: 'b'.repeat(32) })).did).toMatch(/^did:key:z6Mk/)
    expect((await client.getStatus()).label).toBe('Client test')

    const metrics = await request(api.app).get('/metrics')
    expect(histogramLabelSets(metrics.text, 'idplane_api_agent_request_duration_seconds')).toEqual(
      expect.arrayContaining([
        { method: 'POST', operation: 'createDid', outcome: 'success' },
        { method: 'GET', operation: 'getStatus', outcome: 'success' },
      ]),
    )
  })
})
