/**
 * What a program's start costs, against a peer measured in the same run: by default the same build without V8's
 * compile cache (NODE_DISABLE_COMPILE_CACHE=1, what every start cost before common/compile-cache.ts); with
 * BENCH_PEER_ROOT, the build of another checkout (say the code before a change, in a git worktree with its own
 * `dist/`), both with their own warm cache. Programs: the agent on PostgreSQL and on PGlite, the API on PostgreSQL and
 * on its embedded defaults. Each start is a fresh `node dist/.../main.js` until it answers its readiness route; its
 * CPU is read from /proc/<pid>/stat at that moment. The two ways alternate (ABBA) so a change in the machine's load
 * falls on both; each cache directory is warmed by one start before the rounds, as a restarted pod or a second agent on
 * the same node finds it.
 *
 *   npm run bench:program-start          (BENCH_ROUNDS, default 3: each way started 2 x BENCH_ROUNDS times per program)
 *   BENCH_PEER_ROOT=/work/wt-before BENCH_PROGRAMS='API on PostgreSQL,agent on PostgreSQL' npm run bench:program-start
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'

import { cpuMsOf, positiveIntEnv } from './api-harness'
import { freshDatabase } from '../test/helpers/database'
import { freePort } from '../test/helpers/ports'

const ROUNDS = positiveIntEnv('BENCH_ROUNDS', 3)
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test'
const ROOT = path.resolve(__dirname, '..')
const PEER_ROOT = process.env.BENCH_PEER_ROOT ? path.resolve(process.env.BENCH_PEER_ROOT) : undefined

const PROGRAMS = ['agent on PostgreSQL', 'agent on PGlite', 'API on PostgreSQL', 'API (embedded)'] as const
type Program = (typeof PROGRAMS)[number]

/** One way of starting the programs: which build, with which compile-cache setting. */
interface Way {
  name: string
  root: string
  env: Record<string, string>
}

interface Start {
  wallMs: number
  cpuMs: number
}

/** `apiDatabaseUrl`: the API on PostgreSQL's database, migrated by the first start and shared by the later ones. */
async function startOnce(program: Program, way: Way, apiDatabaseUrl: string): Promise<Start> {
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-program-start-'))
  const isAgent = program.startsWith('agent')
  const env: Record<string, string> = isAgent
    ? {
        AGENT_LABEL: 'bench',
        AGENT_ADMIN_PORT: String(port),
        AGENT_INBOUND_PORT: String(await freePort()),
        AGENT_API_KEY: 'bench-api-key-0123456789abcdef',
        AGENT_WALLET_KEY: 'bench-wallet-key-0001',
        AGENT_DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...(program === 'agent on PostgreSQL'
          ? { AGENT_DATABASE_URL: DATABASE_URL, AGENT_DATABASE_SCHEMA: `bench_start_${port}` }
          : {}),
      }
    : {
        API_GATEWAY_PORT: String(port),
        API_GATEWAY_HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...(program === 'API on PostgreSQL' ? { DATABASE_URL: apiDatabaseUrl } : {}),
      }
  const started = performance.now()
  const child = spawn(process.execPath, [isAgent ? 'dist/agent/src/main.js' : 'dist/api/src/main.js'], {
    cwd: way.root,
    env: { PATH: process.env.PATH ?? '', ...way.env, ...env },
    stdio: 'ignore',
  })
  const ready = `http://127.0.0.1:${port}${isAgent ? '/agent' : '/health/live'}`
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${program} exited with ${child.exitCode}`)
      const ok = await fetch(ready).then(
        (response) => response.status === 200,
        () => false,
      )
      if (ok) return { wallMs: performance.now() - started, cpuMs: cpuMsOf(child.pid ?? 0) }
      if (performance.now() - started > 120_000) throw new Error(`${program} did not become ready`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** The peer first, then this build. */
function waysOf(cacheDirs: [string, string]): [Way, Way] {
  const ours: Way = { name: 'compile cache', root: ROOT, env: { NODE_COMPILE_CACHE: cacheDirs[1] } }
  if (PEER_ROOT === undefined) {
    return [{ name: 'no cache (peer)', root: ROOT, env: { NODE_DISABLE_COMPILE_CACHE: '1' } }, ours]
  }
  return [
    { name: `peer: ${PEER_ROOT}`, root: PEER_ROOT, env: { NODE_COMPILE_CACHE: cacheDirs[0] } },
    { ...ours, name: 'this build' },
  ]
}

function programsToRun(): Program[] {
  const named = (process.env.BENCH_PROGRAMS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const unknown = named.filter((name) => !(PROGRAMS as readonly string[]).includes(name))
  if (unknown.length > 0)
    throw new Error(`BENCH_PROGRAMS: unknown ${unknown.join(', ')}; known: ${PROGRAMS.join(', ')}`)
  return named.length > 0 ? (named as Program[]) : [...PROGRAMS]
}

async function main(): Promise<void> {
  const programs = programsToRun()
  const cacheDirs: [string, string] = [
    mkdtempSync(path.join(tmpdir(), 'bench-compile-cache-peer-')),
    mkdtempSync(path.join(tmpdir(), 'bench-compile-cache-')),
  ]
  const [peer, ours] = waysOf(cacheDirs)
  // One database per build for 'API on PostgreSQL' (each migrates its own), none when that program is not run.
  const apiDatabases = programs.includes('API on PostgreSQL')
    ? [await freshDatabase('postgres', DATABASE_URL), await freshDatabase('postgres', DATABASE_URL)]
    : []
  const apiDatabaseOf = (way: Way): string => {
    const target = apiDatabases[way === peer ? 0 : 1]?.target
    return target?.kind === 'postgres' ? target.url : ''
  }
  console.log(`Program start benchmark: ${ROUNDS} ABBA rounds per program, load ${loadavg()[0].toFixed(2)}`)
  const rows: string[] = []
  try {
    for (const program of programs) {
      for (const way of [peer, ours]) await startOnce(program, way, apiDatabaseOf(way))
      const results = new Map<Way, Start[]>([
        [peer, []],
        [ours, []],
      ])
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? [peer, ours] : [ours, peer]
        for (const way of [...order, ...[...order].reverse()]) {
          results.get(way)?.push(await startOnce(program, way, apiDatabaseOf(way)))
        }
      }
      const medianOf = (way: Way, key: keyof Start) => median((results.get(way) ?? []).map((start) => start[key]))
      for (const way of [peer, ours]) {
        rows.push(
          `| ${program} | ${way.name} | ${results.get(way)?.length} | ${medianOf(way, 'wallMs').toFixed(0)} | ` +
            `${medianOf(way, 'cpuMs').toFixed(0)} |`,
        )
      }
      const wallRatio = medianOf(ours, 'wallMs') / medianOf(peer, 'wallMs')
      const cpuRatio = medianOf(ours, 'cpuMs') / medianOf(peer, 'cpuMs')
      rows.push(`| ${program} | ratio ${ours.name} / peer | | ${wallRatio.toFixed(2)} | ${cpuRatio.toFixed(2)} |`)
    }
  } finally {
    for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true })
    for (const database of apiDatabases) await database.drop()
  }
  console.log('| program | way | starts | wall ms (median) | CPU ms (median) |')
  console.log('| --- | --- | --- | --- | --- |')
  for (const row of rows) console.log(row)
  console.log(`load at the end ${loadavg()[0].toFixed(2)}`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
