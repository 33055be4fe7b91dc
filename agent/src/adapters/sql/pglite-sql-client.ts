import { mkdirSync } from 'node:fs'
import path from 'node:path'

import { PGlite, type Results, type Transaction } from '@electric-sql/pglite'
import { acquireFileLock, PRIVATE_DIR_MODE, releaseFileLock, restrictFileCreation, restrictTree } from '@idplane/common'
import { PGDATA_DIR_NAME, pgliteTemplateArchive, preparePgliteDataDir } from '@idplane/common/pglite-template'

import type { SqlClient, SqlResult } from './sql-client'

const LOCK_FILE = 'idplane-agent.lock'

export interface PgliteOptions {
  /** `shared_buffers` in megabytes; PostgreSQL's default (128) when undefined. Resident in the WASM heap. */
  sharedBuffersMb?: number
}

/** Statements that change data: these are committed in groups. */
const WRITE_STATEMENT = /^\s*(?:INSERT|UPDATE|DELETE|WITH)\b/i

interface PendingWrite {
  sql: string
  params: readonly unknown[]
  resolve: (result: SqlResult<never>) => void
  reject: (error: unknown) => void
}

/**
 * In-process PGlite for embedded mode. PGlite has no lock on its data directory and two processes opening
 * one directory corrupt it (DESIGN.md, facts), so a pid lockfile guards it; a lock left by a dead process
 * (SIGKILL) is taken over.
 *
 * Group commit: writes issued in the same turn of the event loop (concurrent DIDComm exchanges write in bursts) run
 * in one transaction, so they share one commit, which costs as much CPU as the statement itself in PGlite. Each
 * caller's promise settles only after that commit. When one statement fails the transaction is rolled back and every
 * statement of the group runs again on its own, so each caller gets exactly the outcome it would have had alone.
 */
export class PgliteSqlClient implements SqlClient {
  private pending: PendingWrite[] = []
  private flushing: Promise<void> | undefined

  private constructor(
    private readonly db: PGlite,
    private readonly lockPath: string | undefined,
  ) {}

  /** Opens (creating when missing) the database in `dataDir`; `undefined` keeps it in memory (tests). */
  public static async open(dataDir?: string, options: PgliteOptions = {}): Promise<PgliteSqlClient> {
    const settings =
      options.sharedBuffersMb === undefined
        ? {}
        : { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb}MB`] }
    if (dataDir === undefined)
      return new PgliteSqlClient(
        await PGlite.create({ ...settings, loadDataDir: await pgliteTemplateArchive() }),
        undefined,
      )
    // Owner-only: PGlite creates its files 0666 and relies on the umask (docs/agent.md).
    restrictFileCreation()
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE })
    restrictTree(dataDir)
    const lockPath = path.join(dataDir, LOCK_FILE)
    acquireFileLock(lockPath, `Agent data directory ${dataDir}`)
    try {
      const pgdata = path.join(dataDir, PGDATA_DIR_NAME)
      await preparePgliteDataDir(pgdata)
      const db = await PGlite.create(pgdata, settings)
      // initdb writes its files 0666 whatever the umask; what PGlite creates later follows the umask.
      restrictTree(dataDir)
      return new PgliteSqlClient(db, lockPath)
    } catch (error) {
      releaseFileLock(lockPath)
      throw error
    }
  }

  public query<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
    if (!WRITE_STATEMENT.test(sql)) return this.run<Row>(this.db, sql, params)
    return new Promise<SqlResult<Row>>((resolve, reject) => {
      this.pending.push({ sql, params, resolve: resolve as PendingWrite['resolve'], reject })
      if (this.pending.length === 1) setImmediate(() => void this.flush())
    })
  }

  /** Commits the writes gathered so far; groups run one after another. */
  private async flush(): Promise<void> {
    const previous = this.flushing
    const group = this.pending
    this.pending = []
    const done = (async () => {
      await previous
      if (group.length === 0) return
      if (group.length === 1) return this.settleAlone(group[0])
      let results: SqlResult<never>[]
      try {
        results = await this.db.transaction(async (tx) => {
          const out: SqlResult<never>[] = []
          for (const write of group) out.push(await this.run<never>(tx, write.sql, write.params))
          return out
        })
      } catch {
        for (const write of group) await this.settleAlone(write)
        return
      }
      group.forEach((write, index) => write.resolve(results[index]))
    })()
    this.flushing = done
    await done
  }

  private async settleAlone(write: PendingWrite): Promise<void> {
    try {
      write.resolve(await this.run<never>(this.db, write.sql, write.params))
    } catch (error) {
      write.reject(error)
    }
  }

  private async run<Row>(
    target: Pick<PGlite | Transaction, 'query'>,
    sql: string,
    params: readonly unknown[],
  ): Promise<SqlResult<Row>> {
    const result: Results<Row> = await target.query<Row>(sql, params as unknown[])
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length }
  }

  public async close(): Promise<void> {
    // Writes still gathered are committed first (flush is scheduled, but close may come before it runs).
    if (this.pending.length > 0) await this.flush()
    await this.flushing
    await this.db.close()
    if (this.lockPath) releaseFileLock(this.lockPath)
  }
}
