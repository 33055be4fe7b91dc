import { Pool } from 'pg'

import type { SqlClient, SqlResult } from './sql-client'

/** Schema names are interpolated into DDL, so only plain identifiers are accepted. */
export const SCHEMA_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * PostgreSQL through a pg Pool. Every connection of the pool runs with `search_path` set to the agent's own
 * schema, so the same unqualified SQL serves many agents in one database.
 */
export class PgSqlClient implements SqlClient {
  private constructor(private readonly pool: Pool) {}

  /** Creates the schema when missing, then opens a pool bound to it. */
  public static async connect(url: string, schema: string, maxConnections = 5): Promise<PgSqlClient> {
    if (!SCHEMA_NAME_PATTERN.test(schema)) throw new Error('Invalid schema name')
    const bootstrap = new Pool({ connectionString: url, max: 1 })
    try {
      await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    } finally {
      await bootstrap.end()
    }
    const pool = new Pool({ connectionString: url, max: maxConnections, options: `-c search_path="${schema}"` })
    // An idle client that loses its server would otherwise crash the process through an unhandled 'error'.
    pool.on('error', () => undefined)
    return new PgSqlClient(pool)
  }

  public async query<Row = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<SqlResult<Row>> {
    const result = await this.pool.query(sql, params as unknown[])
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 }
  }

  public async close(): Promise<void> {
    await this.pool.end()
  }
}
