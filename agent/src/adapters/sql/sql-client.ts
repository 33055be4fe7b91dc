/**
 * The few things the agent asks of a SQL database. Two implementations exist: a pg Pool (production,
 * PostgreSQL) and an in-process PGlite (embedded mode); storage, key store and outbox only see this.
 */
export interface SqlResult<Row> {
  rows: Row[]
  rowCount: number
}

export interface SqlClient {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<SqlResult<Row>>
  close(): Promise<void>
}
