/**
 * PGlite runs PostgreSQL in single-user mode, where autovacuum never runs: nothing vacuums or analyzes an embedded
 * database unless its owner does. Without statistics the planner guesses (it took a wrong index for the agent's
 * updates by key), and without vacuum every update's and delete's old row version stays (docs/decisions.md, "The
 * embedded database's maintenance"). Run by the agent's SQL client and by the API's database.
 */

const TABLES = `SELECT format('%I', tablename) AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`
const LIVE_ROWS = `SELECT coalesce(sum(greatest(reltuples, 0)), 0)::float8 AS live FROM pg_class
  WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace`

/** One run's outcome, for a metric: how long it took and its error when it failed. */
export interface PgliteMaintenanceRun {
  seconds: number
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
