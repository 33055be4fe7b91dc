/**
 * What a new embedded database costs: PGlite's initdb (the peer, what every agent and embedded API did before) against
 * a copy of the machine's template cluster (common/pglite-template.ts), for a file database (an agent's first start)
 * and an in-memory one (the tests' databases). Each open runs in a fresh Node process, as an agent's start does, and
 * reports its own CPU; the two ways alternate (ABBA) so a change in the machine's load falls on both.
 *
 *   npm run bench:pglite-template            (BENCH_ROUNDS, default 4: each way opened 2 × BENCH_ROUNDS times)
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'

import { pgliteTemplate } from '../common/pglite-template'
import { positiveIntEnv } from './api-harness'

const ROUNDS = positiveIntEnv('BENCH_ROUNDS', 4)
const PGLITE = require.resolve('@electric-sql/pglite')
const TEMPLATE = path.resolve(__dirname, '../dist/common/pglite-template.js')

type Way = 'file-initdb' | 'file-template' | 'memory-initdb' | 'memory-template'

/** One child process: opens a new database the given way, runs one statement, closes; prints its CPU and wall ms. */
function openOnce(way: Way, dir: string): { cpuMs: number; wallMs: number } {
  const script = `
    const started = performance.now()
    const { PGlite } = require(${JSON.stringify(PGLITE)})
    const template = require(${JSON.stringify(TEMPLATE)})
    const [way, dir] = process.argv.slice(1)
    ;(async () => {
      let db
      if (way === 'file-initdb') db = await PGlite.create(dir)
      else if (way === 'file-template') { await template.initialisePgliteDataDir(dir); db = await PGlite.create(dir) }
      else if (way === 'memory-initdb') db = await PGlite.create()
      else db = await PGlite.create({ loadDataDir: await template.pgliteTemplateArchive() })
      await db.query('select 1')
      await db.close()
      const cpu = process.cpuUsage()
      console.log(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - started }))
    })().catch((error) => { console.error(error); process.exit(1) })`
  return JSON.parse(execFileSync(process.execPath, ['-e', script, way, dir], { encoding: 'utf8' }).trim()) as {
    cpuMs: number
    wallMs: number
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'bench-pglite-template-'))
  await pgliteTemplate()
  console.log(`PGlite template benchmark: ${ROUNDS} ABBA rounds, load ${loadavg()[0].toFixed(2)}`)
  const results = new Map<Way, { cpuMs: number; wallMs: number }[]>()
  let counter = 0
  try {
    for (const [peer, ours] of [
      ['file-initdb', 'file-template'],
      ['memory-initdb', 'memory-template'],
    ] as const) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const way of [peer, ours, ours, peer]) {
          const dir = path.join(work, `db-${counter++}`)
          mkdirSync(dir)
          const result = openOnce(way, path.join(dir, 'pgdata'))
          results.set(way, [...(results.get(way) ?? []), result])
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  console.log('\n| new database | CPU ms (median) | wall ms (median) | opens |')
  console.log('|---|---|---|---|')
  for (const [way, list] of results) {
    console.log(
      `| ${way} | ${median(list.map((r) => r.cpuMs)).toFixed(0)} | ${median(list.map((r) => r.wallMs)).toFixed(0)} | ${list.length} |`,
    )
  }
  const cpu = (way: Way) => median((results.get(way) ?? []).map((r) => r.cpuMs))
  console.log(`\nload ${loadavg()[0].toFixed(2)}`)
  console.log(`ratio file: template/initdb CPU ${(cpu('file-template') / cpu('file-initdb')).toFixed(2)}`)
  console.log(`ratio memory: template/initdb CPU ${(cpu('memory-template') / cpu('memory-initdb')).toFixed(2)}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
