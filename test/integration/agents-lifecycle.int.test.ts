import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { shortOrgId } from '../../api/src/agent-runtime/agent-runtime'
import { startApi, type TestApi } from '../helpers/api'
import { waitUntil } from '../helpers/agent-process'
import { isRunning, pidListeningOn } from '../helpers/api-process'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { type AgentPorts, claimAgentPorts } from '../helpers/ports'

/**
 * Issue 8, Part 2 items 2, 3, 4 and 14, and Part 1 item 5 for the agents module: restarts of a crashed agent,
 * removal with the organization, quotas, loopback binding, and no row lock held while an agent is called.
 */
const REAL_AGENT = path.resolve(__dirname, '../../dist/agent/src/main.js')
const programs = writeFakeAgentPrograms(tmpdir())
afterAll(() => programs.remove())

interface AgentBody {
  status: string
  failureReason: string | null
  adminPort: number | null
  inboundPort: number | null
  controllerEndpoint: string | null
  isAnswering: boolean
  restarts: number
  lastExit: { code: number | null; signal: string | null; at: string } | null
}

async function anOwnedOrganization(api: TestApi): Promise<{ owner: TestUser; orgId: string }> {
  const owner = await aUserWithToken(api)
  return { owner, orgId: await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }]) }
}

function spinUp(api: TestApi, owner: TestUser, orgId: string, label = 'Acme wallet') {
  return request(api.app)
    .post(`/v1/orgs/${orgId}/agents/spinup`)
    .set('Authorization', `Bearer ${owner.token}`)
    .send({ label })
}

async function healthUntil(
  api: TestApi,
  owner: TestUser,
  orgId: string,
  isDone: (agent: AgentBody) => boolean,
  timeoutMs = 120_000,
): Promise<AgentBody> {
  return waitUntil(async () => {
    const response = await request(api.app)
      .get(`/v1/orgs/${orgId}/agents/health`)
      .set('Authorization', `Bearer ${owner.token}`)
    const agent = response.body.data as AgentBody
    return isDone(agent) ? agent : undefined
  }, timeoutMs)
}

const isReady = (agent: AgentBody) => agent.status === 'DID_CREATED' && agent.isAnswering

/** The pid of the agent listening on an admin port. */
function agentPid(adminPort: number): number {
  const pid = pidListeningOn(adminPort)
  if (pid === undefined) throw new Error(`Nothing listens on ${adminPort}`)
  return pid
}

/** 'refused' when nothing listens on host:port, 'connected' when something does. */
function tryConnect(host: string, port: number): Promise<'connected' | 'refused'> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 })
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', () => resolve('refused'))
    socket.once('timeout', () => {
      socket.destroy()
      resolve('refused')
    })
  })
}

/** The addresses `ss` shows listening on a port. */
function listeningAddresses(port: number): string[] {
  const output = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' })
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s+/)[3] ?? '')
}

describe('a real agent on the process runtime', () => {
  let api: TestApi
  let agentPorts: AgentPorts
  let owner: TestUser
  let orgId: string

  beforeAll(async () => {
    expect(existsSync(REAL_AGENT)).toBe(true)
    agentPorts = await claimAgentPorts()
    api = await startApi({
      AGENT_POLL_ATTEMPTS: '240',
      AGENT_POLL_INTERVAL_MS: '500',
      AGENT_PORT_COUNTER_START: agentPorts.setting,
    })
    ;({ owner, orgId } = await anOwnedOrganization(api))
    expect((await spinUp(api, owner, orgId)).status).toBe(201)
    await healthUntil(api, owner, orgId, isReady)
  }, 180_000)
  afterAll(async () => {
    await api?.stop()
  }, 60_000)

  it('listens on loopback only: both ports refuse a non-loopback address of this machine', async () => {
    const ports = [agentPorts.admin + 1, agentPorts.inbound + 1]
    for (const port of ports) {
      expect(await tryConnect('127.0.0.1', port)).toBe('connected')
      expect(listeningAddresses(port)).toEqual([`127.0.0.1:${port}`])
    }
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal)
    if (external) {
      for (const port of ports) expect(await tryConnect(external.address, port)).toBe('refused')
    }
  })

  it('is restarted after SIGKILL on the same ports, and health shows the restart and the exit', async () => {
    const pid = agentPid(agentPorts.admin + 1)
    process.kill(pid, 'SIGKILL')
    const agent = await healthUntil(api, owner, orgId, (current) => current.restarts === 1 && current.isAnswering)
    expect(agent).toMatchObject({
      status: 'DID_CREATED',
      adminPort: agentPorts.admin + 1,
      inboundPort: agentPorts.inbound + 1,
      controllerEndpoint: `http://127.0.0.1:${agentPorts.admin + 1}`,
      restarts: 1,
      lastExit: { code: null, signal: 'SIGKILL', at: expect.any(String) },
    })
    expect(agentPid(agentPorts.admin + 1)).not.toBe(pid)
  }, 150_000)

  it('is stopped and its data deleted with its organization', async () => {
    const pid = agentPid(agentPorts.admin + 1)
    const deleted = await request(api.app).delete(`/v1/orgs/${orgId}`).set('Authorization', `Bearer ${owner.token}`)
    expect(deleted.status).toBe(200)
    expect(isRunning(pid)).toBe(false)
    expect(await tryConnect('127.0.0.1', agentPorts.admin + 1)).toBe('refused')
    expect(existsSync(path.join(api.dataDir, 'agents', orgId))).toBe(false)
    if (api.database.kind === 'postgres') {
      const schemas = await api.runtime.container
        .get(EntityManager)
        .fork()
        .getConnection()
        .execute('select 1 from information_schema.schemata where schema_name = ?', [`agent_${shortOrgId(orgId)}`])
      expect(schemas).toEqual([])
    }
  }, 60_000)
})

describe('quotas', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi({
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_POLL_ATTEMPTS: '50',
      AGENT_POLL_INTERVAL_MS: '100',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      LIMIT_ORGS_PER_USER: '2',
      LIMIT_PROCESS_AGENTS: '1',
    })
  })
  afterAll(async () => {
    await api?.stop()
  })

  it('refuse a user a third organization with 409 and a clear message', async () => {
    const user = await aUserWithToken(api)
    const create = (name: string) =>
      request(api.app)
        .post('/v1/orgs')
        .set('Authorization', `Bearer ${user.token}`)
        .send({ name, description: 'Quota test' })
    const results = await Promise.all([create('One'), create('Two'), create('Three')])
    expect(results.map((result) => result.status).sort()).toEqual([201, 201, 409])
    const refused = results.find((result) => result.status === 409)
    expect(refused?.body).toMatchObject({ statusCode: 409, message: expect.stringMatching(/at most|most one user/) })
    // Another user has a quota of their own.
    const other = await aUserWithToken(api)
    const own = await request(api.app)
      .post('/v1/orgs')
      .set('Authorization', `Bearer ${other.token}`)
      .send({ name: 'Four', description: 'Quota test' })
    expect(own.status).toBe(201)
  })

  it('refuse an agent past LIMIT_PROCESS_AGENTS with 409, and allow it once one is removed', async () => {
    const first = await anOwnedOrganization(api)
    const second = await anOwnedOrganization(api)
    expect((await spinUp(api, first.owner, first.orgId)).status).toBe(201)
    const refused = await spinUp(api, second.owner, second.orgId)
    expect(refused.status).toBe(409)
    expect(refused.body.message).toMatch(/limit of 1 agents/)
    await healthUntil(api, first.owner, first.orgId, isReady)
    await request(api.app).delete(`/v1/orgs/${first.orgId}`).set('Authorization', `Bearer ${first.owner.token}`)
    expect((await spinUp(api, second.owner, second.orgId)).status).toBe(201)
    await healthUntil(api, second.owner, second.orgId, isReady)
  })
})

describe('provisioning without a row lock over HTTP', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi({
      AGENT_ENTRYPOINT: programs.path('slow-did'),
      AGENT_POLL_ATTEMPTS: '50',
      AGENT_POLL_INTERVAL_MS: '100',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
    })
  })
  afterAll(async () => {
    await api?.stop()
  })

  it('gives concurrent spin-ups of one organization one agent and one DID', async () => {
    const { owner, orgId } = await anOwnedOrganization(api)
    const responses = await Promise.all(Array.from({ length: 5 }, () => spinUp(api, owner, orgId)))
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409])
    await healthUntil(api, owner, orgId, isReady)
    const dids = await request(api.app).get(`/v1/orgs/${orgId}/dids`).set('Authorization', `Bearer ${owner.token}`)
    expect(dids.body.data).toHaveLength(1)
  })

  it('leaves the agent row writable while the agent creates the first DID', async () => {
    const { owner, orgId } = await anOwnedOrganization(api)
    const created = await spinUp(api, owner, orgId)
    const adminPort = Number(created.body.data.adminPort)
    // The stand-in holds its answer to POST /dids for 3 s.
    await waitUntil(async () => {
      const response = await fetch(`http://127.0.0.1:${adminPort}/did-requests`).catch(() => undefined)
      const body = (await response?.json()) as { didRequests?: number } | undefined
      return body?.didRequests === 1 ? true : undefined
    })
    const startedAt = Date.now()
    await api.runtime.container
      .get(EntityManager)
      .fork()
      .getConnection()
      .execute("update org_agents set label = 'Renamed' where organization_id = ?", [orgId])
    expect(Date.now() - startedAt).toBeLessThan(1500)
    const agent = await healthUntil(api, owner, orgId, isReady)
    expect(agent.status).toBe('DID_CREATED')
  })
})
