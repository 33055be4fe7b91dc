/**
 * What the agent benchmarks share: agent processes from dist/ on 127.0.0.1, the event sink they post to, and one
 * full DIDComm iteration (connect + issue + request + present + verify) waited for through events.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'

import { Client } from 'pg'

import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../test/fixtures/degree-credential'
import { AGENT_COMMAND_LINE_OPTIONS, AGENT_MALLOC_ENV } from '../common/agent-node-options'
import { freePort, percentile } from './api-harness'

/** The admin API key of every benchmark agent (a base wallet configured in the API needs it). */
export const API_KEY = 'bench-admin-api-key-0001'
const EVENT_TOKEN = 'bench-event-token'
export const STEPS = ['connect', 'issue', 'request', 'present', 'verify'] as const
export type Step = (typeof STEPS)[number]

interface AgentEvent {
  kind: string
  agentLabel: string
  record: Record<string, unknown> & { id: string; state: string }
}

interface Envelope<T> {
  statusCode: number
  data: T
}

export interface Agent {
  label: string
  adminUrl: string
  process: ChildProcess
  dataDir: string
  /** On PostgreSQL: the database and the agent's schema there, dropped when the agent is stopped. */
  postgres?: { url: string; schema: string }
  call<T>(method: string, route: string, body?: unknown): Promise<T>
}

/** Items seen so far and the waiters still looking for one: resolves a waiter with the first match, past or future. */
export class Waiters<T> {
  protected readonly seen: T[] = []
  private waiters: { match: (item: T) => boolean; resolve: (item: T) => void }[] = []

  public add(item: T): void {
    this.seen.push(item)
    const still: typeof this.waiters = []
    for (const waiter of this.waiters) {
      if (waiter.match(item)) waiter.resolve(item)
      else still.push(waiter)
    }
    this.waiters = still
  }

  public waitFor(match: (item: T) => boolean, timeoutMs = 60000): Promise<T> {
    const earlier = this.seen.find(match)
    if (earlier !== undefined) return Promise.resolve(earlier)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms`)), timeoutMs)
      this.waiters.push({
        match,
        resolve: (item) => {
          clearTimeout(timer)
          resolve(item)
        },
      })
    })
  }
}

/** Every event the agents posted, and the waiters still looking for one. */
export class EventSink extends Waiters<AgentEvent> {}

const is =
  (agentLabel: string, kind: string, state: string, field: string, value: unknown) =>
  (event: AgentEvent): boolean =>
    event.agentLabel === agentLabel &&
    event.kind === kind &&
    event.record.state === state &&
    event.record[field] === value

export { freePort }

export interface AgentOptions {
  /** PostgreSQL URL; each agent gets a schema of its own. PGlite in a fresh directory when undefined. */
  databaseUrl?: string
  /** Extra environment variables of the agent process. */
  env?: Record<string, string>
  /** Extra Node options of the agent process. */
  nodeArgs?: string[]
  /** Fixed ports, so that a restarted agent keeps the endpoint its peers know. Free ports when undefined. */
  ports?: { admin: number; inbound: number }
}

/**
 * Our agents as they ship (AGENT_COMMAND_LINE_OPTIONS, AGENT_MALLOC_ENV), with `env` over them, then the run's own settings:
 * BENCH_AGENT_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/agent-prof" profiles the agents) and BENCH_AGENT_ENV
 * (space-separated NAME=value, e.g. AGENT_MEMORY_SAVING=false).
 */
export function shippedAgentOptions(
  env: Record<string, string> = {},
): Required<Pick<AgentOptions, 'env' | 'nodeArgs'>> {
  const pairs = (process.env.BENCH_AGENT_ENV ?? '').split(' ').filter(Boolean)
  return {
    nodeArgs: [...AGENT_COMMAND_LINE_OPTIONS, ...(process.env.BENCH_AGENT_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    env: {
      ...AGENT_MALLOC_ENV,
      ...env,
      ...Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])),
    },
  }
}

/**
 * A stock Credo-ts agent (bench/stock-credo/stock-agent.ts, in-memory storage) with the same admin routes and
 * events, for the benchmark's peer pair. Started from the TypeScript source through register-ts.cjs.
 */
export function startStockAgent(label: string, eventUrl: string, options: AgentOptions = {}): Promise<Agent> {
  return startAgent(label, eventUrl, {
    ...options,
    script: ['-r', './bench/register-ts.cjs', 'bench/stock-credo/stock-agent.ts'],
  })
}

/** A child's standard output and error, as `spawn`'s stdio takes them. */
export type ChildOutput = ['ignore' | 'inherit' | number, 'ignore' | 'inherit' | number]

/**
 * Where a child's log lines (stdout) and errors go: both appended to `<directory>/<name>.log` when a directory is
 * given (kept across the child's restarts), else `otherwise`. Pass the result to releaseChildOutput after the spawn.
 */
export function childOutput(directory: string | undefined, name: string, otherwise: ChildOutput): ChildOutput {
  if (!directory) return otherwise
  mkdirSync(directory, { recursive: true })
  const file = openSync(path.join(directory, `${name}.log`), 'a')
  return [file, file]
}

/** After the spawn: the child has its own copy of the log file's descriptor. */
export function releaseChildOutput(output: ChildOutput): void {
  for (const fd of new Set(output)) if (typeof fd === 'number') closeSync(fd)
}

export async function startAgent(
  label: string,
  eventUrl: string,
  options: AgentOptions & { script?: string[] } = {},
): Promise<Agent> {
  const [adminPort, inboundPort] = options.ports
    ? [options.ports.admin, options.ports.inbound]
    : [await freePort(), await freePort()]
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-agent-${label}-`))
  const postgres = options.databaseUrl
    ? { url: options.databaseUrl, schema: `bench_${label}_${process.pid}` }
    : undefined
  const database = postgres
    ? { AGENT_DATABASE_URL: postgres.url, AGENT_DATABASE_SCHEMA: postgres.schema }
    : { AGENT_DATA_DIR: dataDir }
  const nodeArgs = options.nodeArgs ?? []
  // BENCH_AGENT_LOGS keeps an agent's lines (the chaos run's holder); else its errors go to the benchmark's own.
  const output = childOutput(process.env.BENCH_AGENT_LOGS, label, ['ignore', 'inherit'])
  const child = spawn(process.execPath, [...nodeArgs, ...(options.script ?? ['dist/agent/src/main.js'])], {
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
      LOG_LEVEL: process.env.BENCH_AGENT_LOG_LEVEL ?? 'warn',
      // The bench's agents reach each other on loopback.
      AGENT_ALLOW_PRIVATE_TARGETS: 'true',
      ...database,
      ...options.env,
    },
    stdio: ['ignore', ...output],
  })
  releaseChildOutput(output)
  const adminUrl = `http://127.0.0.1:${adminPort}`
  const agent: Agent = {
    label,
    adminUrl,
    process: child,
    dataDir,
    postgres,
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

export async function stopAgent(agent: Agent): Promise<void> {
  if (agent.process.exitCode === null) {
    const exited = new Promise((resolve) => agent.process.once('exit', resolve))
    agent.process.kill('SIGTERM')
    await exited
  }
  rmSync(agent.dataDir, { recursive: true, force: true })
  if (agent.postgres) await dropSchema(agent.postgres.url, agent.postgres.schema)
}

/** The agent's schema on PostgreSQL, dropped with what it holds (a benchmark's agents keep nothing). */
async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await client.end()
  }
}

export function startSink(sink: EventSink): Promise<Server> {
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

export interface Context {
  issuer: Agent
  holder: Agent
  sink: EventSink
  issuerDid: string
  holderDid: string
}

/** One full iteration; returns the milliseconds of each step. */
export async function iteration(context: Context): Promise<Record<Step, number>> {
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

/** The p50 and p95 of each step and of the whole iteration, as a Markdown table. */
export function stepTable(title: string, results: Record<Step, number>[], wallMs: number): void {
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
