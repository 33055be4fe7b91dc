/**
 * Agent memory benchmark: resident memory (VmRSS from /proc/<pid>/status) of real agent processes from dist/ when
 * idle after start and when idle again after N full DIDComm iterations (connect + issue + request + present +
 * verify), on PGlite and on PostgreSQL, with today's settings and with the settings before the memory cut.
 *
 *   npm run bench:agent-memory       (builds dist/ first, then runs this file)
 *   BENCH_EXCHANGES=300 BENCH_WORKERS=8 BENCH_DATABASES=pglite,postgres BENCH_VARIANTS=before,now npm run bench:agent-memory
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test   (the PostgreSQL used; this is the default)
 *
 * "Idle" means the resident size moved less than 2 MB over the last 10 s (at most 60 s of waiting).
 */
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'

import { AGENT_COMMAND_LINE_OPTIONS, AGENT_MALLOC_ENV } from '../common/agent-node-options'
import { type Agent, type AgentOptions, EventSink, iteration, startAgent, startSink, stopAgent } from './agent-harness'

interface Variant {
  name: string
  env: Record<string, string>
  nodeArgs: string[]
}

/**
 * The agent as it ships, and the settings it had before: PostgreSQL's buffers in PGlite, V8's default young
 * generation, glibc's malloc defaults, V8 favouring speed and no collection when idle. (A new PGlite directory is
 * initialized in a child process either way.)
 */
const VARIANTS: Variant[] = [
  { name: 'now', env: { ...AGENT_MALLOC_ENV }, nodeArgs: [...AGENT_COMMAND_LINE_OPTIONS] },
  { name: 'before', env: { AGENT_PGLITE_SHARED_BUFFERS_MB: '128', AGENT_MEMORY_SAVING: 'false' }, nodeArgs: [] },
]

/** Longer than the agent takes to notice it is idle and collect (QUIET_CHECKS_FOR_IDLE checks of 2 s, 4-6 s). */
const IDLE_WINDOW_MS = 10000
const IDLE_TOLERANCE_MB = 2
const IDLE_MAX_WAIT_MS = 60000

function residentMb(pid: number | undefined): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!match) throw new Error(`No VmRSS for process ${pid}`)
  return Number(match[1]) / 1024
}

/** Waits until every agent's resident size has settled; returns each one's size then, in MB. */
async function idleResident(agents: Agent[]): Promise<number[]> {
  const samples: number[][] = []
  const started = Date.now()
  for (;;) {
    samples.push(agents.map((agent) => residentMb(agent.process.pid)))
    const window = samples.slice(-(IDLE_WINDOW_MS / 1000 + 1))
    const settled =
      window.length > IDLE_WINDOW_MS / 1000 &&
      agents.every((_, index) => {
        const values = window.map((sample) => sample[index])
        return Math.max(...values) - Math.min(...values) < IDLE_TOLERANCE_MB
      })
    if (settled || Date.now() - started > IDLE_MAX_WAIT_MS) return samples[samples.length - 1]
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

interface Row {
  database: string
  variant: string
  idle: number[]
  after: number[]
  iterationsPerMinute: number
}

async function measure(database: string, variant: Variant, exchanges: number, workers: number): Promise<Row> {
  const sink = new EventSink()
  const server = await startSink(sink)
  const eventUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`
  const options: AgentOptions = {
    databaseUrl: database === 'postgres' ? (process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL) : undefined,
    // e.g. BENCH_AGENT_ENV=AGENT_RECORD_MIRROR_MB=0 adds to (or replaces) the variant's environment
    env: { ...variant.env, ...extraEnv() },
    nodeArgs: variant.nodeArgs,
  }
  const agents: Agent[] = []
  try {
    const [issuer, holder] = await Promise.all([
      startAgent('issuer', eventUrl, options),
      startAgent('holder', eventUrl, options),
    ])
    agents.push(issuer, holder)
    const idle = await idleResident(agents)
    const issuerDid = (await issuer.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
    const holderDid = (await holder.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
    const context = { issuer, holder, sink, issuerDid, holderDid }
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < exchanges) {
          next++
          await iteration(context)
        }
      }),
    )
    const iterationsPerMinute = Math.round((exchanges / (performance.now() - started)) * 60000)
    const after = await idleResident(agents)
    return { database, variant: variant.name, idle, after, iterationsPerMinute }
  } finally {
    await Promise.all(agents.map(stopAgent))
    server.close()
  }
}

function extraEnv(): Record<string, string> {
  return Object.fromEntries(
    (process.env.BENCH_AGENT_ENV ?? '')
      .split(' ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  )
}

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test'

async function main(): Promise<void> {
  const exchanges = Number(process.env.BENCH_EXCHANGES ?? 300)
  const workers = Number(process.env.BENCH_WORKERS ?? 8)
  const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',')
  const names = (process.env.BENCH_VARIANTS ?? 'now,before').split(',')
  const variants = names.map((name) => {
    const variant = VARIANTS.find((candidate) => candidate.name === name)
    if (!variant) throw new Error(`Unknown variant ${name}; known: ${VARIANTS.map((known) => known.name).join(', ')}`)
    return variant
  })
  console.log(
    `agent memory benchmark: ${cpus().length} cores, load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}, ${exchanges} iterations with ${workers} in flight, ${new Date().toISOString()}`,
  )
  console.log('| database | settings | idle after start MB (issuer / holder) | idle after iterations MB | it/min |')
  console.log('|---|---|---|---|---|')
  for (const database of databases) {
    for (const variant of variants) {
      const row = await measure(database, variant, exchanges, workers)
      const mb = (values: number[]) => values.map((value) => value.toFixed(0)).join(' / ')
      console.log(
        `| ${row.database} | ${row.variant} | ${mb(row.idle)} | ${mb(row.after)} | ${row.iterationsPerMinute} |`,
      )
    }
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
