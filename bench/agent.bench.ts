/**
 * Agent benchmark: two agent processes from dist/ (issuer, holder) on 127.0.0.1, full DIDComm iterations
 * (connect + issue + request + present + verify), first one at a time, then with concurrent workers.
 *
 *   npm run bench:agent            (builds dist/ first, then runs this file)
 *   BENCH_SEQUENTIAL=20 BENCH_CONCURRENT=64 BENCH_WORKERS=32 npm run bench:agent
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:agent   (PostgreSQL, not PGlite)
 *   BENCH_STOCK_NODE_ARGS=--max-opt=2 npm run bench:agent   (Node options for the stock pair, which has none by default)
 *
 * The benchmark waits for state changes the way the platform does: each agent posts its events to a sink
 * served here (AGENT_EVENT_URL), so no step is measured through a polling interval. The last line printed is
 * `iterations/minute: N` for the concurrent run.
 */
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'

import {
  type Agent,
  type AgentOptions,
  type Context,
  EventSink,
  iteration,
  shippedAgentOptions,
  startAgent,
  startSink,
  startStockAgent,
  type Step,
  stepTable,
  stopAgent,
} from './agent-harness'

/** CPU time (user + system) of a /proc stat file (a process's or one thread's), in ms; undefined when unreadable. */
function statCpuMs(file: string): number | undefined {
  try {
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return undefined
  }
}

/**
 * CPU time a process has used, and of it its main thread's (its JavaScript and the garbage collection V8 does there;
 * the rest is V8's helper threads: compilers, WebAssembly tier-up, parallel and concurrent collection, and libuv's),
 * from /proc (Linux); undefined elsewhere.
 */
function cpuMs(pid: number | undefined): { total: number; main: number } | undefined {
  const total = statCpuMs(`/proc/${pid}/stat`)
  const main = statCpuMs(`/proc/${pid}/task/${pid}/stat`)
  return total === undefined || main === undefined ? undefined : { total, main }
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

interface Pair {
  name: string
  context: Context
  iterations: number
  wallMs: number
  cpuMs: number
}

/** One concurrent phase of a pair; its iterations, wall time and both agents' CPU are added to the pair's totals. */
async function phase(pair: Pair, concurrent: number, workers: number): Promise<void> {
  const agents = [pair.context.issuer, pair.context.holder]
  const cpuBefore = agents.map((agent) => cpuMs(agent.process.pid))
  const benchCpuBefore = process.cpuUsage()
  const machineBefore = machineJiffies()
  const { results, wallMs } = await runConcurrent(pair.context, concurrent, workers)
  const benchCpu = process.cpuUsage(benchCpuBefore)
  const machineAfter = machineJiffies()
  stepTable(`${pair.name}: concurrent (${workers} workers)`, results, wallMs)
  agents.forEach((agent, index) => {
    const [before, after] = [cpuBefore[index], cpuMs(agent.process.pid)]
    if (before !== undefined && after !== undefined) {
      const total = after.total - before.total
      const helpers = total - (after.main - before.main)
      pair.cpuMs += total
      console.log(
        `${pair.name} ${agent.label} CPU per iteration: ${(total / results.length).toFixed(0)} ms ` +
          `(other threads than the main one: ${(helpers / results.length).toFixed(0)} ms)`,
      )
    }
  })
  console.log(
    `benchmark process CPU per iteration: ${((benchCpu.user + benchCpu.system) / 1000 / results.length).toFixed(0)} ms`,
  )
  if (machineBefore && machineAfter) {
    const busy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)
    console.log(`machine CPU busy during the run: ${(busy * 100).toFixed(0)} % of ${cpus().length} cores`)
  }
  console.log(`${pair.name} iterations/minute: ${Math.round((results.length / wallMs) * 60000)}`)
  pair.iterations += results.length
  pair.wallMs += wallMs
}

async function startPair(
  name: string,
  start: typeof startAgent,
  eventUrl: string,
  options: AgentOptions,
  sink: EventSink,
  started: Agent[],
) {
  // Each agent joins `started` as soon as it is up, so the caller stops it even when its peer failed to start.
  const startOne = async (role: string) => {
    const agent = await start(role, eventUrl, options)
    started.push(agent)
    return agent
  }
  // allSettled: a failure is thrown only once the other start has ended too, so nothing joins `started` after the
  // caller's cleanup ran.
  const [issuer, holder] = (await Promise.allSettled([startOne('issuer'), startOne('holder')])).map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason
    return outcome.value
  })
  const issuerDid = (await issuer.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
  const holderDid = (await holder.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
  const pair: Pair = {
    name,
    context: { issuer, holder, sink, issuerDid, holderDid },
    iterations: 0,
    wallMs: 0,
    cpuMs: 0,
  }
  return pair
}

async function main(): Promise<void> {
  const sequential = Number(process.env.BENCH_SEQUENTIAL ?? 20)
  const concurrent = Number(process.env.BENCH_CONCURRENT ?? 64)
  const workers = Number(process.env.BENCH_WORKERS ?? 32)
  // BENCH_STOCK=0 runs our pair alone (e.g. while bisecting); otherwise the stock Credo pair alternates with ours.
  const withStock = process.env.BENCH_STOCK !== '0'
  const sink = new EventSink()
  const server = await startSink(sink)
  const eventUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`
  const agents: Agent[] = []
  try {
    const options: AgentOptions = { databaseUrl: process.env.BENCH_DATABASE_URL, ...shippedAgentOptions() }
    const ours = await startPair('ours', startAgent, eventUrl, options, sink, agents)
    // The stock pair runs with plain Node options (none of our agents' settings), or BENCH_STOCK_NODE_ARGS to see what
    // one of those settings would give stock Credo.
    const stockOptions: AgentOptions = {
      nodeArgs: (process.env.BENCH_STOCK_NODE_ARGS ?? '').split(' ').filter(Boolean),
    }
    const stock = withStock
      ? await startPair('stock', startStockAgent, eventUrl, stockOptions, sink, agents)
      : undefined
    console.log(
      `agent benchmark: ${cpus().length} cores, load ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}, database ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${new Date().toISOString()}`,
    )

    for (const pair of stock ? [ours, stock] : [ours]) {
      await iteration(pair.context) // warm-up: JIT, JSON-LD contexts, first connections
      const sequentialResults: Record<Step, number>[] = []
      const sequentialStart = performance.now()
      for (let index = 0; index < sequential; index++) sequentialResults.push(await iteration(pair.context))
      if (sequential > 0) stepTable(`${pair.name}: sequential`, sequentialResults, performance.now() - sequentialStart)
    }

    // ABBA: ours, stock, stock, ours, so that drift (load, wallet growth) weighs on both pairs alike.
    for (const pair of stock ? [ours, stock, stock, ours] : [ours]) await phase(pair, concurrent, workers)

    console.log(`load after: ${loadavg()[0].toFixed(2)}`)
    const perMinute = (pair: Pair) => (pair.iterations / pair.wallMs) * 60000
    const summary = (pair: Pair) =>
      `${pair.name}: ${Math.round(perMinute(pair))} iterations/minute, ${(pair.cpuMs / pair.iterations).toFixed(0)} ms agent CPU per iteration (issuer + holder)`
    if (stock) {
      console.log(summary(ours))
      console.log(summary(stock))
      console.log(
        `ratio ours/stock: ${(perMinute(ours) / perMinute(stock)).toFixed(2)} (iterations/minute), CPU ${(ours.cpuMs / ours.iterations / (stock.cpuMs / stock.iterations)).toFixed(2)}`,
      )
    } else {
      console.log(summary(ours))
    }
    console.log(`iterations/minute: ${Math.round(perMinute(ours))}`)
  } finally {
    await Promise.all(agents.map(stopAgent))
    server.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
