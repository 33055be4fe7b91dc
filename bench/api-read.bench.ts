/**
 * API read benchmark: the built API (dist/api/src/main.js) on PostgreSQL, one user and one organization created
 * through the real sign-up flow, then an open-loop load of authenticated `GET /v1/orgs/:orgId` at a fixed rate.
 *
 *   npm run bench:api-read         (builds dist/ first, then runs this file)
 *   BENCH_NODES=/usr/bin/node,$(bash scripts/ensure-node.sh)/node npm run bench:api-read   (one API run per binary)
 *   BENCH_RATE=500 BENCH_SECONDS=20 BENCH_WARMUP_SECONDS=3 BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres
 *
 * Open loop: request i is due at start + i / rate whatever happened to the earlier ones, and its latency is
 * counted from that due time, so a stalled server shows up in the percentiles instead of slowing the sender.
 * Everything is on 127.0.0.1 and bounded: at most rate x seconds requests, at most BENCH_MAX_SOCKETS sockets,
 * each request aborted after BENCH_REQUEST_TIMEOUT_MS (counted from when it was due, so requests queued for a
 * socket time out too) and every run stops BENCH_REQUEST_TIMEOUT_MS after its last request was due. The load generator is this process (the same for every
 * API binary); the API runs on each binary of BENCH_NODES in turn, each time on a fresh database.
 */
import { spawn } from 'node:child_process'
import { Agent } from 'node:http'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { freshDatabase } from '../test/helpers/database'
import { type ApiProcess, call, cpuMsOf, percentile, positiveIntEnv, signUp, startApiProcess } from './api-harness'

const RATE = positiveIntEnv('BENCH_RATE', 500)
const SECONDS = positiveIntEnv('BENCH_SECONDS', 20)
const WARMUP_SECONDS = positiveIntEnv('BENCH_WARMUP_SECONDS', 3)
const MAX_SOCKETS = positiveIntEnv('BENCH_MAX_SOCKETS', 256)
const REQUEST_TIMEOUT_MS = positiveIntEnv('BENCH_REQUEST_TIMEOUT_MS', 10_000)
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
const NODES = (process.env.BENCH_NODES ?? process.execPath).split(',').filter(Boolean)

interface Outcome {
  latencyMs: number
  ok: boolean
  error?: string
}

/** Sends `rate x seconds` requests, each due at its own time, and resolves when every one has answered. */
async function openLoop(
  seconds: number,
  send: () => Promise<boolean>,
): Promise<{ outcomes: Outcome[]; wallMs: number }> {
  const total = RATE * seconds
  const outcomes: Outcome[] = []
  const pending: Promise<void>[] = []
  const start = performance.now()
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / RATE
    const wait = due - performance.now()
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    // From when it was due, or from when it was sent if that was earlier (a wait under a millisecond is not slept):
    // measured from its due time alone, such a request could read a negative latency.
    const from = Math.min(due, performance.now())
    pending.push(
      send().then(
        (ok) => void outcomes.push({ latencyMs: performance.now() - from, ok, ...(ok ? {} : { error: 'status' }) }),
        (error: unknown) =>
          void outcomes.push({ latencyMs: performance.now() - from, ok: false, error: (error as Error).message }),
      ),
    )
  }
  await Promise.all(pending)
  return { outcomes, wallMs: performance.now() - start }
}

async function runOn(node: string): Promise<string> {
  const version = await new Promise<string>((resolve, reject) => {
    const child = spawn(node, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('exit', () => resolve(out.trim()))
  })
  const database = await freshDatabase('postgres', SERVER_URL)
  if (database.target.kind !== 'postgres') throw new Error('bench:api-read needs PostgreSQL')
  let api: ApiProcess | undefined
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS })
  try {
    // e.g. BENCH_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/api-prof" profiles the API
    const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean)
    api = await startApiProcess(node, { DATABASE_URL: database.target.url }, undefined, nodeArgs)
    const { token, orgId } = await signUp(api, agent)
    const port = api.port
    const send = async () => {
      const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS)
      return (
        (await call(agent, port, 'GET', `/v1/orgs/${orgId}`, { token, signal, timeoutMs: REQUEST_TIMEOUT_MS }))
          .status === 200
      )
    }
    await openLoop(WARMUP_SECONDS, send)
    const apiPid = api.child.pid ?? 0
    const [apiCpuBefore, ownCpuBefore] = [cpuMsOf(apiPid), process.cpuUsage()]
    const { outcomes, wallMs } = await openLoop(SECONDS, send)
    const apiCpuMs = cpuMsOf(apiPid) - apiCpuBefore
    const own = process.cpuUsage(ownCpuBefore)
    const latencies = outcomes.map((o) => o.latencyMs).sort((a, b) => a - b)
    const failed = outcomes.filter((o) => !o.ok)
    const reasons = [...new Set(failed.map((o) => o.error))].slice(0, 3).join('; ')
    const ok = outcomes.length - failed.length
    const line =
      `| ${version} | ${RATE} | ${((ok / wallMs) * 1000).toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} | ` +
      `${percentile(latencies, 95).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ` +
      `${latencies[latencies.length - 1]?.toFixed(1)} | ${failed.length}${reasons ? ` (${reasons})` : ''} | ` +
      `${(apiCpuMs / ((SECONDS * RATE) / 1000)).toFixed(2)} | ${((own.user + own.system) / 1000 / ((SECONDS * RATE) / 1000)).toFixed(2)} | ` +
      `${loadavg()[0].toFixed(2)} |`
    console.log(`${node}: ${outcomes.length} requests in ${(wallMs / 1000).toFixed(1)} s`)
    return line
  } finally {
    agent.destroy()
    await api?.stop()
    await database.drop()
  }
}

async function main(): Promise<void> {
  const lines: string[] = []
  for (const node of NODES) lines.push(await runOn(node))
  console.log(`\nGET /v1/orgs/:orgId, open loop, ${SECONDS} s measured after ${WARMUP_SECONDS} s warm-up, PostgreSQL`)
  console.log(
    '| node | target req/s | achieved req/s | p50 ms | p95 ms | p99 ms | max ms | errors | API CPU ms/1000 req | generator CPU ms/1000 req | load after |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const line of lines) console.log(line)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
