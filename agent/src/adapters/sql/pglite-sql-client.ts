import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import path from 'node:path'

import { PGlite } from '@electric-sql/pglite'

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
    takeLock(lockPath)
    try {
      return new PgliteSqlClient(await PGlite.create(path.join(dataDir, 'pgdata')), lockPath)
    } catch (error) {
      rmSync(lockPath, { force: true })
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
    if (this.lockPath) rmSync(this.lockPath, { force: true })
  }
}

function takeLock(lockPath: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number(readFileSync(lockPath, 'utf8').trim())
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new Error(`Data directory is in use by process ${owner}`)
      }
      rmSync(lockPath, { force: true })
    }
  }
  throw new Error('Could not lock the data directory')
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
