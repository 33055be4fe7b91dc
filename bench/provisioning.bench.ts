/**
 * Provisioning benchmark (issue 27 item 4): seconds from `POST /v1/orgs/:orgId/agents/spinup` (201) to the agent's
 * `DID_CREATED`, over BENCH_ORGS organizations (default 10), on the embedded path (PGlite) and on PostgreSQL.
 *
 *   make bench B=provisioning            (Node 24 through scripts/ensure-node.sh; builds dist/ first)
 *   npm run bench:provisioning           (the same on a machine whose node is 24 already)
 *   BENCH_ORGS=5 BENCH_PATHS=embedded npm run bench:provisioning
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test   (the PostgreSQL server; this default)
 *   BENCH_POLLING=0                      (leave out the polling-only peer)
 *   BENCH_SPARE_PEER=0                   (leave out the peer without a spare agent process)
 *
 * Per path, three APIs (built, as child processes) run side by side with the spec's polling interval (10 s; 30 tries
 * rather than 6, BENCH_POLL_ATTEMPTS, so that a loaded machine's slow start is measured, not failed):
 * - `announced`: the agent announces its readiness (POST <event URL>/ready), the platform confirms GET /agent once;
 *   the API keeps its default spare agent process (AGENT_SPARES=1), so every organization but its first gets one;
 * - `announced, no spare`: the same with AGENT_SPARES=0, every agent started from nothing: the figure before the
 *   spare, measured in the same run;
 * - `polling only`: the API's internal URL points nowhere, so no announcement (nor event) reaches it and only the
 *   polling finds the agent: the figure before the announcement.
 * The organizations take turns between them (ABBA), one provisioning at a time, each organization deleted (its
 * agent stopped) before the next starts, and the next started only once the APIs' processes are quiet (a spare
 * loading beside a peer's start would slow the peer). The status is read every 50 ms through `GET .../agents/health`.
 *
 * Besides the time from spin-up, each provisioning's time from the agent's first GET /agent 200 (this benchmark asks
 * the agent itself every 50 ms too) to DID_CREATED is printed: the platform's wait for the agent plus its first DID,
 * the part the announcement shortens, which moves far less with the machine's load than the agent's start does.
 * The last lines are, per path, that figure for each side and then `<path> announced: median M s, p95 P s` followed,
 * per peer, by `(<peer>: median M' s, p95 P' s; ratio R)`, R being the peer's median over the announced side's.
 */
import { existsSync } from 'node:fs'
import { Agent as HttpAgent } from 'node:http'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { pidListeningOn } from '../test/helpers/api-process'
import { freshDatabase, type FreshDatabase } from '../test/helpers/database'
import {
  type ApiProcess,
  call,
  childPidsOf,
  cpuMsOf,
  expectJson,
  freePort,
  percentile,
  positiveIntEnv,
  signUp,
  startApiProcess,
} from './api-harness'

const ORGS = positiveIntEnv('BENCH_ORGS', 10)
const SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test'
const PATHS = (process.env.BENCH_PATHS ?? 'embedded,postgres').split(',').filter(Boolean)
const POLLING = process.env.BENCH_POLLING !== '0'
const SPARE_PEER = process.env.BENCH_SPARE_PEER !== '0'
const POLL_ATTEMPTS = positiveIntEnv('BENCH_POLL_ATTEMPTS', 30)
const STATUS_EVERY_MS = 50
const TIMEOUT_MS = 300_000

type Mode = 'announced' | 'announced, no spare' | 'polling only'

interface Side {
  mode: Mode
  api: ApiProcess
  token: string
  /** The organization sign-up made (it keeps the user's account; never provisioned). */
  seconds: number[]
  /**
   * CPU seconds of the agent process from the spin-up to DID_CREATED: moves less with the load than wall time. A
   * spare's loading, before the spin-up, is not in it.
   */
  agentCpu: number[]
  /** How many of its agents were spares when launched. */
  fromSpare: number
  /** Seconds from the agent's first GET /agent 200 (read by this benchmark) to DID_CREATED. */
  afterReady: number[]
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')

/** A free admin port with a free inbound port above it, as AGENT_PORT_COUNTER_START wants them (counter values). */
async function portCounters(): Promise<string> {
  const ports = [await freePort(), await freePort()].sort((a, b) => a - b)
  return ports.map((port) => port - 1).join(',')
}

async function startSide(mode: Mode, database: FreshDatabase | undefined, http: HttpAgent): Promise<Side> {
  const api = await startApiProcess(process.execPath, {
    ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
    AGENT_PORT_COUNTER_START: await portCounters(),
    LIMIT_ORGS_PER_USER: '1000',
    // The spec's polling (its defaults, said here so that the figure does not move with them).
    // The spec's interval; more attempts than its 6 (BENCH_POLL_ATTEMPTS), because a loaded machine may take longer
    // than a minute to start an agent, and a failed provisioning measures nothing.
    AGENT_POLL_ATTEMPTS: String(POLL_ATTEMPTS),
    AGENT_POLL_INTERVAL_MS: '10000',
    // Nothing listens on port 9: the agent's announcement cannot reach the platform.
    ...(mode === 'polling only' ? { API_INTERNAL_URL: 'http://127.0.0.1:9' } : {}),
    ...(mode === 'announced, no spare' ? { AGENT_SPARES: '0' } : {}),
  })
  const { token } = await signUp(api, http)
  return { mode, api, token, seconds: [], agentCpu: [], afterReady: [], fromSpare: 0 }
}

/** One organization: created, its agent spun up and followed to DID_CREATED, then deleted; the seconds it took. */
async function provisionOne(
  side: Side,
  http: HttpAgent,
  index: number,
): Promise<{ seconds: number; cpu: number; afterReady: number; wasSpare: boolean }> {
  const { api, token } = side
  const org = await expectJson<{ id: string }>(
    call(http, api.port, 'POST', '/v1/orgs', { body: { name: `Bench ${index}`, description: 'provisioning' }, token }),
    201,
    'create organization',
  )
  // A spare's CPU before the spin-up (its modules loaded ahead of need) is not the provisioning's.
  const cpuBefore = new Map(childPidsOf(api.child.pid ?? 0).map((pid) => [pid, cpuMsOf(pid)]))
  const started = performance.now()
  const { adminPort } = await expectJson<{ adminPort: number }>(
    call(http, api.port, 'POST', `/v1/orgs/${org.id}/agents/spinup`, {
      body: { label: `Bench ${index}` },
      token,
      timeoutMs: 60_000,
    }),
    201,
    'spin-up',
  )
  let answeredAt: number | undefined
  for (;;) {
    // The agent's own GET /agent, read beside the platform's status: when it first answers 200.
    if (answeredAt === undefined) {
      const answer = await call(http, adminPort, 'GET', '/agent', { timeoutMs: 5_000 }).catch(() => undefined)
      if (answer?.status === 200) answeredAt = performance.now()
    }
    const health = await expectJson<{ status: string; failureReason: string | null }>(
      call(http, api.port, 'GET', `/v1/orgs/${org.id}/agents/health`, { token, timeoutMs: 60_000 }),
      200,
      'agent health',
    )
    if (health.status === 'DID_CREATED') break
    if (health.status === 'FAILED') throw new Error(`Provisioning failed: ${health.failureReason ?? ''}`)
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`Not DID_CREATED within ${TIMEOUT_MS / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, STATUS_EVERY_MS))
  }
  const doneAt = performance.now()
  const seconds = (doneAt - started) / 1000
  // From the agent's first 200 to DID_CREATED: the platform's wait for it plus the first DID.
  const afterReady = (doneAt - (answeredAt ?? doneAt)) / 1000
  const agentPid = pidListeningOn(adminPort)
  if (agentPid === undefined) throw new Error(`Nothing listens on the agent's admin port ${adminPort}`)
  const cpu = (cpuMsOf(agentPid) - (cpuBefore.get(agentPid) ?? 0)) / 1000
  // A spare was running before the spin-up; a new process was not (every agent starts with AGENT_SPARE=1 now).
  const wasSpare = cpuBefore.has(agentPid)
  await expectJson(
    call(http, api.port, 'DELETE', `/v1/orgs/${org.id}`, { token, timeoutMs: 120_000 }),
    200,
    'delete organization',
  )
  return { seconds, cpu, afterReady, wasSpare }
}

/**
 * Waits until the APIs and their children use under 5 % of a core over half a second (at most 20 s): a spare loads
 * after its organization's agent answered, and would otherwise run beside the next provisioning.
 */
async function settle(sides: Side[]): Promise<void> {
  const cpuNow = () =>
    sides
      .flatMap((side) => [side.api.child.pid ?? 0, ...childPidsOf(side.api.child.pid ?? 0)])
      .reduce((sum, pid) => sum + (existsSync(`/proc/${pid}`) ? cpuMsOf(pid) : 0), 0)
  for (let waited = 0; waited < 20_000; waited += 500) {
    const before = cpuNow()
    await new Promise((resolve) => setTimeout(resolve, 500))
    if (cpuNow() - before < 25) return
  }
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b)
  return `median ${percentile(sorted, 50).toFixed(2)} s, p95 ${percentile(sorted, 95).toFixed(2)} s`
}

async function runPath(path: string): Promise<string> {
  const http = new HttpAgent({ keepAlive: true, maxSockets: 8 })
  const modes: Mode[] = [
    'announced',
    ...(SPARE_PEER ? (['announced, no spare'] as const) : []),
    ...(POLLING ? (['polling only'] as const) : []),
  ]
  const databases: (FreshDatabase | undefined)[] = []
  const sides: Side[] = []
  try {
    for (const mode of modes) {
      const database = path === 'postgres' ? await freshDatabase('postgres', SERVER_URL) : undefined
      databases.push(database)
      sides.push(await startSide(mode, database, http))
    }
    console.log(`${path}: ${ORGS} organizations per side, load before ${load()}`)
    for (let index = 0; index < ORGS; index++) {
      // ABBA: A B B A A B ... so that neither side is always first while the load drifts.
      const order = index % 2 === 0 ? sides : [...sides].reverse()
      for (const side of order) {
        await settle(sides)
        const { seconds, cpu, afterReady, wasSpare } = await provisionOne(side, http, index)
        side.seconds.push(seconds)
        side.agentCpu.push(cpu)
        side.afterReady.push(afterReady)
        if (wasSpare) side.fromSpare++
        console.log(
          `  ${path} ${side.mode} #${index + 1}: ${seconds.toFixed(2)} s, of which ${afterReady.toFixed(2)} s after the agent answered; agent CPU ${cpu.toFixed(2)} s${wasSpare ? ', a spare' : ''} (load ${loadavg()[0].toFixed(2)})`,
        )
      }
    }
  } finally {
    http.destroy()
    await Promise.all(sides.map((side) => side.api.stop()))
    for (const database of databases) await database?.drop()
  }
  const announced = sides[0]
  const peers = sides.slice(1)
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    )
  const peer = peers
    .map(
      (side) =>
        ` (${side.mode}: ${summary(side.seconds)}; ratio ${(median(side.seconds) / median(announced.seconds)).toFixed(1)})`,
    )
    .join('')
  const cpu = sides.map((side) => `${side.mode} ${median(side.agentCpu).toFixed(2)} s`).join(', ')
  console.log(`${path}: agent CPU from the spin-up to DID_CREATED (median): ${cpu}`)
  console.log(
    `${path}: agents launched from a spare: ${sides.map((side) => `${side.mode} ${side.fromSpare}/${ORGS}`).join(', ')}`,
  )
  const afterReady = sides.map((side) => `${side.mode} ${summary(side.afterReady)}`).join('; ')
  const name = path === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite)'
  return `${name} from the agent's first 200 to DID_CREATED: ${afterReady}\n${name} announced: ${summary(announced.seconds)}${peer}`
}

async function main(): Promise<void> {
  console.log(`provisioning benchmark: ${new Date().toISOString()}, load ${load()}`)
  const lines: string[] = []
  for (const path of PATHS) {
    if (path !== 'embedded' && path !== 'postgres') throw new Error(`BENCH_PATHS: unknown path ${path}`)
    lines.push(await runPath(path))
  }
  console.log(`load after: ${load()}`)
  for (const line of lines) console.log(line)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
