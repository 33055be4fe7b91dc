/**
 * Cloud-wallet scale benchmark (issue 11, item 5): how a base agent's memory and the wallet routes' latency grow with
 * the number of wallets.
 *
 *   npm run bench:cloud-wallet        (builds dist/ first, then runs this file)
 *   BENCH_CW_WALLETS=1000 BENCH_CW_CONCURRENCY=10 BENCH_CW_ACTIVE=100 BENCH_CW_PROBES=50 npm run bench:cloud-wallet
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test AMQP_URL=amqp://guest:guest@127.0.0.1:5672 ...
 *     (the API and the base agent on a fresh database of that server, the API's queue on RabbitMQ; else PGlite)
 *
 * Set-up: a base agent process from dist/ (multi-tenant, as the cloud-wallet e2e starts it, with the Node and malloc
 * settings agents ship with), the built API as a process, configured with that base wallet by a platform admin, and
 * an issuer organization whose agent the API runs. Users are inserted into the API's database before it starts and
 * their access tokens signed with the API's own key (TokenService on its DATA_DIR/jwt key pair): the route under test
 * is create-wallet, not sign-up (whose scrypt would dominate the run).
 *
 * 1. Wallets: BENCH_CW_WALLETS wallets through POST /v1/create-wallet, BENCH_CW_CONCURRENCY at a time, one user
 *    each: latency p50/p95/p99 and the base agent's VmRSS when idle (settled, after its idle collection) with one
 *    wallet and with all of them: MB per idle wallet.
 * 2. Active holders: BENCH_CW_ACTIVE wallets at once each receive an invitation of the issuer organization (through
 *    the API), connect, receive a JSON-LD credential offer and accept it: p50/p95 per step and in total.
 * 3. Probe: GET /v1/did of one wallet, BENCH_CW_PROBES times in sequence, with one wallet on the agent and again with
 *    all of them (after step 1): "no request of one tenant slowed by an idle one" is the ratio of the two.
 *
 * BENCH_API_PROF=<dir> runs the API with --cpu-prof into that directory (written when the bench stops it).
 * BENCH_CW_ORG_WAIT=poll (default) reads the organization's connection list every POLL_MS until the holder's
 * connection is `completed` there (the API's record, as earlier figures measured it); `webhook` learns it from the
 * organization's webhook instead (registered for the issuer organization, as a platform client would): the time a
 * webhook subscriber sees, which adds the webhook relay's queue to the API's record.
 * WEBHOOK_CONCURRENCY, WEBHOOK_OWNER_CONCURRENCY and CLOUD_WALLET_CONCURRENCY, when set, are passed to the API.
 *
 * `org-record stored by the API` is the figure of issue 28 item 5: the organization's connection row's last write
 * (read from the database after the active phase; on PGlite once the API has stopped) after the wallet's record
 * `completed`. The other org-record rows are what the bench learned and when, so they carry its own polls: `org agent
 * → API (read)` starts counting before the bench even asks (it asks once the holder's own poll saw `completed`).
 *
 * The last line is `cloud-wallet: MB/idle wallet X, create p95 Y ms, probe ratio Z (CPU C)`: Z is the probe's p50
 * with all wallets over its p50 with one, C the same for its CPU per request (base agent + API).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { Agent as HttpAgent, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'

import { Logger } from '@idplane/common'
import { AGENT_COMMAND_LINE_OPTIONS, AGENT_MALLOC_ENV } from '../common/agent-node-options'
import { TokenService } from '../api/src/infra/auth/token.service'
import { Database, type DatabaseTarget } from '../api/src/infra/db/database'
import { persistedEntities } from '../api/src/infra/db/persisted-entities'
import { API_MODULES } from '../api/src/modules'
import { User } from '../api/src/modules/users/user.entity'
import { aDegreeCredential, signingOptions } from '../test/fixtures/degree-credential'
import { freshDatabase, type FreshDatabase } from '../test/helpers/database'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { type Agent, API_KEY, startAgent, stopAgent } from './agent-harness'
import { type ApiProcess, call, cpuMsOf, expectJson, percentile, positiveIntEnv, startApiProcess } from './api-harness'
import { isWebhookEvent, WebhookReceiver } from './webhook-receiver'

const WALLETS = positiveIntEnv('BENCH_CW_WALLETS', 1000)
const CONCURRENCY = positiveIntEnv('BENCH_CW_CONCURRENCY', 10)
const ACTIVE = Math.min(positiveIntEnv('BENCH_CW_ACTIVE', 100), WALLETS)
const PROBES = positiveIntEnv('BENCH_CW_PROBES', 50)
const SERVER_URL = process.env.DATABASE_URL
const ORG_WAIT: 'webhook' | 'poll' = process.env.BENCH_CW_ORG_WAIT === 'webhook' ? 'webhook' : 'poll'
const WEBHOOK_SECRET = 'bench-webhook-secret-0001'

const ADMIN_EMAIL = 'bench-platform-admin@example.test'
const ISSUER_EMAIL = 'bench-issuer@example.test'
/**
 * How long a waiting holder sleeps between two reads of a state; each step's latency carries up to this much of
 * polling. (100 holders reading every 100 ms put more load on the base agent than their exchanges did.)
 */
const POLL_MS = 500

/** "Idle": resident size moved less than this over the window (the agent's idle collection has run by then). */
const IDLE_WINDOW_MS = 10_000
const IDLE_TOLERANCE_MB = 2
const IDLE_MAX_WAIT_MS = 90_000

const ACTIVE_STEPS = ['invitation', 'connect', 'org-record', 'offer', 'accept'] as const
type ActiveStep = (typeof ACTIVE_STEPS)[number]

/**
 * The steps, and org-record split at the organization agent's record: `orgAgent` from the wallet's record
 * `completed` to the organization agent's (DIDComm delivery and the agent's handling), `platform` from there until
 * the bench learned of the API's record (the agent's event to the API, its transaction, and the bench's poll or the
 * webhook's delivery). Their sum is the time from the wallet's record to the organization's as a client sees it;
 * the `org-record` step is shorter by however long the bench took to notice the wallet's side (its own poll).
 */
type HolderTimes = Record<ActiveStep, number> & {
  split: { orgAgent: number; platform: number }
  /** The wallet's record `completed` (its agent's time) and the organization's connection id, for `storedAfter`. */
  walletDoneAt: number
  issuerConnectionId: string
}

interface BenchUser {
  id: string
  email: string
  token: string
}

interface Context {
  api: ApiProcess
  http: HttpAgent
  issuerToken: string
  orgId: string
  orgDid: string
  webhook: WebhookReceiver
}

function residentMb(pid: number | undefined): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!match) throw new Error(`No VmRSS for process ${pid}`)
  return Number(match[1]) / 1024
}

/** The agent's resident size once it has settled (see IDLE_*), and how long that took. */
async function idleResidentMb(pid: number | undefined): Promise<{ mb: number; waitedMs: number }> {
  const samples: number[] = []
  const started = Date.now()
  for (;;) {
    samples.push(residentMb(pid))
    const window = samples.slice(-(IDLE_WINDOW_MS / 1000 + 1))
    const settled =
      window.length > IDLE_WINDOW_MS / 1000 && Math.max(...window) - Math.min(...window) < IDLE_TOLERANCE_MB
    if (settled || Date.now() - started > IDLE_MAX_WAIT_MS)
      return { mb: samples.at(-1) ?? 0, waitedMs: Date.now() - started }
    await sleep(1000)
  }
}

/** The machine's busy and total CPU time so far (/proc/stat, all cores, in ticks). */
function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number)
  const total = fields.reduce((sum, value) => sum + value, 0)
  // idle and iowait are the 4th and 5th fields.
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total }
}

/** CPU milliseconds so far of the base agent, the API, and the API's own child processes (the issuer's agent). */
function cpuOf(base: Agent, api: ApiProcess): { base: number; api: number; children: number } {
  const apiPid = api.child.pid ?? 0
  let children = 0
  try {
    for (const pid of readFileSync(`/proc/${apiPid}/task/${apiPid}/children`, 'utf8').trim().split(/\s+/)) {
      if (pid) children += cpuMsOf(Number(pid))
    }
  } catch {
    // no children file (kernel without it): the issuer's share is left at 0
  }
  return { base: cpuMsOf(base.process.pid ?? 0), api: cpuMsOf(apiPid), children }
}

/** CPU milliseconds per operation of the base agent and the API between two cpuOf readings. */
function cpuSince(
  from: ReturnType<typeof cpuOf>,
  to: ReturnType<typeof cpuOf>,
  operations: number,
): { base: number; api: number } {
  return { base: (to.base - from.base) / operations, api: (to.api - from.api) / operations }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Users straight into the API's database (migrated here first), before the API opens it, and tokens signed with the
 * key pair the API will load from `<dataDir>/jwt`.
 */
/**
 * When the API wrote each organization connection last (its row's `updated_at`, read from the database after the
 * active phase): the time the platform's record reached `completed`, free of any client's polling or webhook delay.
 */
async function storedAt(target: DatabaseTarget, connectionIds: string[]): Promise<Map<string, number>> {
  const database = await Database.open(target, new Logger({}, 'warn'), persistedEntities(API_MODULES))
  try {
    const rows = await database
      .fork()
      .getConnection()
      .execute<{ connection_id: string; state: string; updated_at: Date }[]>(
        `select connection_id, state, updated_at from connections where connection_id in (${connectionIds.map(() => '?').join(', ')})`,
        connectionIds,
      )
    return new Map(
      rows
        .filter((row) => row.state === 'completed')
        .map((row) => [row.connection_id, new Date(row.updated_at).getTime()]),
    )
  } finally {
    await database.close()
  }
}

async function prepareUsers(target: DatabaseTarget, dataDir: string, count: number): Promise<BenchUser[]> {
  const database = await Database.open(target, new Logger({}, 'warn'), persistedEntities(API_MODULES))
  const emails = [
    ADMIN_EMAIL,
    ISSUER_EMAIL,
    ...Array.from({ length: count }, (_, i) => `holder-${pad(i)}@example.test`),
  ]
  try {
    const em = database.fork()
    const users = emails.map((email) =>
      em.create(User, {
        email,
        firstName: 'Bench',
        lastName: 'User',
        passwordHash: 'scrypt$unused',
        isEmailVerified: true,
      }),
    )
    await em.flush()
    const tokens = new TokenService({
      keyDir: path.join(dataDir, 'jwt'),
      issuer: 'idplane',
      audience: 'idplane-api',
      // Long enough for the whole run.
      accessTokenTtlSeconds: 6 * 3600,
      refreshTokenTtlSeconds: 6 * 3600,
    })
    return users.map((user) => ({
      id: user.id,
      email: user.email,
      token: tokens.signForUser(user, randomUUID()).accessToken,
    }))
  } finally {
    await database.close()
  }
}

function pad(index: number): string {
  return String(index).padStart(5, '0')
}

/** Runs `work` on every item, `concurrency` at a time. */
async function pool<T>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++
        await work(items[index], index)
      }
    }),
  )
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 300_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await sleep(POLL_MS)
  }
}

function summary(values: number[]): { p50: number; p95: number; p99: number; mean: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length)
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), mean }
}

async function createWallet(context: Context, user: BenchUser, label: string): Promise<number> {
  const started = performance.now()
  await expectJson(
    call(context.http, context.api.port, 'POST', '/v1/create-wallet', {
      body: { label },
      token: user.token,
      timeoutMs: 120_000,
    }),
    201,
    `create-wallet of ${user.email}`,
  )
  return performance.now() - started
}

/** `PROBES` sequential GET /v1/did of one wallet: milliseconds of each. */
async function probe(context: Context, user: BenchUser): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < PROBES; i++) {
    const started = performance.now()
    await expectJson(call(context.http, context.api.port, 'GET', '/v1/did', { token: user.token }), 200, 'probe')
    times.push(performance.now() - started)
  }
  return times
}

interface OrgRecord {
  orgDone: { id: string; updatedAt: string }
  /** When the bench learned of it (Date.now()). */
  learnedAt: number
}

/** The organization's connection `completed`, from its webhook event (whenever it arrived). */
async function orgRecordByWebhook(context: Context, outOfBandId: string): Promise<OrgRecord> {
  const event = await context.webhook.waitFor(
    isWebhookEvent('connection.state-changed', 'completed', 'outOfBandId', outOfBandId),
    300_000,
  )
  return {
    orgDone: { id: event.record.id, updatedAt: String(event.record.updatedAt) },
    learnedAt: context.webhook.receivedAt.get(event.id) ?? Date.now(),
  }
}

/** The organization's connection `completed`, read from its list, found by the holder's label (zero-padded). */
async function orgRecordByPoll(context: Context, label: string, outOfBandId: string): Promise<OrgRecord> {
  const asIssuer = (method: string, route: string) =>
    call(context.http, context.api.port, method, route, { token: context.issuerToken, timeoutMs: 120_000 })
  const orgDone = await waitFor('issuer connection completed', async () => {
    const page = await expectJson<{
      connections: { id: string; state: string; outOfBandId: string | null; updatedAt: string }[]
    }>(
      asIssuer('GET', `/v1/orgs/${context.orgId}/connections?searchByText=${encodeURIComponent(label)}`),
      200,
      'issuer connections',
    )
    return page.connections.find(
      (connection) => connection.outOfBandId === outOfBandId && connection.state === 'completed',
    )
  })
  return { orgDone, learnedAt: Date.now() }
}

/** One holder: invitation of the issuer organization, connection, a JSON-LD offer received and accepted. */
async function activeHolder(context: Context, user: BenchUser, label: string): Promise<HolderTimes> {
  const { http, api, issuerToken, orgId } = context
  const asHolder = (method: string, route: string, body?: unknown) =>
    call(http, api.port, method, route, { body, token: user.token, timeoutMs: 120_000 })
  const asIssuer = (method: string, route: string, body?: unknown) =>
    call(http, api.port, method, route, { body, token: issuerToken, timeoutMs: 120_000 })

  // The credential's subject: a DID of the holder's own wallet (not timed: a once-per-wallet preparation).
  const { did } = await expectJson<{ did: string }>(
    asHolder('POST', '/v1/did', { method: 'key', keyType: 'ed25519' }),
    201,
    'holder DID',
  )
  const times = {} as Record<ActiveStep, number>
  let started = performance.now()
  const lap = (step: ActiveStep) => {
    const now = performance.now()
    times[step] = now - started
    started = now
  }

  const invitation = await expectJson<{ invitationUrl: string; outOfBandRecord: { id: string } }>(
    asIssuer('POST', `/v1/orgs/${orgId}/connections`, {}),
    201,
    'issuer invitation',
  )
  lap('invitation')

  const received = await expectJson<{ connectionRecord: { id: string } }>(
    asHolder('POST', '/v1/receive-invitation-url', {
      invitationUrl: invitation.invitationUrl,
      label,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
      reuseConnection: false,
    }),
    201,
    'receive invitation',
  )
  const holderDone = await waitFor('holder connection completed', async () => {
    const one = await expectJson<{ state: string; updatedAt?: string }>(
      asHolder('GET', `/v1/connection/${received.connectionRecord.id}`),
      200,
      'holder connection',
    )
    return one.state === 'completed' ? one : undefined
  })
  lap('connect')
  const { orgDone, learnedAt } =
    ORG_WAIT === 'webhook'
      ? await orgRecordByWebhook(context, invitation.outOfBandRecord.id)
      : await orgRecordByPoll(context, label, invitation.outOfBandRecord.id)
  const issuerConnectionId = orgDone.id
  lap('org-record')
  // Where org-record's time went, from the records' own times (one clock: every process runs on this machine).
  const orgAgentAt = Date.parse(orgDone.updatedAt)
  const split = {
    orgAgent: orgAgentAt - Date.parse(holderDone.updatedAt ?? ''),
    platform: learnedAt - orgAgentAt,
  }

  const [offer] = await expectJson<{ threadId: string }[]>(
    asIssuer('POST', `/v1/orgs/${orgId}/credentials/offer?credentialType=JSONLD&isValidateSchema=false`, {
      credentialData: [
        {
          connectionId: issuerConnectionId,
          credential: aDegreeCredential(context.orgDid, did, `Bachelor of Science ${label}`),
          options: signingOptions(),
        },
      ],
    }),
    201,
    'offer',
  )
  const offered = await waitFor('offer received', async () => {
    const list = await expectJson<{ id: string; state: string }[]>(
      asHolder('GET', `/v1/credential?threadId=${encodeURIComponent(offer.threadId)}`),
      200,
      'holder credentials',
    )
    return list.find((record) => record.state === 'offer-received')
  })
  lap('offer')

  await expectJson(
    asHolder('POST', '/v1/accept-offer', {
      credentialRecordId: offered.id,
      autoAcceptCredential: 'always',
      credentialFormats: { jsonld: {} },
    }),
    201,
    'accept offer',
  )
  await waitFor('credential done', async () => {
    const one = await expectJson<{ state: string }>(
      asHolder('GET', `/v1/credential/${offered.id}`),
      200,
      'holder credential',
    )
    return one.state === 'done' ? true : undefined
  })
  lap('accept')
  return { ...times, split, walletDoneAt: Date.parse(holderDone.updatedAt ?? ''), issuerConnectionId }
}

async function startIssuer(
  context: Pick<Context, 'api' | 'http' | 'issuerToken'>,
): Promise<{ orgId: string; orgDid: string }> {
  const { http, api, issuerToken: token } = context
  const org = await expectJson<{ id: string }>(
    call(http, api.port, 'POST', '/v1/orgs', { body: { name: 'Bench Issuer', description: 'benchmark' }, token }),
    201,
    'create organization',
  )
  await expectJson(
    call(http, api.port, 'POST', `/v1/orgs/${org.id}/agents/spinup`, { body: { label: 'Bench Issuer' }, token }),
    201,
    'spin-up',
  )
  await waitFor(
    'issuer agent',
    async () => {
      const health = await expectJson<{ status: string }>(
        call(http, api.port, 'GET', `/v1/orgs/${org.id}/agents/health`, { token }),
        200,
        'agent health',
      )
      return health.status === 'DID_CREATED' ? true : undefined
    },
    600_000,
  )
  const dids = await expectJson<{ did: string; isPrimaryDid: boolean }[]>(
    call(http, api.port, 'GET', `/v1/orgs/${org.id}/dids`, { token }),
    200,
    'DIDs',
  )
  return { orgId: org.id, orgDid: (dids.find((did) => did.isPrimaryDid) ?? dids[0]).did }
}

function row(name: string, values: number[]): string {
  const { p50, p95, p99 } = summary(values)
  return `| ${name} | ${values.length} | ${p50.toFixed(0)} | ${p95.toFixed(0)} | ${p99.toFixed(0)} |`
}

async function main(): Promise<void> {
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')
  const database: FreshDatabase | undefined = SERVER_URL ? await freshDatabase('postgres', SERVER_URL) : undefined
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-api-'))
  console.log(
    `cloud-wallet benchmark: ${cpus().length} cores, load ${load()}, ${new Date().toISOString()}, ` +
      `${database ? 'PostgreSQL' : 'PGlite'}, ${process.env.AMQP_URL ? 'RabbitMQ' : 'embedded queue'}; ` +
      `${WALLETS} wallets (${CONCURRENCY} at a time), ${ACTIVE} active holders, ${PROBES} probes; ` +
      `organization's records by ${ORG_WAIT}`,
  )
  // Idle sockets are closed after 2 s, before the API's 5 s keep-alive timeout: reusing one the server is closing
  // at that moment ends the request with ECONNRESET (2 of 100 holders in one run).
  const http = new HttpAgent({ keepAlive: true, timeout: 2000, maxSockets: Math.max(64, ACTIVE * 2) })
  let api: ApiProcess | undefined
  let base: Agent | undefined
  let webhookServer: Server | undefined
  try {
    const target: DatabaseTarget = database ? database.target : { kind: 'pglite', dir: path.join(dataDir, 'pglite') }
    let started = performance.now()
    const [admin, issuer, ...holders] = await prepareUsers(target, dataDir, WALLETS)
    console.log(`${holders.length + 2} users and tokens in ${((performance.now() - started) / 1000).toFixed(1)} s`)

    api = await startApiProcess(
      process.execPath,
      {
        ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
        ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
        PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL,
        // 100 holders at once on 2 shared cores: a DIDComm round trip can take longer than the default 30 s; the
        // bench wants each step's time, not a 502.
        AGENT_REQUEST_TIMEOUT_MS: '180000',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        // The webhook relay's settings, when the bench's environment sets them (docs/configuration.md).
        ...Object.fromEntries(
          ['WEBHOOK_CONCURRENCY', 'WEBHOOK_OWNER_CONCURRENCY', 'CLOUD_WALLET_CONCURRENCY']
            .filter((name) => process.env[name] !== undefined)
            .map((name) => [name, process.env[name] ?? '']),
        ),
      },
      dataDir,
      process.env.BENCH_API_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_API_PROF}`] : [],
    )
    // The base agent posts its tenants' events to the API's wallet event route with its API key as token: the
    // wallet lists the holders poll read the records those events keep.
    base = await startAgent('base', `http://127.0.0.1:${api.port}${BASE_WALLET_EVENTS_PATH}`, {
      ...(database?.target.kind === 'postgres' ? { databaseUrl: database.target.url } : {}),
      env: { ...AGENT_MALLOC_ENV, AGENT_EVENT_TOKEN: API_KEY },
      nodeArgs: [...AGENT_COMMAND_LINE_OPTIONS],
    })
    await expectJson(
      call(http, api.port, 'POST', '/v1/configure/base-wallet', {
        body: { agentEndpoint: base.adminUrl, apiKey: API_KEY, walletKey: 'bench-base-wallet-key-0001' },
        token: admin.token,
      }),
      201,
      'configure base wallet',
    )
    const partial = { api, http, issuerToken: issuer.token }
    const issuerOrg = await startIssuer(partial)
    const webhook = new WebhookReceiver(WEBHOOK_SECRET)
    webhookServer = await webhook.listen()
    if (ORG_WAIT === 'webhook') {
      const webhookUrl = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/hook`
      await expectJson(
        call(http, api.port, 'POST', `/webhooks/orgs/${issuerOrg.orgId}/register`, {
          body: { webhookUrl, webhookSecret: WEBHOOK_SECRET },
          token: issuer.token,
        }),
        201,
        'register webhook',
      )
    }
    const context: Context = { ...partial, ...issuerOrg, webhook }

    // One wallet: the probe's, and the baseline of memory.
    const [prober, ...rest] = holders
    await createWallet(context, prober, `bench-wallet-${pad(0)}`)
    await probe(context, prober) // warm-up: the tenant's context, the API's caches
    let cpuMark = cpuOf(base, api)
    const probeOne = await probe(context, prober)
    const probeOneCpu = cpuSince(cpuMark, cpuOf(base, api), PROBES)
    const before = await idleResidentMb(base.process.pid)
    console.log(`base agent idle with 1 wallet: ${before.mb.toFixed(1)} MB (settled in ${before.waitedMs} ms)`)

    const cpuBeforeCreate = cpuOf(base, api)
    started = performance.now()
    const createMs: number[] = []
    let done = 0
    await pool(rest, CONCURRENCY, async (user, index) => {
      createMs.push(await createWallet(context, user, `bench-wallet-${pad(index + 1)}`))
      done++
      if (done % 100 === 0) console.log(`  ${done} wallets, load ${load()}`)
    })
    const createWallMs = performance.now() - started
    const cpuAfterCreate = cpuOf(base, api)
    const after = await idleResidentMb(base.process.pid)
    const perWalletMb = rest.length > 0 ? (after.mb - before.mb) / rest.length : Number.NaN
    console.log(`base agent idle with ${WALLETS} wallets: ${after.mb.toFixed(1)} MB (settled in ${after.waitedMs} ms)`)

    await probe(context, prober) // the same warm-up as with one wallet
    cpuMark = cpuOf(base, api)
    const probeAll = await probe(context, prober)
    const probeAllCpu = cpuSince(cpuMark, cpuOf(base, api), PROBES)

    started = performance.now()
    const active = holders.slice(0, ACTIVE)
    const cpuBefore = cpuOf(base, api)
    const machineBefore = machineTicks()
    const failures: string[] = []
    const results = (
      await Promise.all(
        active.map((user, index) =>
          activeHolder(context, user, `bench-wallet-${pad(index)}`).catch((error: unknown) => {
            failures.push((error as Error).message)
            return undefined
          }),
        ),
      )
    ).filter((times) => times !== undefined)
    const activeWallMs = performance.now() - started
    const cpuAfter = cpuOf(base, api)
    const machineAfter = machineTicks()
    const afterActive = await idleResidentMb(base.process.pid)

    console.log(`\nload after: ${load()}`)
    console.log('\n| measure | n | p50 ms | p95 ms | p99 ms |')
    console.log('|---|---|---|---|---|')
    console.log(row(`create-wallet (${CONCURRENCY} at a time)`, createMs))
    console.log(row('probe GET /v1/did, 1 wallet', probeOne))
    console.log(row(`probe GET /v1/did, ${WALLETS} wallets`, probeAll))
    for (const step of ACTIVE_STEPS) {
      console.log(
        row(
          `active: ${step}`,
          results.map((times) => times[step]),
        ),
      )
    }
    console.log(
      row(
        'active: org-record, wallet → org agent',
        results.map((times) => times.split.orgAgent),
      ),
    )
    console.log(
      row(
        `active: org-record, org agent → API (${ORG_WAIT === 'webhook' ? 'webhook' : 'read'})`,
        results.map((times) => times.split.platform),
      ),
    )
    console.log(
      row(
        "active: org-record from the wallet's record",
        results.map((times) => times.split.orgAgent + times.split.platform),
      ),
    )
    // On PostgreSQL the API's rows can be read beside it; PGlite is the API's own (read after it stops, below).
    const printStored = (stored: Map<string, number>) =>
      console.log(
        row(
          "active: org-record stored by the API, from the wallet's record",
          results
            .filter((times) => stored.has(times.issuerConnectionId))
            .map((times) => (stored.get(times.issuerConnectionId) ?? 0) - times.walletDoneAt),
        ),
      )
    const connectionIds = results.map((times) => times.issuerConnectionId)
    if (database) printStored(await storedAt(target, connectionIds))
    console.log(
      row(
        'active: total',
        results.map((times) => ACTIVE_STEPS.reduce((sum, step) => sum + times[step], 0)),
      ),
    )
    // The API's own view of the event path (means from its histograms, over the whole run).
    const { body: text } = await call(http, api.port, 'GET', '/metrics')
    const mean = (name: string, labels = '') => {
      const sum = new RegExp(`^${name}_sum${labels.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]
      const count = new RegExp(`^${name}_count${labels.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]
      return `${((Number(sum) / Number(count)) * 1000).toFixed(0)} ms (n ${count})`
    }
    console.log(
      `API metrics (means over the run): agent event stored after ${mean('idplane_api_agent_event_lag_seconds', '{kind="connection"}')} ` +
        `(connections), webhook POST ${mean('idplane_api_webhook_delivery_duration_seconds', '{result="ok"}')}, ` +
        `webhook delivered after ${mean('idplane_api_webhook_delivery_lag_seconds')}`,
    )
    if (ORG_WAIT === 'webhook') {
      const lags = summary(webhook.lagsMs)
      const arrivals = [...webhook.receivedAt.values()]
      console.log(
        `\nwebhook: ${webhook.events.size} events, ${webhook.duplicates} duplicates, ${webhook.badSignatures} bad ` +
          `signatures; lag from the event's time to its arrival p50 ${lags.p50.toFixed(0)} / p95 ` +
          `${lags.p95.toFixed(0)} / p99 ${lags.p99.toFixed(0)} ms; arrivals over ` +
          `${((Math.max(...arrivals) - Math.min(...arrivals)) / 1000).toFixed(1)} s`,
      )
    }
    const probeRatio = summary(probeAll).p50 / summary(probeOne).p50
    // The latency ratio follows the machine's load between the two probes; the CPU ratio does not.
    const probeCpuRatio = (probeAllCpu.base + probeAllCpu.api) / (probeOneCpu.base + probeOneCpu.api)
    console.log(
      `\ncreate: ${createMs.length} wallets in ${(createWallMs / 1000).toFixed(1)} s ` +
        `(${((createMs.length / createWallMs) * 1000).toFixed(1)}/s); active: ${ACTIVE} holders in ` +
        `${(activeWallMs / 1000).toFixed(1)} s`,
    )
    // CPU per wallet does not depend on what else runs on the machine, unlike the latencies.
    console.log(
      `CPU ms per create-wallet: base agent ${((cpuAfterCreate.base - cpuBeforeCreate.base) / rest.length).toFixed(1)}, ` +
        `API ${((cpuAfterCreate.api - cpuBeforeCreate.api) / rest.length).toFixed(1)}`,
    )
    console.log(
      `active: ${results.length} done, ${failures.length} failed${failures.length > 0 ? ` (first: ${failures[0]})` : ''}; ` +
        `CPU s in the active phase: base agent ${((cpuAfter.base - cpuBefore.base) / 1000).toFixed(1)}, API ` +
        `${((cpuAfter.api - cpuBefore.api) / 1000).toFixed(1)}, issuer agent ${((cpuAfter.children - cpuBefore.children) / 1000).toFixed(1)}; the machine's cores busy ` +
        `${(((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100).toFixed(0)} %`,
    )
    console.log(
      `base agent VmRSS idle: ${before.mb.toFixed(1)} MB with 1 wallet, ${after.mb.toFixed(1)} MB with ${WALLETS}, ` +
        `${afterActive.mb.toFixed(1)} MB after the active holders`,
    )
    console.log(
      `probe p50: ${summary(probeOne).p50.toFixed(1)} ms with 1 wallet, ${summary(probeAll).p50.toFixed(1)} ms with ` +
        `${WALLETS} (means ${summary(probeOne).mean.toFixed(1)} / ${summary(probeAll).mean.toFixed(1)})`,
    )
    // Unlike the latencies, CPU per probe does not depend on what else the shared machine runs.
    console.log(
      `probe CPU ms per request (base agent + API): ${probeOneCpu.base.toFixed(1)} + ${probeOneCpu.api.toFixed(1)} ` +
        `with 1 wallet, ${probeAllCpu.base.toFixed(1)} + ${probeAllCpu.api.toFixed(1)} with ${WALLETS}`,
    )
    if (!database) {
      await api.stop({ keepDataDir: true })
      api = undefined
      printStored(await storedAt(target, connectionIds))
      rmSync(dataDir, { recursive: true, force: true })
    }
    console.log(
      `cloud-wallet: MB/idle wallet ${perWalletMb.toFixed(3)}, create p95 ${summary(createMs).p95.toFixed(0)} ms, ` +
        `probe ratio ${probeRatio.toFixed(2)} (CPU ${probeCpuRatio.toFixed(2)})`,
    )
  } finally {
    await api?.stop()
    if (base) await stopAgent(base)
    webhookServer?.close()
    http.destroy()
    await database?.drop()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
