/**
 * Agent benchmark: two agent processes from dist/ (issuer, holder) on 127.0.0.1, full DIDComm iterations
 * (connect + issue + request + present + verify), first one at a time, then with concurrent workers.
 *
 *   npm run bench:agent            (builds dist/ first, then runs this file)
 *   BENCH_SEQUENTIAL=20 BENCH_CONCURRENT=64 BENCH_WORKERS=32 npm run bench:agent
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:agent   (PostgreSQL, not PGlite)
 *
 * The benchmark waits for state changes the way the platform does: each agent posts its events to a sink
 * served here (AGENT_EVENT_URL), so no step is measured through a polling interval. The last line printed is
 * `iterations/minute: N` for the concurrent run.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../test/fixtures/degree-credential'

const API_KEY = 'bench-admin-api-key-0001'
const EVENT_TOKEN = 'bench-event-token'
const STEPS = ['connect', 'issue', 'request', 'present', 'verify'] as const
type Step = (typeof STEPS)[number]

interface AgentEvent {
  kind: string
  agentLabel: string
  record: Record<string, unknown> & { id: string; state: string }
}

interface Envelope<T> {
  statusCode: number
  data: T
}

interface Agent {
  label: string
  process: ChildProcess
  dataDir: string
  call<T>(method: string, route: string, body?: unknown): Promise<T>
}

/** Every event the agents posted, and the waiters still looking for one. */
class EventSink {
  private readonly seen: AgentEvent[] = []
  private waiters: { match: (event: AgentEvent) => boolean; resolve: (event: AgentEvent) => void }[] = []

  public add(event: AgentEvent): void {
    this.seen.push(event)
    const still: typeof this.waiters = []
    for (const waiter of this.waiters) {
      if (waiter.match(event)) waiter.resolve(event)
      else still.push(waiter)
    }
    this.waiters = still
  }

  public waitFor(match: (event: AgentEvent) => boolean, timeoutMs = 60000): Promise<AgentEvent> {
    const earlier = this.seen.find(match)
    if (earlier) return Promise.resolve(earlier)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Timed out waiting for an agent event')), timeoutMs)
      this.waiters.push({
        match,
        resolve: (event) => {
          clearTimeout(timer)
          resolve(event)
        },
      })
    })
  }
}

const is =
  (agentLabel: string, kind: string, state: string, field: string, value: unknown) =>
  (event: AgentEvent): boolean =>
    event.agentLabel === agentLabel &&
    event.kind === kind &&
    event.record.state === state &&
    event.record[field] === value

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function startAgent(label: string, eventUrl: string): Promise<Agent> {
  const [adminPort, inboundPort] = [await freePort(), await freePort()]
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-agent-${label}-`))
  const database = process.env.BENCH_DATABASE_URL
    ? { AGENT_DATABASE_URL: process.env.BENCH_DATABASE_URL, AGENT_DATABASE_SCHEMA: `bench_${label}_${process.pid}` }
    : { AGENT_DATA_DIR: dataDir }
  // e.g. BENCH_AGENT_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/agent-prof" profiles the agents
  const nodeArgs = (process.env.BENCH_AGENT_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const child = spawn(process.execPath, [...nodeArgs, 'dist/agent/src/main.js'], {
    cwd: path.resolve(__dirname, '..'),
    env: {
      PATH: process.env.PATH ?? '',
      AGENT_LABEL: label,
      AGENT_ADMIN_PORT: String(adminPort),
      AGENT_INBOUND_PORT: String(inboundPort),
      AGENT_API_KEY: API_KEY,
      AGENT_WALLET_KEY: `bench-wallet-key-${label}-0001`,
      AGENT_EVENT_URL: eventUrl,
      AGENT_EVENT_TOKEN: EVENT_TOKEN,
      LOG_LEVEL: 'warn',
      ...database,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const adminUrl = `http://127.0.0.1:${adminPort}`
  const agent: Agent = {
    label,
    process: child,
    dataDir,
    async call<T>(method: string, route: string, body?: unknown): Promise<T> {
      const response = await fetch(`${adminUrl}${route}`, {
        method,
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const json = (await response.json()) as Envelope<T>
      if (response.status >= 300)
        throw new Error(`${label} ${method} ${route}: ${response.status} ${JSON.stringify(json)}`)
      return json.data
    },
  }
  const deadline = Date.now() + 60000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Agent ${label} exited with ${child.exitCode}`)
    const ready = await fetch(`${adminUrl}/agent`).then(
      (response) => response.status === 200,
      () => false,
    )
    if (ready) return agent
    if (Date.now() > deadline) throw new Error(`Agent ${label} did not become ready`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function stopAgent(agent: Agent): Promise<void> {
  if (agent.process.exitCode === null) {
    const exited = new Promise((resolve) => agent.process.once('exit', resolve))
    agent.process.kill('SIGTERM')
    await exited
  }
  rmSync(agent.dataDir, { recursive: true, force: true })
}

function startSink(sink: EventSink): Promise<Server> {
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${EVENT_TOKEN}`) {
        res.statusCode = 401
        res.end()
        return
      }
      // One event, or a batch `{ events: [...] }` (docs/agent.md, Events).
      const body = JSON.parse(raw) as AgentEvent | { events: AgentEvent[] }
      for (const event of 'events' in body ? body.events : [body]) sink.add(event)
      res.statusCode = 204
      res.end()
    })
  })
  server.keepAliveTimeout = 60000
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

interface Context {
  issuer: Agent
  holder: Agent
  sink: EventSink
  issuerDid: string
  holderDid: string
}

/** One full iteration; returns the milliseconds of each step. */
async function iteration(context: Context): Promise<Record<Step, number>> {
  const { issuer, holder, sink } = context
  const times = {} as Record<Step, number>
  let started = performance.now()
  const lap = (step: Step) => {
    const now = performance.now()
    times[step] = now - started
    started = now
  }

  const invitation = await issuer.call<{ invitationUrl: string; outOfBandRecord: { id: string } }>(
    'POST',
    '/oob/create-invitation',
    { autoAcceptConnection: true },
  )
  const received = await holder.call<{ connectionRecord: { id: string } }>('POST', '/oob/receive-invitation-url', {
    invitationUrl: invitation.invitationUrl,
    autoAcceptConnection: true,
    autoAcceptInvitation: true,
  })
  const [issuerConnection] = await Promise.all([
    sink.waitFor(is('issuer', 'connection', 'completed', 'outOfBandId', invitation.outOfBandRecord.id)),
    sink.waitFor(is('holder', 'connection', 'completed', 'id', received.connectionRecord.id)),
  ])
  lap('connect')

  // A degree name of its own, so the proof request matches this iteration's credential only.
  const degree = `Bachelor of Science ${invitation.outOfBandRecord.id}`
  const offer = await issuer.call<{ threadId: string }>('POST', '/credentials/offer', {
    connectionId: issuerConnection.record.id,
    credential: aDegreeCredential(context.issuerDid, context.holderDid, degree),
    options: signingOptions(),
  })
  const holderOffer = await sink.waitFor(is('holder', 'credential', 'offer-received', 'threadId', offer.threadId))
  await holder.call('POST', '/credentials/accept-offer', { credentialRecordId: holderOffer.record.id })
  await sink.waitFor(is('holder', 'credential', 'done', 'threadId', offer.threadId))
  lap('issue')

  const request = await issuer.call<{ id: string; threadId: string }>('POST', '/proofs/request', {
    connectionId: issuerConnection.record.id,
    presentationDefinition: aDegreePresentationDefinition([
      { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: degree } },
    ]),
  })
  const holderRequest = await sink.waitFor(is('holder', 'proof', 'request-received', 'threadId', request.threadId))
  lap('request')

  await holder.call('POST', '/proofs/accept-request', { proofRecordId: holderRequest.record.id })
  await sink.waitFor(is('issuer', 'proof', 'presentation-received', 'threadId', request.threadId))
  lap('present')

  const verified = await issuer.call<{ isVerified: boolean }>('POST', `/proofs/${request.id}/verify`)
  if (!verified.isVerified) throw new Error('Presentation did not verify')
  lap('verify')
  return times
}

/** CPU time (user + system) a process has used, from /proc (Linux); undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return undefined
  }
}

/** Busy and total jiffies of the whole machine (Linux /proc/stat); undefined elsewhere. */
function machineJiffies(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    const idle = fields[3] + (fields[4] ?? 0)
    const total = fields.reduce((sum, value) => sum + value, 0)
    return { busy: total - idle, total }
  } catch {
    return undefined
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

function report(title: string, results: Record<Step, number>[], wallMs: number): void {
  console.log(`\n${title}: ${results.length} iterations in ${(wallMs / 1000).toFixed(1)} s`)
  console.log('| step | p50 ms | p95 ms |')
  console.log('|---|---|---|')
  for (const step of [...STEPS, 'total'] as const) {
    const values = results
      .map((times) => (step === 'total' ? STEPS.reduce((sum, name) => sum + times[name], 0) : times[step]))
      .sort((a, b) => a - b)
    console.log(`| ${step} | ${percentile(values, 50).toFixed(0)} | ${percentile(values, 95).toFixed(0)} |`)
  }
}

async function runConcurrent(context: Context, iterations: number, workers: number) {
  const results: Record<Step, number>[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < iterations) {
        next++
        results.push(await iteration(context))
      }
    }),
  )
  return { results, wallMs: performance.now() - started }
}

async function main(): Promise<void> {
  const sequential = Number(process.env.BENCH_SEQUENTIAL ?? 20)
  const concurrent = Number(process.env.BENCH_CONCURRENT ?? 64)
  const workers = Number(process.env.BENCH_WORKERS ?? 32)
  const sink = new EventSink()
  const server = await startSink(sink)
  const eventUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`
  const agents: Agent[] = []
  try {
    const [issuer, holder] = await Promise.all([startAgent('issuer', eventUrl), startAgent('holder', eventUrl)])
    agents.push(issuer, holder)
    const issuerDid = (await issuer.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
    const holderDid = (await holder.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
    const context: Context = { issuer, holder, sink, issuerDid, holderDid }
    console.log(
      `agent benchmark: ${cpus().length} cores, load ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}, database ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${new Date().toISOString()}`,
    )

    await iteration(context) // warm-up: JIT, JSON-LD contexts, first connections
    const sequentialResults: Record<Step, number>[] = []
    const sequentialStart = performance.now()
    for (let index = 0; index < sequential; index++) sequentialResults.push(await iteration(context))
    report('sequential', sequentialResults, performance.now() - sequentialStart)

    const cpuBefore = agents.map((agent) => cpuMs(agent.process.pid))
    const benchCpuBefore = process.cpuUsage()
    const machineBefore = machineJiffies()
    const { results, wallMs } = await runConcurrent(context, concurrent, workers)
    const benchCpu = process.cpuUsage(benchCpuBefore)
    const machineAfter = machineJiffies()
    report(`concurrent (${workers} workers)`, results, wallMs)
    agents.forEach((agent, index) => {
      const [before, after] = [cpuBefore[index], cpuMs(agent.process.pid)]
      if (before !== undefined && after !== undefined) {
        console.log(`${agent.label} CPU per iteration: ${((after - before) / results.length).toFixed(0)} ms`)
      }
    })
    console.log(
      `benchmark process CPU per iteration: ${((benchCpu.user + benchCpu.system) / 1000 / results.length).toFixed(0)} ms`,
    )
    if (machineBefore && machineAfter) {
      const busy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)
      console.log(`machine CPU busy during the run: ${(busy * 100).toFixed(0)} % of ${cpus().length} cores`)
    }
    console.log(`load after: ${loadavg()[0].toFixed(2)}`)
    console.log(`iterations/minute: ${Math.round((results.length / wallMs) * 60000)}`)
  } finally {
    await Promise.all(agents.map(stopAgent))
    server.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
