import { Pool } from 'pg'

import type { SqlClient, SqlResult } from './sql-client'

/** Distinct statement texts prepared by name; the storage's are a few dozen, anything beyond runs unnamed. */
const MAX_PREPARED_STATEMENTS = 500

/** Schema names are interpolated into DDL, so only plain identifiers are accepted. */
export const SCHEMA_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * PostgreSQL through a pg Pool. Every connection of the pool runs with `search_path` set to the agent's own
 * schema, so the same unqualified SQL serves many agents in one database.
 */
export class PgSqlClient implements SqlClient {
  /** Statement text → prepared statement name: the server parses and plans each text once per connection. */
  private readonly statementNames = new Map<string, string>()

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
    const name = params.length > 0 ? this.statementName(sql) : undefined
    const result = await this.pool.query({ text: sql, values: params as unknown[], name })
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 }
  }

  private statementName(sql: string): string | undefined {
    let name = this.statementNames.get(sql)
    if (name === undefined && this.statementNames.size < MAX_PREPARED_STATEMENTS) {
      name = `idplane_${this.statementNames.size}`
      this.statementNames.set(sql, name)
    }
    return name
  }

  public async close(): Promise<void> {
    await this.pool.end()
  }
}
