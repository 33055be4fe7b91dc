/**
 * The platform the chaos run and the soak drive (issue 28): PostgreSQL and RabbitMQ as this machine runs them, an
 * SMTP capture, two API processes (`dist/api/src/main.js`) on one database and broker behind a round-robin proxy,
 * the organization agent the API provisions as a local process, a holder agent process and a signed webhook
 * receiver; the exchange flows that load it, and the accounting read at the end (records, webhooks, mails).
 * Loopback only. Build first (`node scripts/build.mjs`).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { Client } from 'pg'
import { TERMINAL_STATES as CREDENTIAL_TERMINAL } from '../api/src/modules/credentials/credential.states'
import { TERMINAL_PROOF_STATES } from '../api/src/modules/proofs/proof.states'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../test/fixtures/degree-credential'
import { deleteApiQueues } from '../test/helpers/broker'
import { freePort } from '../test/helpers/ports'
import { freshDatabase, type FreshDatabase } from '../test/helpers/database'
import { startSmtpCapture, type SmtpCapture } from '../test/helpers/smtp-capture'
import { startWebhookReceiver, type WebhookReceiver } from '../test/helpers/webhook-receiver'
import {
  type Agent,
  type ChildOutput,
  childOutput,
  EventSink,
  releaseChildOutput,
  startAgent,
  startSink,
} from './agent-harness'
import { percentile, publishIndyDefinition } from './api-harness'

const ROOT = path.resolve(__dirname, '..')
const PASSWORD = 'chaos-password-42'
const WEBHOOK_SECRET = 'chaos-webhook-secret-0001'
const HOOK_PATH = '/chaos-hook'
/** How long the holder looks for a mailed offer before it opens the next mail to the address, if one came. */
const MAIL_FOLLOW_ROUND_MS = 15_000
/** The platform's short link in a mail's text. */
const MAILED_LINK = /(http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+)/
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const CONNECTION_TERMINAL = ['completed', 'abandoned']

export interface PlatformOptions {
  /** PostgreSQL server; a fresh database is made on it and dropped at the end. */
  databaseUrl: string
  amqpUrl: string
  /** Node options of the API processes (e.g. --cpu-prof). */
  apiNodeArgs?: string[]
  indy: boolean
  /** Settings of the API processes beside the harness's own (the soak shortens the retentions). */
  apiEnv?: Record<string, string>
}

/** One HTTP answer as the driver saw it (through the proxy). */
export interface CallRecord {
  route: string
  status: number
  /** `Retry-After` of the answer, when it had one. */
  retryAfter?: string
  startedAt: number
  ms: number
  /** A connection error or timeout instead of an answer (status 0). */
  error?: string
  /** The message of a 5xx answer. */
  message?: string
}

/** What the proxy saw: answers it could not get from either replica are its own 502. */
export interface ProxyStats {
  forwarded: number
  /** A replica refused the connection; the request went to the other one. */
  failedOver: number
  /** The connection to a replica broke after the request was sent (the replica was killed during it). */
  cutMidRequest: number
  /** Of those, GET or HEAD requests sent again to the other replica before any answer had come back. */
  cutRetried: number
}

interface Replica {
  name: string
  port: number
  child?: ChildProcess
  exited?: Promise<void>
  up: boolean
}

/** Outcome of one exchange the driver started. */
export interface Exchange {
  id: number
  kind: string
  startedAt: number
  endedAt?: number
  outcome?: 'done' | 'failed'
  reason?: string
  /** The platform records the exchange made: [kind, id]. */
  records: { type: 'connection' | 'credential' | 'proof'; id: string }[]
  mailsExpected: string[]
}

/** A steady supply of the exchange kinds the run mixes. */
export const EXCHANGE_KINDS = ['connection', 'jsonld', 'indy', 'proof', 'oob-email', 'bulk'] as const
export type ExchangeKind = (typeof EXCHANGE_KINDS)[number]

export class Platform {
  public readonly calls: CallRecord[] = []
  public readonly exchanges: Exchange[] = []
  public readonly proxyStats: ProxyStats = { forwarded: 0, failedOver: 0, cutMidRequest: 0, cutRetried: 0 }
  /** The holder's out-of-band record for each link it took, as the receive answered (for a stuck exchange's report). */
  private readonly receivedFrom = new Map<string, { id: string; state: string }>()
  /** The data directories of the holder's starts, removed when the run stops. */
  private readonly holderDirs: string[] = []
  /** Every process the run started (pid and start time), to find orphans at the end. */
  public readonly processes = new Map<number, { name: string; startTime: string }>()
  public replicas: Replica[] = []
  public holder!: Agent
  public holderDid = ''
  public orgId = ''
  public orgDid = ''
  public token = ''
  public indyDefinitionId: string | undefined
  public webhook!: WebhookReceiver
  public smtp!: SmtpCapture
  public sink = new EventSink()
  public database!: FreshDatabase
  public proxyPort = 0
  public orgAgentAdminPort = 0
  private templateId = ''
  /** The run's log (start's), for what happened inside an exchange that did not fail it. */
  private log: (line: string) => void = () => undefined
  private dataDir = ''
  private env: Record<string, string> = {}
  private proxy?: Server
  private sinkServer?: Server
  private sinkUrl = ''
  private holderPorts = { admin: 0, inbound: 0 }
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 32 })
  private readonly upstream = new HttpAgent({ keepAlive: true, maxSockets: 64 })
  private next = 0
  private nextExchange = 0
  private pidWatch?: NodeJS.Timeout
  private readonly tag = randomBytes(3).toString('hex')

  public constructor(private readonly options: PlatformOptions) {}

  public get proxyUrl(): string {
    return `http://127.0.0.1:${this.proxyPort}`
  }

  // ---------------------------------------------------------------- set-up

  public async start(log: (line: string) => void): Promise<void> {
    this.log = log
    this.database = await freshDatabase('postgres', this.options.databaseUrl)
    this.smtp = await startSmtpCapture()
    this.webhook = await startWebhookReceiver()
    this.webhook.setSecret(HOOK_PATH, WEBHOOK_SECRET)
    this.sinkServer = await startSink(this.sink)
    this.sinkUrl = `http://127.0.0.1:${(this.sinkServer.address() as AddressInfo).port}/events`
    this.dataDir = mkdtempSync(path.join(tmpdir(), 'chaos-api-'))
    this.proxyPort = await freePort()
    this.proxy = await this.startProxy()
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    })
    // Every process the run kills is restarted on its port: ports below the ephemeral range (freePort), and
    // the two counters far apart (each hands out the next ports).
    const [first, second] = [await freePort(), await freePort()].sort((a, b) => a - b)
    const adminStart = first
    const inboundStart = Math.max(second, first + 100)
    this.orgAgentAdminPort = adminStart + 1
    // What a two-replica deployment shares: database, broker, keys, the public URL (the proxy) and, for the process
    // runtime, the data directory where each agent's pid is noted (a restarted replica adopts a running agent).
    this.env = {
      DATA_DIR: this.dataDir,
      DATABASE_URL: this.database.target.kind === 'postgres' ? this.database.target.url : '',
      AMQP_URL: this.options.amqpUrl,
      SMTP_URL: this.smtp.url,
      QUEUE_NAME_PREFIX: `chaos-${this.tag}.`,
      API_PUBLIC_URL: this.proxyUrl,
      API_INTERNAL_URL: this.proxyUrl,
      SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      JWT_PRIVATE_KEY: Buffer.from(privateKey).toString('base64'),
      JWT_PUBLIC_KEY: Buffer.from(publicKey).toString('base64'),
      AGENT_PORT_COUNTER_START: `${adminStart},${inboundStart}`,
      AGENT_POLL_ATTEMPTS: '120',
      AGENT_POLL_INTERVAL_MS: '500',
      NETWORK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '1000,5000,15000',
      WEBHOOK_MAX_ATTEMPTS: '20',
      WEBHOOK_REQUEUE_AFTER_SECONDS: '20',
      MAIL_OUTBOX_LEASE_SECONDS: '20',
      // A request cut by a replica's kill holds its Idempotency-Key this long before the driver's retry may act.
      IDEMPOTENCY_PENDING_TIMEOUT_SECONDS: '15',
      LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? 'error',
      ...this.options.apiEnv,
    }
    this.replicas = [
      { name: 'api-a', port: await freePort(), up: false },
      { name: 'api-b', port: await freePort(), up: false },
    ]
    // One after the other: the first runs the migrations.
    for (const replica of this.replicas) await this.startReplica(replica)
    log(`APIs on ${this.replicas.map((r) => r.port).join(', ')} behind ${this.proxyUrl}`)
    this.pidWatch = setInterval(() => this.notePids(), 1000)
    this.pidWatch.unref()

    // The holder needs nothing of the organization: it starts while the organization's agent is spun up.
    this.holderPorts = { admin: await freePort(), inbound: await freePort() }
    const holderReady = (async () => {
      await this.startHolder()
      this.holderDid = (await this.holder.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
    })()
    // Not left unhandled while the organization is set up; awaited below.
    holderReady.catch(() => undefined)
    await this.signUp()
    await this.spinUp()
    log(`organization ${this.orgId} with agent on admin port ${this.orgAgentAdminPort}, DID ${this.orgDid}`)
    const registered = await this.api('POST', `/webhooks/orgs/${this.orgId}/register`, 'POST webhooks register', {
      webhookUrl: `${this.webhook.url}${HOOK_PATH}`,
      webhookSecret: WEBHOOK_SECRET,
    })
    if (registered.status !== 201) throw new Error(`webhook register: ${registered.status}`)
    await holderReady
    this.templateId = await this.bulkTemplate()
    if (this.options.indy) {
      const started = Date.now()
      const definition = await publishIndyDefinition(this.http, this.proxyPort, this.token, this.orgId)
      this.indyDefinitionId = definition.credentialDefinitionId
      log(`INDY credential definition in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    }
  }

  /**
   * Where a replica's log lines (stdout) and errors go: `<CHAOS_API_LOGS>/<replica>.log` when that directory is set
   * (with its agents' lines), else errors only with CHAOS_API_STDERR=1, else nowhere.
   */
  private replicaOutput(replica: Replica): ChildOutput {
    return childOutput(process.env.CHAOS_API_LOGS, replica.name, [
      'ignore',
      process.env.CHAOS_API_STDERR ? 'inherit' : 'ignore',
    ])
  }

  private async startReplica(replica: Replica): Promise<void> {
    const output = this.replicaOutput(replica)
    const child = spawn(process.execPath, [...(this.options.apiNodeArgs ?? []), 'dist/api/src/main.js'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        API_GATEWAY_HOST: '127.0.0.1',
        API_GATEWAY_PORT: String(replica.port),
        ...this.env,
      },
      stdio: ['ignore', ...output],
    })
    releaseChildOutput(output)
    replica.child = child
    replica.exited = new Promise((resolve) => child.once('exit', () => resolve()))
    if (child.pid !== undefined) this.noteProcess(child.pid, replica.name)
    const deadline = Date.now() + 180_000
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${replica.name} exited with ${child.exitCode ?? child.signalCode} while starting`)
      const ready = await fetch(`http://127.0.0.1:${replica.port}/health/ready`).catch(() => undefined)
      if (ready?.status === 200) break
      if (Date.now() > deadline) throw new Error(`${replica.name} not ready within 180 s`)
      await sleep(300)
    }
    replica.up = true
  }

  /** SIGKILL of a replica; resolves once it is gone. */
  public async killReplica(replica: Replica): Promise<void> {
    replica.up = false
    replica.child?.kill('SIGKILL')
    await replica.exited
  }

  public async restartReplica(replica: Replica): Promise<void> {
    await this.startReplica(replica)
  }

  public async startHolder(): Promise<void> {
    this.holder = await startAgent('holder', this.sinkUrl, {
      databaseUrl: this.database.target.kind === 'postgres' ? this.database.target.url : undefined,
      ports: this.holderPorts,
      // The holder resolves AnonCreds objects on the platform ledger, which the API serves.
      env: { AGENT_LEDGER_URL: this.proxyUrl },
    })
    if (this.holder.process.pid !== undefined) this.noteProcess(this.holder.process.pid, 'holder')
    this.holderDirs.push(this.holder.dataDir)
  }

  public async killHolder(): Promise<void> {
    const exited = new Promise((resolve) => this.holder.process.once('exit', resolve))
    this.holder.process.kill('SIGKILL')
    await exited
  }

  /** The pid of the organization's agent (whichever replica runs it), from the port it listens on. */
  public orgAgentPid(): number | undefined {
    return pidListeningOn(this.orgAgentAdminPort)
  }

  private noteProcess(pid: number, name: string): void {
    const startTime = processStartTime(pid)
    if (startTime !== undefined) this.processes.set(pid, { name, startTime })
  }

  /** Agents are the replicas' children: note every one seen. */
  private notePids(): void {
    for (const replica of this.replicas) {
      const pid = replica.child?.pid
      if (pid === undefined || !replica.up) continue
      for (const child of childPidsOf(pid)) if (!this.processes.has(child)) this.noteProcess(child, 'org agent')
    }
  }

  private async signUp(): Promise<void> {
    const email = `chaos-owner-${this.tag}@example.test`
    await this.expect(201, 'POST', '/v1/auth/verification-mail', 'POST auth/verification-mail', { email })
    const mail = await this.smtp.waitForMail(email, { timeoutMs: 60_000 })
    const code = /verificationCode=(\d+)/.exec(mail.text)?.[1]
    await this.expect(
      200,
      'GET',
      `/v1/auth/verify?email=${encodeURIComponent(email)}&verificationCode=${code}`,
      'GET auth/verify',
    )
    const profile = { email, firstName: 'Chaos', lastName: 'Owner', password: PASSWORD, isEmailVerified: true }
    await this.expect(201, 'POST', '/v1/auth/signup', 'POST auth/signup', profile)
    const signIn = await this.expect<{ access_token: string }>(200, 'POST', '/v1/auth/signin', 'POST auth/signin', {
      email,
      password: PASSWORD,
    })
    this.token = signIn.access_token
    this.orgId = (
      await this.expect<{ id: string }>(201, 'POST', '/v1/orgs', 'POST orgs', {
        name: 'Chaos Org',
        description: 'chaos run',
      })
    ).id
  }

  private async spinUp(): Promise<void> {
    await this.expect(201, 'POST', `/v1/orgs/${this.orgId}/agents/spinup`, 'POST agents/spinup', {
      label: 'Chaos Org',
      method: 'key',
    })
    const deadline = Date.now() + 240_000
    for (;;) {
      const health = await this.expect<{ status: string }>(
        200,
        'GET',
        `/v1/orgs/${this.orgId}/agents/health`,
        'GET agents/health',
      )
      if (health.status === 'FAILED') throw new Error('The organization agent failed')
      if (health.status === 'DID_CREATED') break
      if (Date.now() > deadline) throw new Error(`Organization agent not ready: ${health.status}`)
      await sleep(1000)
    }
    const dids = await this.expect<{ did: string; isPrimaryDid: boolean }[]>(
      200,
      'GET',
      `/v1/orgs/${this.orgId}/dids`,
      'GET dids',
    )
    this.orgDid = (dids.find((did) => did.isPrimaryDid) ?? dids[0]).did
  }

  private async bulkTemplate(): Promise<string> {
    const schema = await this.expect<{ id: string }>(201, 'POST', `/v1/orgs/${this.orgId}/schemas`, 'POST schemas', {
      type: 'JSON',
      schemaPayload: {
        schemaName: 'Chaos ticket',
        schemaType: 'NO_LEDGER',
        attributes: [
          { attributeName: 'holderName', displayName: 'Name', schemaDataType: 'string', isRequired: true },
          { attributeName: 'seat', displayName: 'Seat', schemaDataType: 'integer', isRequired: true, minimum: 1 },
        ],
      },
    })
    return schema.id
  }

  // ---------------------------------------------------------------- the proxy

  /**
   * Round robin over the replicas, as a Service spreads connections: a replica refusing the connection (down) is
   * skipped for the other. A connection that breaks after the request went out (the replica died during it) is
   * sent to the other replica when the request is a GET or HEAD and no answer has begun, as ingress-nginx does by
   * default (`proxy_next_upstream error timeout`, idempotent methods only): a mailed link followed at the moment
   * of a kill opens. Anything else answers 502, which no proxy can hide.
   */
  private startProxy(): Promise<Server> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => void this.forward(req, res, Buffer.concat(chunks), 0))
    })
    server.keepAliveTimeout = 60_000
    return new Promise((resolve) => server.listen(this.proxyPort, '127.0.0.1', () => resolve(server)))
  }

  private forward(req: IncomingMessage, res: ServerResponse, body: Buffer, tried: number): void {
    const replica = this.replicas[this.next++ % this.replicas.length]
    this.proxyStats.forwarded++
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: replica.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${replica.port}` },
        agent: this.upstream,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        answer.on('error', () => res.destroy())
      },
    )
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return void res.destroy()
      const refused = error.code === 'ECONNREFUSED'
      if (!refused) this.proxyStats.cutMidRequest++
      const idempotent = req.method === 'GET' || req.method === 'HEAD'
      if ((refused || idempotent) && tried < this.replicas.length * 3) {
        if (refused) this.proxyStats.failedOver++
        else this.proxyStats.cutRetried++
        // Both down (a moment in a restart): wait a little before the next try.
        setTimeout(() => this.forward(req, res, body, tried + 1), tried >= this.replicas.length - 1 ? 500 : 0)
        return
      }
      res.writeHead(502, { 'content-type': 'application/json', 'x-chaos-proxy': refused ? 'no-replica' : 'cut' })
      res.end(JSON.stringify({ statusCode: 502, message: `proxy: ${error.code ?? error.message}` }))
    })
    upstream.end(body)
  }

  // ---------------------------------------------------------------- calls

  /** One call through the proxy, recorded under `route` (the route's template). */
  public api(
    method: string,
    url: string,
    route: string,
    body?: unknown,
    options: { raw?: { contentType: string; data: Buffer }; timeoutMs?: number; idempotencyKey?: string } = {},
  ): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
    const payload = options.raw?.data ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body)))
    const startedAt = performance.now()
    const record = (status: number, headers: Record<string, string | string[] | undefined>, error?: string) => {
      const retryAfter = headers['retry-after']
      this.calls.push({
        route,
        status,
        startedAt,
        ms: performance.now() - startedAt,
        ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
        ...(error ? { error } : {}),
        ...(headers['x-chaos-proxy'] ? { error: `proxy ${String(headers['x-chaos-proxy'])}` } : {}),
      })
    }
    return new Promise((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: this.proxyPort,
          method,
          path: url,
          agent: this.http,
          timeout: options.timeoutMs ?? 60_000,
          headers: {
            ...(payload === undefined
              ? {}
              : { 'content-type': options.raw?.contentType ?? 'application/json', 'content-length': payload.length }),
            ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
            ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => {
            record(res.statusCode ?? 0, res.headers)
            if ((res.statusCode ?? 0) >= 500) {
              const text = Buffer.concat(chunks).toString('utf8')
              this.calls[this.calls.length - 1].message = (/"message":"([^"]*)"/.exec(text)?.[1] ?? text).slice(0, 160)
            }
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers })
          })
          res.on('error', (error) => {
            record(0, {}, error.message)
            resolve({ status: 0, body: error.message, headers: {} })
          })
        },
      )
      req.on('timeout', () => req.destroy(new Error('timed out')))
      req.on('error', (error) => {
        record(0, {}, error.message)
        resolve({ status: 0, body: error.message, headers: {} })
      })
      req.end(payload)
    })
  }

  /**
   * A call that must answer `status`; transient answers (5xx, 0, 429) are retried until `deadline`. A JSON POST is
   * retried with one Idempotency-Key, as docs/api-usage.md tells clients to: a request cut by a killed replica after
   * it acted must not act twice (a second offer and mail), and its key answers 409 "in progress" until the pending
   * timeout of the chaos env has passed.
   */
  public async expect<T>(
    status: number,
    method: string,
    url: string,
    route: string,
    body?: unknown,
    options: { raw?: { contentType: string; data: Buffer }; deadline?: number } = {},
  ): Promise<T> {
    const deadline = options.deadline ?? Date.now() + 180_000
    const idempotencyKey = method === 'POST' && !options.raw ? randomUUID() : undefined
    for (;;) {
      const answer = await this.api(method, url, route, body, { ...options, idempotencyKey })
      if (answer.status === status) return (JSON.parse(answer.body) as { data: T }).data
      const inProgress = answer.status === 409 && answer.body.includes('Idempotency-Key is still in progress')
      const transient = answer.status === 0 || answer.status >= 500 || answer.status === 429 || inProgress
      if (!transient || Date.now() > deadline)
        throw new Error(`${route}: expected ${status}, got ${answer.status}: ${answer.body.slice(0, 300)}`)
      await sleep(1000)
    }
  }

  /**
   * A holder admin call, retried while the holder is down (it is SIGKILLed and restarted). `onRetry` hears each
   * failure that is tried again (a 5xx, no answer), before the wait.
   */
  public async holderCall<T>(
    method: string,
    route: string,
    body: unknown,
    deadline: number,
    onRetry?: (message: string) => void,
  ): Promise<T> {
    for (;;) {
      try {
        return await this.holder.call<T>(method, route, body)
      } catch (error) {
        const message = (error as Error).message
        // A refusal (4xx) is final; an unreachable or starting holder (503), or a peer it could not reach (502), is
        // tried again, as a wallet's user would.
        if (/^holder [A-Z]+ .*: 4\d\d /.test(message) || Date.now() > deadline) throw error
        onRetry?.(message)
        await sleep(1000)
      }
    }
  }

  /**
   * The holder takes an invitation URL once. A mail that comes again with a link already followed is not followed
   * again (Credo refuses an invitation it holds). A try that failed with a 5xx may have kept the invitation before
   * failing, so a later try refused as "already received" has done its work; the failure is logged for the record.
   */
  private async holderReceives(invitationUrl: string, deadline: number, followed?: Set<string>): Promise<void> {
    if (followed?.has(invitationUrl)) {
      this.log(`a mail came again with a link already followed (${invitationUrl})`)
      return
    }
    followed?.add(invitationUrl)
    const body = { invitationUrl, autoAcceptConnection: true, autoAcceptInvitation: true }
    let failedBefore: string | undefined
    try {
      const received = await this.holderCall<{ outOfBandRecord?: { id: string; state: string } }>(
        'POST',
        '/oob/receive-invitation-url',
        body,
        deadline,
        (message) => {
          failedBefore = message
        },
      )
      if (received.outOfBandRecord) this.receivedFrom.set(invitationUrl, received.outOfBandRecord)
    } catch (error) {
      if (failedBefore === undefined || !/: 409 .*has already been received/.test((error as Error).message)) throw error
      this.log(`holder kept an invitation it answered ${failedBefore.slice(0, 160)} for`)
    }
  }

  private async holderEvent(kind: string, state: string, threadId: string, deadline: number) {
    return this.sink.waitFor(
      (event) =>
        event.agentLabel === 'holder' &&
        event.kind === kind &&
        event.record.state === state &&
        event.record.threadId === threadId,
      Math.max(1, deadline - Date.now()),
    )
  }

  /**
   * The holder's offer on `threadId`: its event, or, as a wallet lists its pending offers after a restart, the
   * holder's own records (an event is at least once, but a wallet does not rely on having watched it).
   */
  private async holderOffer(threadId: string, deadline: number): Promise<{ record: { id: string } }> {
    for (;;) {
      const event = await this.holderEvent(
        'credential',
        'offer-received',
        threadId,
        Math.min(deadline, Date.now() + 5000),
      )
        .then((found) => found as { record: { id: string } })
        .catch(() => undefined)
      if (event) return event
      const records = await this.holderCall<{ id: string; state: string }[]>(
        'GET',
        `/credentials?threadId=${encodeURIComponent(threadId)}`,
        undefined,
        deadline,
      ).catch(() => [])
      const pending = records.find((record) => record.state === 'offer-received')
      if (pending) return { record: { id: pending.id } }
      if (Date.now() > deadline) throw new Error(`no offer on thread ${threadId} reached the holder in time`)
    }
  }

  /** Polls an organization record through the API until it is in one of `states` (or a terminal other one). */
  private async orgRecord(url: string, route: string, states: string[], terminal: string[], deadline: number) {
    for (;;) {
      const answer = await this.api('GET', url, route)
      if (answer.status === 200) {
        const record = (JSON.parse(answer.body) as { data: { state: string; errorMessage?: string | null } }).data
        if (states.includes(record.state)) return record
        if (terminal.includes(record.state))
          throw new Error(`ended ${record.state}${record.errorMessage ? `: ${record.errorMessage}` : ''}`)
      }
      if (Date.now() > deadline) throw new Error(`${route} not ${states.join('/')} in time`)
      await sleep(1000)
    }
  }

  // ---------------------------------------------------------------- exchanges

  /** Runs one exchange of `kind` to its end (or failure within `budgetMs`), recorded in `exchanges`. */
  public async run(kind: ExchangeKind, budgetMs = 240_000): Promise<Exchange> {
    const exchange: Exchange = { id: this.nextExchange++, kind, startedAt: Date.now(), records: [], mailsExpected: [] }
    this.exchanges.push(exchange)
    const deadline = Date.now() + budgetMs
    try {
      switch (kind) {
        case 'connection':
          await this.connect(exchange, deadline)
          break
        case 'jsonld':
          await this.issue(exchange, await this.connect(exchange, deadline), 'JSONLD', deadline)
          break
        case 'indy':
          if (!this.indyDefinitionId) throw new Error('INDY is off')
          await this.issue(exchange, await this.connect(exchange, deadline), 'INDY', deadline)
          break
        case 'proof': {
          const connectionId = await this.connect(exchange, deadline)
          const degree = await this.issue(exchange, connectionId, 'JSONLD', deadline)
          await this.prove(exchange, connectionId, degree, deadline)
          break
        }
        case 'oob-email':
          await this.emailOffer(exchange, deadline)
          break
        case 'bulk':
          await this.bulk(exchange, deadline)
          break
      }
      exchange.outcome = 'done'
    } catch (error) {
      exchange.outcome = 'failed'
      exchange.reason = (error as Error).message.slice(0, 600)
    }
    exchange.endedAt = Date.now()
    return exchange
  }

  private async connect(exchange: Exchange, deadline: number): Promise<string> {
    const invitation = await this.expect<{ invitationUrl: string; outOfBandRecord: { id: string } }>(
      201,
      'POST',
      `/v1/orgs/${this.orgId}/connections`,
      'POST connections',
      {},
      { deadline },
    )
    await this.holderReceives(invitation.invitationUrl, deadline)
    const oobId = invitation.outOfBandRecord.id
    // The organization's connection: from the webhook when it arrives, else from the list.
    for (;;) {
      const fromHook = this.webhook
        .accepted(HOOK_PATH)
        .map(
          (request) => request.body?.data?.record as { id?: string; outOfBandId?: string; state?: string } | undefined,
        )
        .find((record) => record?.outOfBandId === oobId && record.state === 'completed')
      let id = fromHook?.id
      if (!id) {
        const list = await this.api('GET', `/v1/orgs/${this.orgId}/connections?pageSize=50`, 'GET connections')
        if (list.status === 200) {
          const page = (
            JSON.parse(list.body) as {
              data: { connections?: { id?: string; outOfBandId?: string; state: string }[] }
            }
          ).data
          const found = (page.connections ?? []).find((record) => record.outOfBandId === oobId)
          if (found) {
            const foundId = found.id ?? ''
            if (!exchange.records.some((r) => r.id === foundId))
              exchange.records.push({ type: 'connection', id: foundId })
            if (found.state === 'completed') id = foundId
            else if (found.state === 'abandoned') throw new Error('connection abandoned')
          }
        }
      }
      if (id) {
        if (!exchange.records.some((r) => r.id === id)) exchange.records.push({ type: 'connection', id })
        return id
      }
      if (Date.now() > deadline) throw new Error('connection not completed in time')
      await sleep(1000)
    }
  }

  /** Offers a credential on the connection; the holder accepts; resolves with the unique value once done. */
  private async issue(exchange: Exchange, connectionId: string, type: 'JSONLD' | 'INDY', deadline: number) {
    const unique = `Chaos ${this.tag} ${exchange.id}`
    const body =
      type === 'JSONLD'
        ? {
            credentialData: [
              {
                connectionId,
                credential: aDegreeCredential(this.orgDid, this.holderDid, unique),
                options: signingOptions(),
              },
            ],
          }
        : {
            credentialDefinitionId: this.indyDefinitionId,
            protocolVersion: 'v2',
            credentialData: [
              {
                connectionId,
                attributes: [
                  { name: 'name', value: unique },
                  { name: 'age', value: '30' },
                ],
              },
            ],
          }
    const query = type === 'JSONLD' ? 'credentialType=JSONLD&isValidateSchema=false' : 'credentialType=INDY'
    const [offer] = await this.expect<{ id: string; threadId: string }[]>(
      201,
      'POST',
      `/v1/orgs/${this.orgId}/credentials/offer?${query}`,
      `POST credentials/offer (${type})`,
      body,
      { deadline },
    )
    exchange.records.push({ type: 'credential', id: offer.id })
    await this.holderAccepts(offer.threadId, deadline, type)
    await this.orgRecord(
      `/v1/orgs/${this.orgId}/credentials/${offer.id}`,
      'GET credentials/:id',
      ['done'],
      [...CREDENTIAL_TERMINAL],
      deadline,
    )
    return unique
  }

  private async holderAccepts(threadId: string, deadline: number, type: 'JSONLD' | 'INDY' = 'JSONLD'): Promise<void> {
    await this.holderAcceptsOffer(await this.holderOffer(threadId, deadline), deadline, type)
  }

  /** A JSON-LD offer is accepted with the holder's DID bound; an AnonCreds offer carries no jsonld format to name. */
  private async holderAcceptsOffer(
    offer: { record: { id: string } },
    deadline: number,
    type: 'JSONLD' | 'INDY' = 'JSONLD',
  ): Promise<void> {
    const credentialFormats = type === 'JSONLD' ? { jsonld: { credentialSubjectId: this.holderDid } } : undefined
    await this.holderCall(
      'POST',
      '/credentials/accept-offer',
      { credentialRecordId: offer.record.id, credentialFormats },
      deadline,
    )
  }

  private async prove(exchange: Exchange, connectionId: string, degree: string, deadline: number): Promise<void> {
    const request = await this.expect<{ id: string; threadId: string }>(
      201,
      'POST',
      `/v1/orgs/${this.orgId}/proofs?requestType=PRESENTATIONEXCHANGE`,
      'POST proofs',
      {
        connectionId,
        presentationDefinition: aDegreePresentationDefinition([
          { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: degree } },
        ]),
      },
      { deadline },
    )
    exchange.records.push({ type: 'proof', id: request.id })
    const received = await this.holderEvent('proof', 'request-received', request.threadId, deadline)
    await this.holderCall('POST', '/proofs/accept-request', { proofRecordId: received.record.id }, deadline)
    await this.orgRecord(
      `/v1/orgs/${this.orgId}/proofs/${request.id}`,
      'GET proofs/:id',
      ['presentation-received', 'done'],
      [...TERMINAL_PROOF_STATES],
      deadline,
    )
    const verified = await this.expect<{ isVerified: boolean }>(
      201,
      'POST',
      `/v1/orgs/${this.orgId}/proofs/${request.id}/verify`,
      'POST proofs/:id/verify',
      undefined,
      { deadline },
    )
    if (!verified.isVerified) throw new Error('presentation did not verify')
  }

  /**
   * The mailed link of an offer: the holder follows it, accepts, and the organization's record ends done. A request
   * that acted twice (its first answer lost with a killed replica, its key's pending time over) mailed twice: the
   * holder opens every mail to the address, as a person would, until the tracked offer has reached it; the table
   * counts the second mail.
   */
  private async followMail(exchange: Exchange, email: string, recordId: string, threadId: string, deadline: number) {
    await this.followMailOnce(exchange, email, recordId, threadId, deadline).catch(async (error: Error) => {
      const where = await this.whereThreadIs(email, recordId, threadId).catch(() => 'states not read')
      throw new Error(`${error.message} (${where})`)
    })
  }

  /**
   * Where a failed follow left the exchange: the organization's record and the holder's on its thread, and what the
   * holder made of each link in the recipient's mails (its out-of-band record as the receive answered it, and the
   * connections made for it now), so a stuck exchange says which side stopped.
   */
  private async whereThreadIs(email: string, recordId: string, threadId: string): Promise<string> {
    const where = await this.whereThreadIsBare(email, recordId, threadId)
    const links = this.smtp.messages
      .filter((mail) => mail.to.includes(email))
      .map((mail) => MAILED_LINK.exec(mail.text)?.[1])
      .filter((link): link is string => link !== undefined)
    const received = await Promise.all(
      links.map(async (link) => {
        const oob = this.receivedFrom.get(link)
        if (!oob) return 'a link the holder did not take'
        const connections = await this.holder
          .call<{ state: string }[]>('GET', `/connections?outOfBandId=${encodeURIComponent(oob.id)}`)
          .then((records) => records.map((record) => record.state).join('/') || 'none')
          .catch((error: Error) => error.message.slice(0, 80))
        return `holder out-of-band ${oob.state} when received, connections ${connections}`
      }),
    )
    return received.length > 0 ? `${where}; ${received.join('; ')}` : where
  }

  /** The organization's record and the holder's on the thread, and how many mails came. */
  private async whereThreadIsBare(email: string, recordId: string, threadId: string): Promise<string> {
    const organization = await this.api('GET', `/v1/orgs/${this.orgId}/credentials/${recordId}`, 'GET credentials/:id')
    const orgState =
      organization.status === 200
        ? (JSON.parse(organization.body) as { data: { state: string } }).data.state
        : `answer ${organization.status}`
    const holder = await this.holder
      .call<{ state: string }[]>('GET', `/credentials?threadId=${encodeURIComponent(threadId)}`)
      .then((records) => records.map((record) => record.state).join('/') || 'no record')
      .catch((error: Error) => error.message.slice(0, 80))
    const mails = this.smtp.messages.filter((mail) => mail.to.includes(email)).length
    return `organization ${orgState}, holder ${holder}, ${mails} mail(s), thread ${threadId}`
  }

  private async followMailOnce(
    exchange: Exchange,
    email: string,
    recordId: string,
    threadId: string,
    deadline: number,
  ) {
    let followed = 0
    const links = new Set<string>()
    let offer: { record: { id: string } } | undefined
    while (!offer) {
      const mail = await this.smtp
        .waitForMail(email, {
          count: followed + 1,
          timeoutMs: followed === 0 ? Math.max(1, deadline - Date.now()) : MAIL_FOLLOW_ROUND_MS,
        })
        .catch((error: Error) => {
          if (followed === 0 || Date.now() > deadline) throw error
          return undefined
        })
      if (mail) {
        followed++
        const link = MAILED_LINK.exec(mail.text)?.[1]
        if (!link) throw new Error(`no link in the mail to ${email}`)
        await this.holderReceives(link, deadline, links)
      }
      const round = Math.min(deadline, Date.now() + MAIL_FOLLOW_ROUND_MS)
      offer = await this.holderOffer(threadId, round).catch((error: Error) => {
        if (Date.now() > deadline) throw error
        return undefined
      })
    }
    await this.holderAcceptsOffer(offer, deadline)
    await this.orgRecord(
      `/v1/orgs/${this.orgId}/credentials/${recordId}`,
      'GET credentials/:id',
      ['done'],
      [...CREDENTIAL_TERMINAL],
      deadline,
    )
  }

  private async emailOffer(exchange: Exchange, deadline: number): Promise<void> {
    const email = `chaos-${this.tag}-${exchange.id}@example.test`
    const { credentialSubject, ...credential } = aDegreeCredential(this.orgDid, this.holderDid, `Mailed ${exchange.id}`)
    const [offer] = await this.expect<{ record: { id: string; threadId: string } }[]>(
      201,
      'POST',
      `/v1/orgs/${this.orgId}/credentials/oob/email?credentialType=JSONLD`,
      'POST credentials/oob/email',
      {
        comment: 'Chaos',
        credentialOffer: [
          {
            emailId: email,
            credential: { ...credential, credentialSubject: { degree: credentialSubject.degree } },
            options: signingOptions(),
          },
        ],
      },
      { deadline },
    )
    // Expected once the offer exists: an offer refused (e.g. 502 while the agent is down) announces no mail.
    exchange.mailsExpected.push(email)
    exchange.records.push({ type: 'credential', id: offer.record.id })
    await this.followMail(exchange, email, offer.record.id, offer.record.threadId, deadline)
  }

  /** A bulk run of three rows: upload, execute, completed; the holder follows each mailed offer. */
  private async bulk(exchange: Exchange, deadline: number): Promise<void> {
    const address = (row: number) => `bulk-${this.tag}-${exchange.id}-${row}@example.test`
    const rows = [1, 2, 3]
    const csv = ['email,holderName,seat', ...rows.map((row) => `${address(row)},Guest ${row},${row}`)].join('\r\n')
    const boundary = `chaos${randomBytes(8).toString('hex')}`
    const data = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rows.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    )
    const summary = await this.expect<{ requestId: string; valid: number }>(
      201,
      'POST',
      `/v1/orgs/${this.orgId}/bulk/upload?schemaType=W3C&templateId=${this.templateId}`,
      'POST bulk/upload',
      undefined,
      { raw: { contentType: `multipart/form-data; boundary=${boundary}`, data }, deadline },
    )
    exchange.mailsExpected.push(...rows.map(address))
    await this.expect(
      201,
      'POST',
      `/v1/orgs/${this.orgId}/${summary.requestId}/bulk`,
      'POST :requestId/bulk',
      {
        platformName: 'Chaos',
      },
      { deadline },
    )
    for (;;) {
      const progress = await this.api('GET', `/v1/orgs/${this.orgId}/bulk/${summary.requestId}`, 'GET bulk/:requestId')
      if (progress.status === 200) {
        const status = (JSON.parse(progress.body) as { data: { status: string; counts: Record<string, number> } }).data
        if (status.status === 'completed') {
          if (status.counts.sent !== rows.length) throw new Error(`bulk ended ${JSON.stringify(status.counts)}`)
          break
        }
      }
      if (Date.now() > deadline) throw new Error('bulk run not completed in time')
      await sleep(1000)
    }
    // Each row's recipient opens their own mail when it comes, not after the previous row's holder has finished:
    // followed one after another, three exchanges on a loaded machine took most of the budget.
    await Promise.all(
      rows.map(async (row) => {
        const list = await this.expect<{ data: { id: string; threadId: string }[] }>(
          200,
          'GET',
          `/v1/orgs/${this.orgId}/credentials?pageSize=10&searchByText=${encodeURIComponent(address(row))}`,
          'GET credentials',
          undefined,
          { deadline },
        )
        const record = list.data[0]
        if (!record) throw new Error(`no credential record for bulk row ${row}`)
        exchange.records.push({ type: 'credential', id: record.id })
        await this.followMail(exchange, address(row), record.id, record.threadId, deadline)
      }),
    )
  }

  // ---------------------------------------------------------------- accounting

  public async sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
    const url = this.database.target.kind === 'postgres' ? this.database.target.url : ''
    const client = new Client({ connectionString: url })
    await client.connect()
    try {
      return (await client.query<T>(text, values)).rows
    } finally {
      await client.end()
    }
  }

  /** API records and the agent's own record of the same exchange, side by side. */
  public async recordStates(): Promise<{ type: string; id: string; api: string; agent: string | null }[]> {
    const schema = (
      await this.sql<{ nspname: string }>(`select nspname from pg_namespace where nspname like 'agent\\_%' limit 1`)
    )[0]?.nspname
    if (!schema) return []
    const query = (type: string, table: string, idColumn: string) =>
      this.sql<{ type: string; id: string; api: string; agent: string | null }>(
        `select '${type}' as type, t.${idColumn} as id, t.state as api, r.value->>'state' as agent
           from ${table} t left join "${schema}".records r on r.id = t.${idColumn}::text
             and r.type in ('DidCommConnectionRecord', 'DidCommCredentialExchangeRecord', 'DidCommProofExchangeRecord',
                            'ConnectionRecord', 'CredentialRecord', 'ProofRecord', 'CredentialExchangeRecord', 'ProofExchangeRecord')
          where t.organization_id = $1`,
        [this.orgId],
      )
    return [
      ...(await query('connection', 'connections', 'connection_id')),
      ...(await query('credential', 'issuance_records', 'credential_record_id')),
      ...(await query('proof', 'proof_records', 'id')),
    ]
  }

  /** Records that are not in an end state; connections that never went past the invitation are not exchanges. */
  public static isOpen(type: string, state: string): boolean {
    if (type === 'connection') return !CONNECTION_TERMINAL.includes(state)
    if (type === 'credential') return !(CREDENTIAL_TERMINAL as readonly string[]).includes(state)
    return !TERMINAL_PROOF_STATES.includes(state) && state !== 'presentation-received'
  }

  public async deliveries(): Promise<{ event_id: string; status: string; attempts: number }[]> {
    return this.sql(`select event_id, status, attempts from webhook_deliveries where organization_id = $1`, [
      this.orgId,
    ])
  }

  public async outbox(): Promise<{ idempotency_key: string; status: string }[]> {
    return this.sql(`select idempotency_key, status from mail_outbox`)
  }

  /** Rows of each table now (a table missing counts -1, so a renamed table shows in the figures). */
  public async rowCounts(tables: readonly string[]): Promise<Record<string, number>> {
    const counts: Record<string, number> = {}
    for (const table of tables) {
      const [row] = await this.sql<{ count: string }>(`select count(*)::text as count from ${table}`).catch(() => [])
      counts[table] = row ? Number(row.count) : -1
    }
    return counts
  }

  /** Interrupted (Ctrl-C, a CI time-out): the replicas, their agents and the holder stop with the run, not after it. */
  public stopOnSignals(log: (line: string) => void): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        log(`${signal}: stopping the run's processes`)
        void this.stop()
          .then(() => this.cleanUp())
          .catch(() => undefined)
          .finally(() => process.exit(130))
      })
    }
  }

  public async databaseBytes(): Promise<number> {
    const name = new URL(this.database.target.kind === 'postgres' ? this.database.target.url : 'x://x/').pathname.slice(
      1,
    )
    const [row] = await this.sql<{ size: string }>(`select pg_database_size($1)::text as size`, [name])
    return Number(row?.size ?? 0)
  }

  // ---------------------------------------------------------------- tear-down

  private stopped = false

  public async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    clearInterval(this.pidWatch)
    this.http.destroy()
    for (const replica of this.replicas) {
      if (replica.child && replica.child.exitCode === null && replica.child.signalCode === null) {
        replica.child.kill('SIGTERM')
        const killer = setTimeout(() => replica.child?.kill('SIGKILL'), 30_000)
        await replica.exited
        clearTimeout(killer)
      }
    }
    if (this.holder && this.holder.process.exitCode === null && this.holder.process.signalCode === null) {
      const exited = new Promise((resolve) => this.holder.process.once('exit', resolve))
      this.holder.process.kill('SIGTERM')
      await exited
    }
    // Each start of the holder made a directory of its own (its records are in the run's database).
    for (const dir of this.holderDirs) rmSync(dir, { recursive: true, force: true })
    this.upstream.destroy()
    this.proxy?.close()
    this.sinkServer?.close()
    await this.webhook?.stop()
    await this.smtp?.stop()
    // Agents and spares stop when their replica's pipe closes; a spare still loading its modules notices only once
    // they are loaded (docs/decisions.md, "A spare agent process ahead of need"): time for both before counting.
    for (let waited = 0; waited < 20_000 && this.orphans().length > 0; waited += 250) await sleep(250)
  }

  /** Processes the run started that are still alive. */
  public orphans(): { pid: number; name: string }[] {
    return [...this.processes]
      .filter(([pid, { startTime }]) => processStartTime(pid) === startTime)
      .map(([pid, { name }]) => ({ pid, name }))
  }

  public async cleanUp(): Promise<void> {
    await deleteApiQueues(this.env.QUEUE_NAME_PREFIX, this.options.amqpUrl).catch(() => undefined)
    // CHAOS_KEEP_DATABASE=1 keeps it, with the agents' schemas, to read what a failed run left.
    if (process.env.CHAOS_KEEP_DATABASE === '1') console.log(`database kept: ${this.env.DATABASE_URL}`)
    else await this.database?.drop().catch(() => undefined)
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true })
  }
}

/** The start time of a process (field 22 of /proc/<pid>/stat), to tell a pid from a reused one. */
export function processStartTime(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19]
  } catch {
    return undefined
  }
}

function childPidsOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** The pid listening on a loopback TCP port (from /proc/net/tcp and the processes' sockets). */
export function pidListeningOn(port: number): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  let inode: string | undefined
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (fields[1]?.endsWith(`:${hex}`) && fields[3] === '0A') inode = fields[9]
  }
  if (!inode) return undefined
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        if (readlinkSync(`/proc/${entry}/fd/${fd}`) === `socket:[${inode}]`) return Number(entry)
      }
    } catch {
      // a process that ended or is not ours to read
    }
  }
  return undefined
}

/** Resident set size of a process in MB (VmRSS), or NaN when it is gone. */
export function rssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : Number.NaN
  } catch {
    return Number.NaN
  }
}

export { percentile }
