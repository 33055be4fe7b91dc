import { performance } from 'node:perf_hooks'

import type { Histogram } from 'prom-client'

import type { Logger } from './logger'

/**
 * PGlite runs PostgreSQL in single-user mode, where autovacuum never runs: nothing vacuums or analyzes an embedded
 * database unless its owner does. Without statistics the planner guesses (it took a wrong index for the agent's
 * updates by key), and without vacuum every update's and delete's old row version stays (docs/decisions.md, "The
 * embedded database's maintenance"). Run by the agent's SQL client and by the API's database.
 */

const TABLES = `SELECT format('%I', tablename) AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`
const LIVE_ROWS = `SELECT coalesce(sum(greatest(reltuples, 0)), 0)::float8 AS live FROM pg_class
  WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace`

/** One run's outcome: how long it took, and the rows the tables hold after it or its error. */
export interface PgliteMaintenanceRun {
  seconds: number
  live?: number
  error?: unknown
}

/** Runs one statement on the database's single session, outside any transaction, and gives its rows. */
export type MaintenanceQuery = <Row>(text: string) => Promise<Row[]>

/** VACUUM (ANALYZE) of every table in the session's current schema; resolves to the rows they hold afterwards. */
export async function vacuumAndAnalyze(query: MaintenanceQuery): Promise<number> {
  const tables = await query<{ name: string }>(TABLES)
  if (tables.length > 0) await query(`VACUUM (ANALYZE) ${tables.map((table) => table.name).join(', ')}`)
  const [totals] = await query<{ live: number }>(LIVE_ROWS)
  return Number(totals?.live ?? 0)
}

/** A run, timed; never rejects (a failure is in the outcome). */
export async function timedVacuumAndAnalyze(query: MaintenanceQuery): Promise<PgliteMaintenanceRun> {
  const started = performance.now()
  const seconds = () => (performance.now() - started) / 1000
  try {
    const live = await vacuumAndAnalyze(query)
    return { seconds: seconds(), live }
  } catch (error) {
    return { seconds: seconds(), error }
  }
}

/** A run observed in its program's histogram (`outcome`: done or failed); a failed one logged. */
export function reportMaintenanceRun(run: PgliteMaintenanceRun, histogram: Histogram | undefined, logger: Logger) {
  histogram?.observe({ outcome: run.error === undefined ? 'done' : 'failed' }, run.seconds)
  if (run.error !== undefined) {
    logger.warn('Vacuum and analyze of the embedded database failed; tried again later', { error: run.error })
  }
}
