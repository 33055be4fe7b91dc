/**
 * What an embedded agent's writes cost as its database grows: the agent's record store (SqlStorageService) on PGlite
 * through PgliteSqlClient, an iteration being the writes of one DIDComm credential-and-proof exchange as `bench:agent`
 * counts them per agent (7 records saved with their messages and DIDs, 4 exchange records saved and updated 9 times),
 * 8 iterations in flight. Two databases in one run: "before" as the agent kept it until 2026-12 (the (context, type,
 * seq) index, no vacuum or analyze), then "now" (the schema and the client's maintenance as they ship). The last lines
 * print each one's CPU per iteration over the first and the last window, and their ratio (growth with size).
 *
 *   npm run bench:pglite-writes
 *   BENCH_PGLITE_ITERATIONS=2000 npm run bench:pglite-writes
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'

import { type AgentContext, BaseRecord, type TagsBase } from '@credo-ts/core'

import { PgliteSqlClient } from '../agent/src/adapters/sql/pglite-sql-client'
import { migrateSchema } from '../agent/src/adapters/sql/schema-migrations'
import { SqlStorageService } from '../agent/src/adapters/storage/sql-storage.service'
import { positiveIntEnv } from './api-harness'

const ITERATIONS = positiveIntEnv('BENCH_PGLITE_ITERATIONS', 1000)
const WINDOW = 100
const IN_FLIGHT = 8
const context = { contextCorrelationId: 'base' } as unknown as AgentContext

/** A record of a type given per instance (the store keys rows by `type`), standing for one of Credo's. */
class BenchRecord extends BaseRecord {
  public constructor(
    public override readonly type: string,
    public content: Record<string, unknown>,
  ) {
    super()
    this.id = randomUUID()
  }

  public getTags(): TagsBase {
    return this._tags
  }
}

/** A record whose JSON is about `bytes` long, as Credo's messages and exchange records are. */
function aRecord(type: string, bytes: number): BenchRecord {
  const record = new BenchRecord(type, { padding: randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64') })
  record.setTags({ threadId: randomUUID(), role: 'sender', state: 'start' })
  return record
}

/** The record types of one exchange, as the census of `bench:agent`'s issuer found them. */
const EXCHANGE_TYPES = ['OutOfBandRecord', 'ConnectionRecord', 'CredentialRecord', 'ProofRecord']

async function iteration(store: SqlStorageService<BenchRecord>): Promise<void> {
  const saved = [
    ...Array.from({ length: 5 }, () => aRecord('DidCommMessageRecord', 1600)),
    ...Array.from({ length: 2 }, () => aRecord('DidRecord', 600)),
  ]
  const exchanges = EXCHANGE_TYPES.map((type) => aRecord(type, 500))
  await Promise.all([...saved, ...exchanges].map((record) => store.save(context, record)))
  for (let step = 0; step < 9; step++) {
    const record = exchanges[step % exchanges.length]
    record.content = { ...record.content, step, extra: randomBytes(300 + (step % 3) * 300).toString('base64') }
    record.setTag('state', `state-${step}`)
    await store.update(context, record)
  }
}

interface Variant {
  name: string
  /** Runs after the schema's migration: what makes the database as it was. */
  prepare?: (sql: PgliteSqlClient) => Promise<void>
  maintenanceBaseWrites?: number
}

const VARIANTS: Variant[] = [
  {
    name: 'before',
    prepare: async (sql) => {
      await sql.query('CREATE INDEX records_context_type_seq_idx ON records (context_id, type, seq)')
    },
    maintenanceBaseWrites: Number.MAX_SAFE_INTEGER,
  },
  { name: 'now' },
]

async function run(variant: Variant): Promise<{ first: number; last: number; total: number; runs: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-pglite-writes-'))
  let runs = 0
  const sql = await PgliteSqlClient.open(dir, {
    sharedBuffersMb: 8,
    maintenance: {
      ...(variant.maintenanceBaseWrites === undefined ? {} : { baseWrites: variant.maintenanceBaseWrites }),
      onRun: () => runs++,
    },
  })
  try {
    await migrateSchema(sql)
    await variant.prepare?.(sql)
    const store = new SqlStorageService<BenchRecord>(sql)
    const windows: number[] = []
    let windowStart = process.cpuUsage()
    let started = 0
    let done = 0
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (started < ITERATIONS) {
          started++
          await iteration(store)
          done++
          if (done % WINDOW === 0) {
            const used = process.cpuUsage(windowStart)
            windows.push((used.user + used.system) / 1000 / WINDOW)
            windowStart = process.cpuUsage()
            console.log(`${variant.name}: ${done} iterations, ${windows.at(-1)?.toFixed(1)} ms CPU per iteration`)
          }
        }
      }),
    )
    const total = windows.reduce((sum, value) => sum + value, 0) / windows.length
    // The first window pays PGlite's warm-up; the second is the first of a steady state.
    return { first: windows[1] ?? windows[0], last: windows.at(-1) ?? 0, total, runs }
  } finally {
    await sql.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  console.log(
    `pglite-writes: ${ITERATIONS} iterations of 20 writes, ${IN_FLIGHT} in flight, load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}, ${new Date().toISOString()}`,
  )
  for (const variant of VARIANTS) {
    const result = await run(variant)
    console.log(
      `${variant.name}: ${result.first.toFixed(1)} ms CPU per iteration at ${2 * WINDOW}, ${result.last.toFixed(1)} at ${ITERATIONS} (x${(result.last / result.first).toFixed(2)}), mean ${result.total.toFixed(1)}; ${result.runs} vacuum-and-analyze runs (one at open)`,
    )
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
