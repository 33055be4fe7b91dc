/**
 * Soak (issue 28): the chaos platform (bench/chaos-platform.ts) under the same exchange mix, without faults, for
 * SOAK_MINUTES; the resident memory of both API replicas, the organization agent and the holder sampled every
 * SOAK_SAMPLE_SECONDS, and the database size. At the end: each process's slope after the warm-up (least squares
 * over the samples after the first third of the run) against a bound, and the database growth per exchange.
 *
 *   npm run soak                                   (builds dist/ first; 60 minutes, a sample a minute)
 *   SOAK_MINUTES=5 SOAK_SAMPLE_SECONDS=20 npm run soak
 *
 * Settings: SOAK_MINUTES (60), SOAK_SAMPLE_SECONDS (60), SOAK_WORKERS (2), SOAK_SLOPE_BOUND_MB_PER_HOUR (20: a
 * process whose memory grows faster fails the run), SOAK_DATABASE_URL / SOAK_AMQP_URL (this machine's PostgreSQL
 * and RabbitMQ), SOAK_INDY (1), SOAK_RETENTION_SECONDS (600: the retention of delivered webhooks, sent mails and
 * expired short links in the run, with a pass a minute and links that expire after it, so that an hour shows the
 * tables stop growing; the production defaults are days).
 */
import { loadavg } from 'node:os'
import { positiveIntEnv } from './api-harness'
import { type ExchangeKind, Platform, rssMb } from './chaos-platform'

const MINUTES = Number(process.env.SOAK_MINUTES ?? '60')
const SAMPLE_MS = positiveIntEnv('SOAK_SAMPLE_SECONDS', 60) * 1000
const WORKERS = positiveIntEnv('SOAK_WORKERS', 2)
const BOUND = Number(process.env.SOAK_SLOPE_BOUND_MB_PER_HOUR ?? '20')
const DATABASE_URL = process.env.SOAK_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test'
const AMQP_URL = process.env.SOAK_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672'
const INDY = process.env.SOAK_INDY !== '0'
const RETENTION_SECONDS = positiveIntEnv('SOAK_RETENTION_SECONDS', 600)
/** The tables retention prunes (docs/reliability.md, "Retention"): their rows are sampled with the memory. */
const PRUNED_TABLES = ['webhook_deliveries', 'mail_outbox', 'short_urls'] as const
const MIX: ExchangeKind[] = ['connection', 'jsonld', 'proof', 'oob-email', 'indy', 'jsonld', 'connection', 'bulk']
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Sample {
  minute: number
  exchanges: number
  dbBytes: number
  rss: Record<string, number>
  rows: Record<string, number>
}

function log(line: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`)
}

/** Least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length
  if (n < 2) return Number.NaN
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n
  const sxy = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0)
  const sxx = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0)
  return sxx === 0 ? Number.NaN : sxy / sxx
}

async function main(): Promise<void> {
  log(
    `soak: ${MINUTES} min, a sample every ${SAMPLE_MS / 1000} s, ${WORKERS} in flight; load ${loadavg()[0].toFixed(1)}`,
  )
  const retention = String(RETENTION_SECONDS)
  const platform = new Platform({
    databaseUrl: DATABASE_URL,
    amqpUrl: AMQP_URL,
    indy: INDY,
    apiEnv: {
      WEBHOOK_DELIVERY_RETENTION_SECONDS: retention,
      MAIL_RETENTION_SECONDS: retention,
      SHORT_URL_TTL_SECONDS: String(Math.max(60, RETENTION_SECONDS)),
      SHORT_URL_RETENTION_SECONDS: '0',
      RETENTION_INTERVAL_SECONDS: '60',
    },
  })
  platform.stopOnSignals(log)
  let ok = false
  try {
    await platform.start(log)
    const runMs = MINUTES * 60_000
    const started = Date.now()
    const samples: Sample[] = []
    const take = async () => {
      const rss: Record<string, number> = {}
      for (const replica of platform.replicas) rss[replica.name] = rssMb(replica.child?.pid)
      rss['org agent'] = rssMb(platform.orgAgentPid())
      rss.holder = rssMb(platform.holder.process.pid)
      const sample = {
        minute: (Date.now() - started) / 60_000,
        exchanges: platform.exchanges.length,
        dbBytes: await platform.databaseBytes(),
        rss,
        rows: await platform.rowCounts(PRUNED_TABLES),
      }
      samples.push(sample)
      log(
        `sample ${sample.minute.toFixed(1)} min: ${sample.exchanges} exchanges, database ${(sample.dbBytes / 1e6).toFixed(1)} MB, ` +
          Object.entries(rss)
            .map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`)
            .join(', ') +
          '; rows ' +
          Object.entries(sample.rows)
            .map(([table, count]) => `${table} ${count}`)
            .join(', '),
      )
    }
    await take()
    const sampler = (async () => {
      while (Date.now() - started < runMs) {
        await sleep(Math.min(SAMPLE_MS, Math.max(0, runMs - (Date.now() - started))))
        await take()
      }
    })()
    let turn = 0
    await Promise.all([
      sampler,
      ...Array.from({ length: WORKERS }, async () => {
        while (Date.now() - started < runMs) {
          let kind = MIX[turn++ % MIX.length]
          if (kind === 'indy' && !INDY) kind = 'jsonld'
          const exchange = await platform.run(kind)
          if (exchange.outcome !== 'done') log(`exchange ${exchange.id} (${kind}) failed: ${exchange.reason}`)
        }
      }),
    ])

    const warm = samples.filter((sample) => sample.minute >= MINUTES / 3)
    console.log('\n| process | RSS first MB | RSS last MB | max MB | slope after warm-up MB/h | bound MB/h |')
    console.log('|---|---|---|---|---|---|')
    ok = true
    for (const name of Object.keys(samples[0].rss)) {
      const values = samples.map((sample) => sample.rss[name]).filter((value) => !Number.isNaN(value))
      const perHour = slope(warm.map((sample) => [sample.minute / 60, sample.rss[name]])) // MB per hour
      if (!(perHour <= BOUND)) ok = false
      console.log(
        `| ${name} | ${values[0]?.toFixed(0)} | ${values.at(-1)?.toFixed(0)} | ${Math.max(...values).toFixed(0)} | ` +
          `${perHour.toFixed(1)} | ${BOUND} |`,
      )
    }
    // Rows written before the retention has passed only grow; after it, pruning keeps pace and the count levels off.
    const settled = samples.filter((sample) => sample.minute * 60 >= RETENTION_SECONDS + 120)
    console.log(
      `\n| table (retention ${RETENTION_SECONDS} s) | rows first | rows max | rows last | slope after the retention rows/h |`,
    )
    console.log('|---|---|---|---|---|')
    for (const table of PRUNED_TABLES) {
      const counts = samples.map((sample) => sample.rows[table])
      const perHour = slope(settled.map((sample) => [sample.minute / 60, sample.rows[table]]))
      console.log(
        `| ${table} | ${counts[0]} | ${Math.max(...counts)} | ${counts.at(-1)} | ${Number.isNaN(perHour) ? 'n/a' : perHour.toFixed(0)} |`,
      )
    }
    const first = samples[0]
    const last = samples[samples.length - 1]
    const growth = last.dbBytes - first.dbBytes
    const done = platform.exchanges.filter((exchange) => exchange.outcome === 'done').length
    console.log(
      `\nexchanges: ${platform.exchanges.length} (${done} done); database ${(first.dbBytes / 1e6).toFixed(1)} MB → ` +
        `${(last.dbBytes / 1e6).toFixed(1)} MB, ${(growth / 1e3 / Math.max(1, last.exchanges - first.exchanges)).toFixed(1)} kB ` +
        `per exchange (API tables and the agents' schemas in one database); load ${loadavg()[0].toFixed(1)}`,
    )
    console.log(ok ? '\nmemory: flat within the bound' : '\nmemory: NOT flat (a slope above the bound)')
  } finally {
    await platform.stop().catch(() => undefined)
    await platform.cleanUp()
  }
  process.exit(ok ? 0 : 1)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(2)
})
