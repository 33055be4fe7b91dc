import { createHash } from 'node:crypto'

import { IdplaneError } from '@idplane/common'
import { Client, Pool } from 'pg'

import type { SqlClient, SqlResult } from './sql-client'

/** Distinct statement texts prepared by name; the storage's are a few dozen, anything beyond runs unnamed. */
const MAX_PREPARED_STATEMENTS = 500

/** Schema names are interpolated into DDL, so only plain identifiers are accepted. */
export const SCHEMA_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/

/** Namespaces the advisory lock keys, so they do not meet another program's locks in the same database. */
const LOCK_KEY_PREFIX = 'idplane-agent-schema:'

/** The advisory lock key of an agent schema: the first 64 bits of a SHA-256 of its name, as pg's bigint. */
export function schemaLockKey(schema: string): string {
  return createHash('sha256')
    .update(LOCK_KEY_PREFIX + schema)
    .digest()
    .readBigInt64BE(0)
    .toString()
}

/**
 * PostgreSQL through a pg Pool. Every connection of the pool runs with `search_path` set to the agent's own
 * schema, so the same unqualified SQL serves many agents in one database.
 *
 * One writer per schema: the storage mirrors records in memory and would serve stale reads if a second process
 * wrote them, so a session-level advisory lock on the schema is held on a connection of its own for the client's
 * life. A second client on the same schema fails to connect; closing releases the lock. When that connection is
 * lost (a database restart) the lock is taken again before the next query, which fails if another process holds it.
 */
export class PgSqlClient implements SqlClient {
  /** Statement text → prepared statement name: the server parses and plans each text once per connection. */
  private readonly statementNames = new Map<string, string>()
  private lockHolder: Client | undefined
  private relocking: Promise<void> | undefined
  private closed = false

  private constructor(
    private readonly pool: Pool,
    private readonly url: string,
    private readonly schema: string,
  ) {}

  /**
   * Takes the schema's lock, creates the schema when missing, then opens a pool bound to it.
   * @throws IdplaneError when another process holds the schema
   */
  public static async connect(url: string, schema: string, maxConnections = 5): Promise<PgSqlClient> {
    if (!SCHEMA_NAME_PATTERN.test(schema)) throw new Error('Invalid schema name')
    const pool = new Pool({ connectionString: url, max: maxConnections, options: `-c search_path="${schema}"` })
    // An idle client that loses its server would otherwise crash the process through an unhandled 'error'.
    pool.on('error', () => undefined)
    const client = new PgSqlClient(pool, url, schema)
    try {
      await client.lock()
      await client.lockHolder?.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    } catch (error) {
      await client.close()
      throw error
    }
    return client
  }

  public async query<Row = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<SqlResult<Row>> {
    if (!this.lockHolder) await this.relock()
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
    this.closed = true
    await this.pool.end()
    // Ending the session releases its advisory lock, after the pool's last write.
    await this.lockHolder?.end().catch(() => undefined)
    this.lockHolder = undefined
  }

  private relock(): Promise<void> {
    this.relocking ??= this.lock().finally(() => (this.relocking = undefined))
    return this.relocking
  }

  private async lock(): Promise<void> {
    if (this.closed) throw new IdplaneError('The database client is closed')
    const holder = new Client({ connectionString: this.url })
    holder.on('error', () => undefined)
    try {
      await holder.connect()
      const { rows } = await holder.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [
        schemaLockKey(this.schema),
      ])
      if (rows[0]?.locked !== true) {
        throw new IdplaneError(
          `Agent schema "${this.schema}" is in use by another agent process (its advisory lock is held); ` +
            'only one process may serve an agent',
        )
      }
    } catch (error) {
      await holder.end().catch(() => undefined)
      throw error
    }
    // A lost lock connection means a lost lock: take it again before the next query.
    holder.once('end', () => {
      if (this.lockHolder === holder) this.lockHolder = undefined
    })
    this.lockHolder = holder
  }
}
