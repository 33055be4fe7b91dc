import { mkdirSync } from 'node:fs'
import path from 'node:path'

import { PGlite } from '@electric-sql/pglite'
import { acquireFileLock, releaseFileLock } from '@idplane/common'

import type { SqlClient, SqlResult } from './sql-client'

const LOCK_FILE = 'idplane-agent.lock'

/**
 * In-process PGlite for embedded mode. PGlite has no lock on its data directory and two processes opening
 * one directory corrupt it (DESIGN.md, facts), so a pid lockfile guards it; a lock left by a dead process
 * (SIGKILL) is taken over.
 */
export class PgliteSqlClient implements SqlClient {
  private constructor(
    private readonly db: PGlite,
    private readonly lockPath: string | undefined,
  ) {}

  /** Opens (creating when missing) the database in `dataDir`; `undefined` keeps it in memory (tests). */
  public static async open(dataDir?: string): Promise<PgliteSqlClient> {
    if (dataDir === undefined) return new PgliteSqlClient(await PGlite.create(), undefined)
    mkdirSync(dataDir, { recursive: true })
    const lockPath = path.join(dataDir, LOCK_FILE)
    acquireFileLock(lockPath, `Agent data directory ${dataDir}`)
    try {
      return new PgliteSqlClient(await PGlite.create(path.join(dataDir, 'pgdata')), lockPath)
    } catch (error) {
      releaseFileLock(lockPath)
      throw error
    }
  }

  public async query<Row = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<SqlResult<Row>> {
    const result = await this.db.query<Row>(sql, params as unknown[])
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length }
  }

  public async close(): Promise<void> {
    await this.db.close()
    if (this.lockPath) releaseFileLock(this.lockPath)
  }
}
