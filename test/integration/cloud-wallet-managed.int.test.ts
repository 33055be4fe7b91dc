import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { type AgentPorts, claimAgentPorts, freePort } from '../helpers/ports'
import { waitUntil } from '../helpers/agent-process'
import { isRunning, pidListeningOn, spawnApi, type ApiProcess } from '../helpers/api-process'
import { TEST_PASSWORD, verificationCodeOf, waitForMail } from '../helpers/auth-flow'
import { deleteApiQueues } from '../helpers/broker'
import { buildPrograms } from '../helpers/build-programs'

/**
 * Issue 11, item 2: the platform's own base-wallet agent. The built API is started with no cloud-wallet setting
 * (CLOUD_WALLET_BASE_AGENT defaults to `managed`): a signed-in user's first create-wallet starts the base agent
 * through the process runtime and succeeds; the wallet answers again after a restart of the API and after a
 * SIGKILL of it, and the killed API's base agent does not outlive it. DATABASE_URL / AMQP_URL choose the real
 * services, else everything is embedded.
 */

interface Answer {
  status: number
  retryAfter: string | null
  body: { message?: string; data?: unknown }
}

/** One platform (data dir, database, broker queues, port) that can be started, killed and started again. */
class Platform {
  public api: ApiProcess | undefined
  private token = ''
  private constructor(
    public readonly dataDir: string,
    private readonly database: FreshDatabase | undefined,
    private readonly port: number,
    public readonly agentPorts: AgentPorts,
    private readonly queuePrefix: string,
    public readonly adminEmail: string,
  ) {}

  public static async create(adminEmail: string): Promise<Platform> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-base-wallet-'))
    const database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    // Far from the ports of other test files running at the same time.
    const agentPorts = await claimAgentPorts()
    const queuePrefix = `test-${randomBytes(4).toString('hex')}.`
    return new Platform(dataDir, database, await freePort(), agentPorts, queuePrefix, adminEmail)
  }

  /** The built API with the embedded defaults or DATABASE_URL / AMQP_URL, and no cloud-wallet setting. */
  public async start(): Promise<void> {
    this.api = await spawnApi(this.port, {
      DATA_DIR: this.dataDir,
      LOG_LEVEL: 'error',
      AGENT_POLL_INTERVAL_MS: '500',
      AGENT_POLL_ATTEMPTS: '240',
      AGENT_PORT_COUNTER_START: this.agentPorts.setting,
      QUEUE_NAME_PREFIX: this.queuePrefix,
      // Not a cloud-wallet setting: lets the holder try POST /v1/configure/base-wallet.
      PLATFORM_ADMIN_EMAILS: this.adminEmail,
      ...(this.database?.target.kind === 'postgres' ? { DATABASE_URL: this.database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
    })
  }

  public async call(method: string, route: string, body?: unknown): Promise<Answer> {
    if (!this.api) throw new Error('The API is not running')
    const response = await fetch(`${this.api.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Answer['body'],
    }
  }

  public async metrics(): Promise<string> {
    if (!this.api) throw new Error('The API is not running')
    return (await fetch(`${this.api.url}/metrics`)).text()
  }

  /** The real onboarding over HTTP (the code comes from the mail file); the token is kept for later calls. */
  public async signIn(email: string): Promise<void> {
    expect((await this.call('POST', '/v1/auth/verification-mail', { email })).status).toBe(201)
    const code = verificationCodeOf(await waitForMail(this.dataDir, email, { timeoutMs: 30_000 }))
    const verify = await this.call('GET', `/v1/auth/verify?email=${encodeURIComponent(email)}&verificationCode=${code}`)
    expect(verify.status).toBe(200)
    const signUp = { email, firstName: 'Ada', lastName: 'Holder', password: TEST_PASSWORD, isEmailVerified: true }
    expect((await this.call('POST', '/v1/auth/signup', signUp)).status).toBe(201)
    await this.signInAgain(email)
  }

  public async signInAgain(email: string): Promise<void> {
    const signIn = await this.call('POST', '/v1/auth/signin', { email, password: TEST_PASSWORD })
    expect(signIn.status).toBe(200)
    this.token = String((signIn.body.data as { access_token: string }).access_token)
  }

  /**
   * A wallet call as a client would make it: while the base agent starts the API may answer 503 with Retry-After
   * (after waiting CLOUD_WALLET_BASE_AGENT_WAIT_MS itself); the call is repeated then. Every answer is kept.
   */
  public async patiently(method: string, route: string, body?: unknown): Promise<Answer[]> {
    const answers: Answer[] = []
    for (;;) {
      const answer = await this.call(method, route, body)
      answers.push(answer)
      if (answer.status !== 503 || answers.length > 20) return answers
      await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter ?? '5') * 1000))
    }
  }

  public async destroy(): Promise<void> {
    await this.api?.kill('SIGTERM')
    await this.database?.drop()
    await deleteApiQueues(this.queuePrefix)
    rmSync(this.dataDir, { recursive: true, force: true })
  }
}

jest.setTimeout(600_000)

describe(`the platform's own base-wallet agent (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'})`, () => {
  let platform: Platform
  const email = `holder-${Date.now()}@example.test`
  let baseAdminPort: number
  let tenantId: string
  let did: string

  beforeAll(async () => {
    buildPrograms()
    platform = await Platform.create(email)
    // The process runtime's first agent takes the counters' next ports: the base agent is the only agent here.
    baseAdminPort = platform.agentPorts.admin + 1
    await platform.start()
    await platform.signIn(email)
  })

  afterAll(async () => {
    await platform?.destroy()
  })

  it('with no cloud-wallet setting, a user creates a wallet and uses it (the base agent starts on first use)', async () => {
    expect(pidListeningOn(baseAdminPort)).toBeUndefined()
    const startedAt = Date.now()
    const answers = await platform.patiently('POST', '/v1/create-wallet', { label: 'Ada' })
    const created = answers[answers.length - 1]
    // Until the agent answers: a 503 with Retry-After and a message, never a 500.
    for (const early of answers.slice(0, -1)) {
      expect(early).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { message: expect.stringMatching(/starting/) },
      })
    }
    expect(created?.status).toBe(201)
    process.stdout.write(
      `first create-wallet: ${Date.now() - startedAt} ms, ${answers.length - 1} answer(s) 503 before the 201\n`,
    )
    const wallet = created?.body.data as { tenantId: string; label: string; email: string }
    expect(wallet).toMatchObject({ tenantId: expect.any(String), label: 'Ada', email })
    tenantId = wallet.tenantId

    const made = await platform.call('POST', '/v1/did', { method: 'key', keyType: 'ed25519' })
    expect(made.status).toBe(201)
    did = (made.body.data as { did: string }).did
    expect(did).toMatch(/^did:key:/)
    const dids = await platform.call('GET', '/v1/did')
    expect(dids.status).toBe(200)
    expect((dids.body.data as { did: string }[]).map((entry) => entry.did)).toContain(did)

    // The base agent is a process of the runtime, on the counters' next ports.
    expect(pidListeningOn(baseAdminPort)).toEqual(expect.any(Number))
    const metrics = await platform.metrics()
    expect(metrics).toMatch(
      /idplane_api_cloud_wallet_base_agent_start_duration_seconds_count\{runtime="process",result="success"\} 1/,
    )
    expect(metrics).toMatch(/^idplane_api_cloud_wallets 1$/m)
    // A second create is still 409 (one wallet per user), now on the managed agent.
    expect((await platform.call('POST', '/v1/create-wallet', { label: 'Ada again' })).status).toBe(409)
    // The managed agent holds a wallet: configuring another base wallet is refused before any agent is called.
    const configure = await platform.call('POST', '/v1/configure/base-wallet', {
      agentEndpoint: 'http://127.0.0.1:9',
      apiKey: 'an-external-agent-key',
      walletKey: 'an-external-wallet-key',
    })
    expect(configure).toMatchObject({ status: 409, body: { message: expect.stringMatching(/managed base agent/) } })
  })

  it("keeps the wallets' lists from the managed agent's events (two wallets of it connect)", async () => {
    const bob = `bob-${Date.now()}@example.test`
    await platform.signIn(bob)
    expect((await platform.patiently('POST', '/v1/create-wallet', { label: 'Bob' })).at(-1)?.status).toBe(201)
    await platform.signInAgain(email)
    const invitation = await platform.call('POST', '/v1/connections/invitation', { label: 'Ada' })
    expect(invitation.status).toBe(201)
    const { invitationUrl, outOfBandRecord } = invitation.body.data as {
      invitationUrl: string
      outOfBandRecord: { id: string }
    }
    await platform.signInAgain(bob)
    expect((await platform.call('POST', '/v1/receive-invitation-url', { invitationUrl })).status).toBe(201)
    // Ada's list reads the holder records, which only the base agent's events fill for the inviter's side.
    await platform.signInAgain(email)
    const listed = await waitUntil(async () => {
      const answer = await platform.call('GET', `/v1/connections?outOfBandId=${outOfBandRecord.id}`)
      const records = answer.body.data as { state: string }[]
      return records.some((record) => record.state === 'completed') ? records : undefined
    }, 60_000)
    expect(listed).toHaveLength(1)
  })

  it('brings the same agent and wallet back after the API restarts, and stops the agent with the API', async () => {
    const pid = pidListeningOn(baseAdminPort)
    expect(pid).toEqual(expect.any(Number))
    await platform.api?.kill('SIGTERM')
    await waitUntil(async () => (pid !== undefined && isRunning(pid) ? undefined : true), 30_000)

    const restartedAt = Date.now()
    await platform.start()
    // Started again at API start (the row says it exists), so the wallet answers without a new create.
    await waitUntil(async () => (pidListeningOn(baseAdminPort) === undefined ? undefined : true), 120_000)
    await platform.signInAgain(email)
    const dids = await platform.patiently('GET', '/v1/did')
    process.stdout.write(`API restart to the wallet answering: ${Date.now() - restartedAt} ms\n`)
    expect(dids[dids.length - 1]?.status).toBe(200)
    expect((dids[dids.length - 1]?.body.data as { did: string }[]).map((entry) => entry.did)).toContain(did)
    const again = await platform.call('POST', '/v1/create-wallet', { label: 'Ada' })
    expect(again.status).toBe(409)
  })

  it('leaves no orphan when the API is SIGKILLed, and the wallet answers again after the next start', async () => {
    const pid = pidListeningOn(baseAdminPort)
    expect(pid).toEqual(expect.any(Number))
    await platform.api?.kill('SIGKILL')
    // The agent notices that its supervisor is gone (stdin closed) and exits, freeing its ports.
    await waitUntil(async () => (pid !== undefined && isRunning(pid) ? undefined : true), 15_000)
    expect(pidListeningOn(baseAdminPort)).toBeUndefined()

    await platform.start()
    await platform.signInAgain(email)
    const dids = await platform.patiently('GET', '/v1/did')
    expect(dids[dids.length - 1]?.status).toBe(200)
    expect((dids[dids.length - 1]?.body.data as { did: string }[]).map((entry) => entry.did)).toContain(did)
    expect(pidListeningOn(baseAdminPort)).not.toBe(pid)
    expect(tenantId).toEqual(expect.any(String))
  })
})
