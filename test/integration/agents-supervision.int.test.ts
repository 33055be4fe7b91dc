import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { deleteApiQueues } from '../helpers/broker'
import { claimAgentPorts, freePort } from '../helpers/ports'
import { waitUntil } from '../helpers/agent-process'
import { isRunning, pidListeningOn, spawnApi, type ApiProcess } from '../helpers/api-process'
import { TEST_PASSWORD, verificationCodeOf, waitForMail } from '../helpers/auth-flow'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'

/**
 * Issue 8, Part 2 item 1: the built API and real agent processes, the API killed with SIGKILL. An agent must
 * not outlive its API (no orphan holding the ports), and the restarted API brings the agent back on the same
 * ports; an agent that did outlive it (one that does not watch its supervisor) is adopted, a hung one stopped.
 */
const ROOT = path.resolve(__dirname, '../..')
const REAL_AGENT = path.join(ROOT, 'dist', 'agent', 'src', 'main.js')
const programs = writeFakeAgentPrograms(tmpdir())

interface AgentBody {
  status: string
  adminPort: number | null
  inboundPort: number | null
  controllerEndpoint: string | null
  isAnswering: boolean
}

/** One platform (data dir, database, port) that can be started, killed and started again. */
class Platform {
  public api: ApiProcess | undefined
  public token = ''
  private constructor(
    public readonly dataDir: string,
    private readonly database: FreshDatabase | undefined,
    private readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  public static async create(env: Record<string, string>): Promise<Platform> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-supervision-'))
    const database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    return new Platform(dataDir, database, await freePort(), env)
  }

  public async start(): Promise<void> {
    this.api = await spawnApi(this.port, this.apiEnv())
  }

  /** What every API process of this platform gets: a second replica shares the data directory and database. */
  public apiEnv(): Record<string, string> {
    return {
      DATA_DIR: this.dataDir,
      LOG_LEVEL: 'error',
      AGENT_POLL_INTERVAL_MS: '500',
      AGENT_POLL_ATTEMPTS: '240',
      ...(this.database?.target.kind === 'postgres' ? { DATABASE_URL: this.database.target.url } : {}),
      ...this.env,
    }
  }

  public async call(
    method: string,
    route: string,
    body?: unknown,
    api = this.api,
  ): Promise<{ status: number; body: ApiBody }> {
    if (!api) throw new Error('The API is not running')
    const response = await fetch(`${api.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as ApiBody }
  }

  /** The real onboarding over HTTP (the code comes from the mail file), then an organization. */
  public async anOrganization(): Promise<string> {
    const email = `owner-${Date.now()}@example.test`
    expect((await this.call('POST', '/v1/auth/verification-mail', { email })).status).toBe(201)
    const code = verificationCodeOf(await waitForMail(this.dataDir, email))
    expect(
      (await this.call('GET', `/v1/auth/verify?email=${encodeURIComponent(email)}&verificationCode=${code}`)).status,
    ).toBe(200)
    const signUp = { email, firstName: 'Ada', lastName: 'Owner', password: TEST_PASSWORD, isEmailVerified: true }
    expect((await this.call('POST', '/v1/auth/signup', signUp)).status).toBe(201)
    const signIn = await this.call('POST', '/v1/auth/signin', { email, password: TEST_PASSWORD })
    this.token = String(signIn.body.data?.access_token)
    const org = await this.call('POST', '/v1/orgs', { name: 'Supervised', description: 'Kill tests' })
    expect(org.status).toBe(201)
    return String(org.body.data?.id)
  }

  public async healthUntil(
    orgId: string,
    isDone: (agent: AgentBody) => boolean,
    timeoutMs = 90_000,
    api = this.api,
  ): Promise<AgentBody> {
    return waitUntil(async () => {
      const response = await this.call('GET', `/v1/orgs/${orgId}/agents/health`, undefined, api).catch(() => undefined)
      const agent = response?.body.data as AgentBody | undefined
      return agent && isDone(agent) ? agent : undefined
    }, timeoutMs)
  }

  /** The pid of the agent listening on an admin port. */
  public agentPid(adminPort: number): number {
    const pid = pidListeningOn(adminPort)
    if (pid === undefined) throw new Error(`Nothing listens on ${adminPort}`)
    return pid
  }

  public async destroy(): Promise<void> {
    await this.api?.kill('SIGTERM')
    await deleteApiQueues(this.env.QUEUE_NAME_PREFIX)
    await this.database?.drop()
    rmSync(this.dataDir, { recursive: true, force: true })
  }
}

interface ApiBody {
  data?: Record<string, unknown>
}

const isReady = (agent: AgentBody) => agent.status === 'DID_CREATED' && agent.isAnswering
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
// Two replicas share a database: PostgreSQL (the embedded PGlite is one process's). `.ci/run`'s first pass has it.
const itWithTwoReplicas = process.env.DATABASE_URL ? it : it.skip

describe('a killed API and its agents (real processes)', () => {
  afterAll(() => programs.remove())

  it('the agent exits when the API is SIGKILLed and is READY again on the same ports after the restart', async () => {
    expect(existsSync(REAL_AGENT)).toBe(true)
    const agentPorts = await claimAgentPorts()
    const platform = await Platform.create({ AGENT_PORT_COUNTER_START: agentPorts.setting })
    try {
      await platform.start()
      const orgId = await platform.anOrganization()
      expect((await platform.call('POST', `/v1/orgs/${orgId}/agents/spinup`, { label: 'Survivor' })).status).toBe(201)
      const before = await platform.healthUntil(orgId, isReady)
      expect(before).toMatchObject({ adminPort: agentPorts.admin + 1, inboundPort: agentPorts.inbound + 1 })
      const pid = platform.agentPid(agentPorts.admin + 1)
      expect(isRunning(pid)).toBe(true)

      await platform.api?.kill('SIGKILL')
      // No orphan: the agent notices that its supervisor is gone and stops, freeing its ports (its graceful stop can take
      // seconds on a loaded 2-core machine: 30 s, not 10).
      await waitUntil(async () => (isRunning(pid) ? undefined : true), 30_000)

      await platform.start()
      const after = await platform.healthUntil(orgId, isReady)
      expect(after).toMatchObject({
        status: 'DID_CREATED',
        adminPort: agentPorts.admin + 1,
        inboundPort: agentPorts.inbound + 1,
        controllerEndpoint: `http://127.0.0.1:${agentPorts.admin + 1}`,
      })
      expect(platform.agentPid(agentPorts.admin + 1)).not.toBe(pid)
    } finally {
      await platform.destroy()
    }
  }, 240_000)

  it('a restarted API adopts an agent that outlived it and still answers with its key', async () => {
    const agentPorts = await claimAgentPorts()
    const platform = await Platform.create({
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_PORT_COUNTER_START: agentPorts.setting,
    })
    try {
      await platform.start()
      const orgId = await platform.anOrganization()
      await platform.call('POST', `/v1/orgs/${orgId}/agents/spinup`, { label: 'Outliver' })
      await platform.healthUntil(orgId, isReady)
      const pid = platform.agentPid(agentPorts.admin + 1)

      await platform.api?.kill('SIGKILL')
      // This stand-in ignores its supervisor pipe: it keeps running and keeps the ports.
      expect(isRunning(pid)).toBe(true)

      await platform.start()
      const after = await platform.healthUntil(orgId, isReady)
      expect(after).toMatchObject({
        status: 'DID_CREATED',
        adminPort: agentPorts.admin + 1,
        inboundPort: agentPorts.inbound + 1,
      })
      expect(platform.agentPid(agentPorts.admin + 1)).toBe(pid)
      expect(isRunning(pid)).toBe(true)
    } finally {
      await platform.destroy()
    }
  }, 120_000)

  it('a restarted API stops a hung agent by its recorded pid and starts it again on the same ports', async () => {
    const agentPorts = await claimAgentPorts()
    const platform = await Platform.create({
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_PORT_COUNTER_START: agentPorts.setting,
    })
    let pid: number | undefined
    try {
      await platform.start()
      const orgId = await platform.anOrganization()
      await platform.call('POST', `/v1/orgs/${orgId}/agents/spinup`, { label: 'Hung' })
      await platform.healthUntil(orgId, isReady)
      pid = platform.agentPid(agentPorts.admin + 1)

      await platform.api?.kill('SIGKILL')
      // Stopped, the process holds its ports but answers nothing: not an agent to adopt.
      process.kill(pid, 'SIGSTOP')

      await platform.start()
      const after = await platform.healthUntil(orgId, isReady)
      expect(after).toMatchObject({
        status: 'DID_CREATED',
        adminPort: agentPorts.admin + 1,
        inboundPort: agentPorts.inbound + 1,
      })
      expect(isRunning(pid)).toBe(false)
      expect(platform.agentPid(agentPorts.admin + 1)).not.toBe(pid)
    } finally {
      if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL')
      await platform.destroy()
    }
  }, 120_000)

  itWithTwoReplicas(
    'two APIs on one data directory: one supervises the agent, the other takes it over when that one dies, and neither fights the other',
    async () => {
      const agentPorts = await claimAgentPorts()
      const platform = await Platform.create({
        AGENT_ENTRYPOINT: programs.path('supervised'),
        AGENT_PORT_COUNTER_START: agentPorts.setting,
        ...(process.env.AMQP_URL
          ? { AMQP_URL: process.env.AMQP_URL, QUEUE_NAME_PREFIX: `test-supervision-${Date.now()}.` }
          : {}),
      })
      let other: ApiProcess | undefined
      try {
        await platform.start()
        // The second replica runs before the spin-up: it learns of the agent by looking for agents of other
        // replicas (every 15 s), and from then on watches it.
        other = await spawnApi(await freePort(), platform.apiEnv())
        const orgId = await platform.anOrganization()
        expect((await platform.call('POST', `/v1/orgs/${orgId}/agents/spinup`, { label: 'Shared' })).status).toBe(201)
        await platform.healthUntil(orgId, isReady)
        const first = platform.agentPid(agentPorts.admin + 1)
        await sleep(17_000)
        expect(platform.agentPid(agentPorts.admin + 1)).toBe(first)

        // The supervisor dies with its agent: the watching replica starts the agent again. The killed replica comes
        // back as soon as that agent's process exists, while it is still starting (3 s), and must neither stop it
        // nor start its own: the agent is never FAILED and keeps its process.
        await platform.api?.kill('SIGKILL')
        const record = path.join(platform.dataDir, 'agents', `${orgId}.pid.json`)
        const second = await waitUntil(async () => {
          const pid = existsSync(record) ? (JSON.parse(readFileSync(record, 'utf8')) as { pid: number }).pid : 0
          return pid !== first && isRunning(pid) ? pid : undefined
        }, 30_000)
        expect(isRunning(first)).toBe(false)
        await platform.start()
        const takenOver = await platform.healthUntil(orgId, isReady, 60_000, other)
        expect(takenOver).toMatchObject({
          status: 'DID_CREATED',
          adminPort: agentPorts.admin + 1,
          inboundPort: agentPorts.inbound + 1,
        })
        expect(platform.agentPid(agentPorts.admin + 1)).toBe(second)
        await platform.healthUntil(orgId, isReady)
        await sleep(5_000)
        expect(platform.agentPid(agentPorts.admin + 1)).toBe(second)
        expect((await platform.healthUntil(orgId, () => true)).status).toBe('DID_CREATED')

        // A graceful stop of the supervising replica hands the agent over as well.
        await other.kill('SIGTERM')
        other = undefined
        await waitUntil(async () => (isRunning(second) ? undefined : true), 30_000)
        const handedOver = await platform.healthUntil(orgId, isReady, 60_000)
        expect(handedOver.status).toBe('DID_CREATED')
        expect(platform.agentPid(agentPorts.admin + 1)).not.toBe(second)
      } finally {
        await other?.kill('SIGKILL')
        await platform.destroy()
      }
    },
    240_000,
  )
})
