/**
 * Agent heap growth per exchange: runs a real issuer/holder pair from dist/ (PostgreSQL), takes a V8 heap snapshot
 * of each (a snapshot collects garbage first) after a warm-up and again after each further batch of iterations,
 * and prints the live heap size and the constructors whose retained count grew most between the last two.
 *
 *   npx ts-node bench/agent-heap.bench.ts   (or: node -r ./bench/register-ts.cjs bench/agent-heap.bench.ts)
 *   BENCH_AGENT_ENV=AGENT_RECORD_MIRROR_MB=0 (extra agent environment)
 *   BENCH_WARMUP=50 BENCH_EXCHANGES=100 BENCH_ROUNDS=2 BENCH_WORKERS=4 BENCH_SNAPSHOT_DIR=/tmp/agent-heap
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

import { AGENT_COMMAND_LINE_OPTIONS, AGENT_MALLOC_ENV } from '../common/agent-node-options'
import { type Agent, type Context, EventSink, iteration, startAgent, startSink, stopAgent } from './agent-harness'

interface Census {
  heapMb: number
  byName: Map<string, { count: number; size: number }>
}

/** Counts a snapshot's nodes by type and constructor name (node fields from the snapshot's own meta). */
function census(file: string): Census {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }
    nodes: number[]
    strings: string[]
  }
  const fields = snapshot.snapshot.meta.node_fields
  const width = fields.length
  const typeAt = fields.indexOf('type')
  const nameAt = fields.indexOf('name')
  const sizeAt = fields.indexOf('self_size')
  const types = snapshot.snapshot.meta.node_types[0]
  const byName = new Map<string, { count: number; size: number }>()
  let total = 0
  for (let offset = 0; offset < snapshot.nodes.length; offset += width) {
    const type = types[snapshot.nodes[offset + typeAt]]
    const name =
      type === 'string' || type === 'concatenated string' || type === 'sliced string'
        ? '(string)'
        : `${type}:${snapshot.strings[snapshot.nodes[offset + nameAt]].slice(0, 80)}`
    const size = snapshot.nodes[offset + sizeAt]
    total += size
    const entry = byName.get(name) ?? { count: 0, size: 0 }
    entry.count++
    entry.size += size
    byName.set(name, entry)
  }
  return { heapMb: total / 1048576, byName }
}

async function snapshot(agent: Agent, directory: string): Promise<string> {
  const before = new Set(readdirSync(directory))
  agent.process.kill('SIGUSR2')
  // The file appears when writing starts; wait until its size stops changing.
  for (let waited = 0; waited < 600; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const added = readdirSync(directory).filter((name) => !before.has(name) && name.endsWith('.heapsnapshot'))
    if (added.length > 0) {
      const file = path.join(directory, added[0])
      let last = -1
      for (;;) {
        const size = readFileSync(file).length
        if (size === last && size > 0) {
          try {
            JSON.parse(readFileSync(file, 'utf8'))
            return file
          } catch {
            // still being written
          }
        }
        last = size
        await new Promise((resolve) => setTimeout(resolve, 2000))
      }
    }
  }
  throw new Error(`No heap snapshot from ${agent.label}`)
}

function diff(label: string, from: Census, to: Census, exchanges: number): void {
  console.log(
    `\n${label}: live heap ${from.heapMb.toFixed(1)} → ${to.heapMb.toFixed(1)} MB over ${exchanges} iterations`,
  )
  const rows = [...to.byName].map(([name, now]) => {
    const was = from.byName.get(name) ?? { count: 0, size: 0 }
    return { name, count: now.count - was.count, size: now.size - was.size, total: now.count }
  })
  rows.sort((a, b) => b.size - a.size)
  for (const row of rows.slice(0, 25))
    console.log(
      `  ${(row.size / 1024).toFixed(0).padStart(7)} KB ${String(row.count).padStart(7)} objects (${row.total} now)  ${row.name}`,
    )
}

function extraEnv(): Record<string, string> {
  return Object.fromEntries(
    (process.env.BENCH_AGENT_ENV ?? '')
      .split(' ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  )
}

async function main(): Promise<void> {
  const warmup = Number(process.env.BENCH_WARMUP ?? 50)
  const exchanges = Number(process.env.BENCH_EXCHANGES ?? 100)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  const workers = Number(process.env.BENCH_WORKERS ?? 4)
  const directory = process.env.BENCH_SNAPSHOT_DIR ?? '/tmp/agent-heap'
  rmSync(directory, { recursive: true, force: true })
  mkdirSync(directory, { recursive: true })
  const sink = new EventSink()
  const server = await startSink(sink)
  const eventUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`
  const options = {
    databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    // e.g. BENCH_AGENT_ENV=AGENT_RECORD_MIRROR_MB=0 adds to the agents' environment
    env: { ...AGENT_MALLOC_ENV, ...extraEnv() },
    nodeArgs: [...AGENT_COMMAND_LINE_OPTIONS, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${directory}`],
  }
  const agents: Agent[] = []
  try {
    const [issuer, holder] = await Promise.all([
      startAgent('issuer', eventUrl, options),
      startAgent('holder', eventUrl, options),
    ])
    agents.push(issuer, holder)
    const issuerDid = (await issuer.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
    const holderDid = (await holder.call<{ did: string }>('POST', '/dids', { method: 'key' })).did
    const context: Context = { issuer, holder, sink, issuerDid, holderDid }
    const run = async (count: number) => {
      let next = 0
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (next < count) {
            next++
            await iteration(context)
          }
        }),
      )
    }
    await run(warmup)
    const censuses: Census[][] = []
    for (let round = 0; round <= rounds; round++) {
      if (round > 0) await run(exchanges)
      const files = []
      for (const agent of agents) files.push(await snapshot(agent, directory))
      censuses.push(files.map(census))
      console.log(
        `round ${round}: live heap ${censuses[round].map((c) => c.heapMb.toFixed(1)).join(' / ')} MB (issuer / holder)`,
      )
      if (round > 1) for (const file of files) rmSync(file)
    }
    for (const [index, agent] of agents.entries())
      diff(agent.label, censuses[1][index], censuses[rounds][index], exchanges * (rounds - 1))
  } finally {
    await Promise.all(agents.map(stopAgent))
    server.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
