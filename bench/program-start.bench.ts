/**
 * What a program's start costs with V8's compile cache (common/compile-cache.ts) against without it
 * (NODE_DISABLE_COMPILE_CACHE=1, the peer: what every start cost before), for the agent on PostgreSQL and on PGlite
 * and for the API on its embedded defaults. Each start is a fresh `node dist/.../main.js` until it answers its
 * readiness route; its CPU is read from /proc/<pid>/stat at that moment. The two ways alternate (ABBA) so a change in
 * the machine's load falls on both; the cache directory is warmed by one start before the rounds, as a restarted pod
 * or a second agent on the same node finds it.
 *
 *   npm run bench:program-start          (BENCH_ROUNDS, default 3: each way started 2 x BENCH_ROUNDS times per program)
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'

import { positiveIntEnv } from './api-harness'
import { freePort } from '../test/helpers/ports'

const ROUNDS = positiveIntEnv('BENCH_ROUNDS', 3)
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test'
const ROOT = path.resolve(__dirname, '..')
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100

type Program = 'agent on PostgreSQL' | 'agent on PGlite' | 'API (embedded)'
type Way = 'no cache (peer)' | 'compile cache'

interface Start {
  wallMs: number
  cpuMs: number
}

function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}

async function startOnce(program: Program, way: Way, cacheDir: string): Promise<Start> {
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-program-start-'))
  const cacheEnv: Record<string, string> =
    way === 'compile cache' ? { NODE_COMPILE_CACHE: cacheDir } : { NODE_DISABLE_COMPILE_CACHE: '1' }
  const isAgent = program !== 'API (embedded)'
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
    : { API_GATEWAY_PORT: String(port), API_GATEWAY_HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
  const started = performance.now()
  const child = spawn(process.execPath, [isAgent ? 'dist/agent/src/main.js' : 'dist/api/src/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...cacheEnv, ...env },
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

async function main(): Promise<void> {
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'bench-compile-cache-'))
  const programs: Program[] = ['agent on PostgreSQL', 'agent on PGlite', 'API (embedded)']
  console.log(`Program start benchmark: ${ROUNDS} ABBA rounds per program, load ${loadavg()[0].toFixed(2)}`)
  const rows: string[] = []
  for (const program of programs) {
    await startOnce(program, 'compile cache', cacheDir)
    const results: Record<Way, Start[]> = { 'no cache (peer)': [], 'compile cache': [] }
    for (let round = 0; round < ROUNDS; round++) {
      const order: Way[] = round % 2 === 0 ? ['no cache (peer)', 'compile cache'] : ['compile cache', 'no cache (peer)']
      for (const way of [...order, ...[...order].reverse()]) results[way].push(await startOnce(program, way, cacheDir))
    }
    const peer = results['no cache (peer)']
    const ours = results['compile cache']
    const cpuRatio = median(ours.map((s) => s.cpuMs)) / median(peer.map((s) => s.cpuMs))
    const wallRatio = median(ours.map((s) => s.wallMs)) / median(peer.map((s) => s.wallMs))
    for (const [way, starts] of Object.entries(results)) {
      rows.push(
        `| ${program} | ${way} | ${starts.length} | ${median(starts.map((s) => s.wallMs)).toFixed(0)} | ` +
          `${median(starts.map((s) => s.cpuMs)).toFixed(0)} |`,
      )
    }
    rows.push(`| ${program} | ratio cache / peer | | ${wallRatio.toFixed(2)} | ${cpuRatio.toFixed(2)} |`)
  }
  rmSync(cacheDir, { recursive: true, force: true })
  console.log('| program | way | starts | wall ms (median) | CPU ms (median) |')
  console.log('| --- | --- | --- | --- | --- |')
  for (const row of rows) console.log(row)
  console.log(`load at the end ${loadavg()[0].toFixed(2)}`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
