import { mkdirSync } from 'node:fs'
import path from 'node:path'

import { parse, PGlite, protocol, type Results } from '@electric-sql/pglite'
import { acquireFileLock, PRIVATE_DIR_MODE, releaseFileLock, restrictFileCreation, restrictTree } from '@idplane/common'
import { type PgliteMaintenanceRun, timedVacuumAndAnalyze } from '@idplane/common/pglite-maintenance'
import { PGDATA_DIR_NAME, pgliteTemplateArchive, preparePgliteDataDir } from '@idplane/common/pglite-template'

import type { SqlClient, SqlResult } from './sql-client'

const LOCK_FILE = 'idplane-agent.lock'

export interface PgliteOptions {
  /** `shared_buffers` in megabytes; PostgreSQL's default (128) when undefined. Resident in the WASM heap. */
  sharedBuffersMb?: number
  maintenance?: Partial<PgliteMaintenance>
}

/**
 * PGlite runs PostgreSQL in single-user mode, where no autovacuum runs, so the client does its job on autovacuum's
 * rule: a run once the writes since the last exceed `baseWrites` plus `rowsFraction` of the rows the tables held then.
 */
export interface PgliteMaintenance {
  baseWrites: number
  rowsFraction: number
  /** Told of each run, with its error when it failed. */
  onRun?: (run: PgliteMaintenanceRun) => void
}

/** A run costs 0.1-0.2 s at 10,000 records (docs/benchmarks.md); autovacuum's own base is far lower. */
export const DEFAULT_PGLITE_MAINTENANCE: PgliteMaintenance = { baseWrites: 10_000, rowsFraction: 0.2 }

/** Statements that change data: these are committed in groups. */
const WRITE_STATEMENT = /^\s*(?:INSERT|UPDATE|DELETE|WITH)\b/i
/** Reads that run by name too (not DDL, VACUUM or anything else `query` takes as text). */
const READ_STATEMENT = /^\s*SELECT\b/i

interface PendingWrite {
  sql: string
  params: readonly unknown[]
  resolve: (result: SqlResult<never>) => void
  reject: (error: unknown) => void
}

/** A write's statement, parsed once under a name: each run then sends only its parameters. */
interface NamedStatement {
  name: string
  /** The parameters' types as PostgreSQL inferred them, which pick PGlite's serializers as its `query` does. */
  parameterTypes: readonly number[]
}

/**
 * Named statements per kind. The agent writes with a dozen fixed texts, and its reads take a few dozen shapes (a
 * record query's text follows its tags, not their values); more than this means texts built per call, left to
 * `query`. Separate counts, so that reads of many shapes never take the writes' names.
 */
const MAX_NAMED_STATEMENTS = { write: 64, read: 192 } as const
type StatementKind = keyof typeof MAX_NAMED_STATEMENTS

const { serialize } = protocol

/**
 * The messages of a named statement's run, written here: PGlite's serializer grows its buffer by copying as a
 * parameter is added, which for a record's JSON (kilobytes) cost more than PostgreSQL's own work on the statement.
 * Describe (portal) and Execute (portal, no row limit) never change; Bind is sized first and written once.
 */
export const DESCRIBE_PORTAL = Uint8Array.of(0x44, 0, 0, 0, 6, 0x50, 0)
export const EXECUTE_PORTAL = Uint8Array.of(0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0)

/** Bind of the unnamed portal to `statement`, every parameter and result in text format (as PGlite's query binds). */
export function bindMessage(statement: string, values: readonly (string | null)[]): Uint8Array {
  const statementBytes = Buffer.byteLength(statement)
  const valueBytes = values.map((value) => (value === null ? -1 : Buffer.byteLength(value)))
  // After the type byte: length, portal "", statement, a format code per parameter (0: text), the parameters, and no
  // result format codes (all text).
  let length = 4 + 1 + statementBytes + 1 + 2 + 2 * values.length + 2 + 2
  for (const bytes of valueBytes) length += 4 + Math.max(bytes, 0)
  const message = Buffer.alloc(1 + length)
  let offset = message.writeUInt8(0x42, 0)
  offset = message.writeInt32BE(length, offset)
  offset += 1
  offset += message.write(statement, offset)
  offset += 1
  offset = message.writeInt16BE(values.length, offset)
  offset += 2 * values.length
  offset = message.writeInt16BE(values.length, offset)
  values.forEach((value, index) => {
    offset = message.writeInt32BE(valueBytes[index], offset)
    if (value !== null) offset += message.write(value, offset)
  })
  return message
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
 *
 * A group goes to PGlite as one exchange of the extended protocol: each write's statement is parsed once under a
 * name, and a group is its writes' Bind, Describe and Execute messages followed by one Sync, which makes them one
 * implicit transaction. PGlite's `query` costs six calls into the database per statement (Parse, Describe, Bind,
 * Describe, Execute, Sync) and plans the statement each time; this is one call per group and no planning
 * (docs/decisions.md, "The embedded database's writes by named statements"). Reads (SELECT) run by name too, each at
 * once in one call of its own.
 *
 * Maintenance: with no autovacuum, nothing would ever analyze or vacuum the tables. Without statistics the planner
 * guesses (it took an index that read every record of a type for each update by key, until that index was dropped),
 * and without vacuum every update leaves its old row version behind. So the client vacuums and analyzes its schema's
 * tables when it opens an existing database, then on autovacuum's rule (above), between groups (docs/decisions.md,
 * "The embedded database's maintenance").
 */
export class PgliteSqlClient implements SqlClient {
  private pending: PendingWrite[] = []
  private flushing: Promise<void> | undefined
  private readonly named = new Map<string, NamedStatement>()
  private readonly namedOfKind: Record<StatementKind, number> = { write: 0, read: 0 }
  private namesGiven = 0
  private writesSinceMaintenance = 0
  private maintenanceAfterWrites: number

  private constructor(
    private readonly db: PGlite,
    private readonly lockPath: string | undefined,
    private readonly maintenance: PgliteMaintenance,
  ) {
    this.maintenanceAfterWrites = maintenance.baseWrites
  }

  /** Opens (creating when missing) the database in `dataDir`; `undefined` keeps it in memory (tests). */
  public static async open(dataDir?: string, options: PgliteOptions = {}): Promise<PgliteSqlClient> {
    const settings =
      options.sharedBuffersMb === undefined
        ? {}
        : { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb}MB`] }
    const maintenance = { ...DEFAULT_PGLITE_MAINTENANCE, ...options.maintenance }
    if (dataDir === undefined)
      return new PgliteSqlClient(
        await PGlite.create({ ...settings, loadDataDir: await pgliteTemplateArchive() }),
        undefined,
        maintenance,
      )
    // Owner-only: PGlite creates its files 0666 and relies on the umask (docs/agent.md).
    restrictFileCreation()
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE })
    restrictTree(dataDir)
    const lockPath = path.join(dataDir, LOCK_FILE)
    acquireFileLock(lockPath, `Agent data directory ${dataDir}`)
    try {
      const pgdata = path.join(dataDir, PGDATA_DIR_NAME)
      const existed = await preparePgliteDataDir(pgdata)
      const db = await PGlite.create(pgdata, settings)
      // initdb writes its files 0666 whatever the umask; what PGlite creates later follows the umask.
      restrictTree(dataDir)
      const client = new PgliteSqlClient(db, lockPath, maintenance)
      // Statistics of a database written before this client maintained it, or left stale by a crash; a new one (an
      // agent being provisioned) has nothing to vacuum yet.
      if (existed) await client.maintain()
      return client
    } catch (error) {
      releaseFileLock(lockPath)
      throw error
    }
  }

  public query<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<SqlResult<Row>> {
    if (READ_STATEMENT.test(sql)) return this.read<Row>(sql, params)
    if (!WRITE_STATEMENT.test(sql)) return this.run<Row>(sql, params)
    return new Promise<SqlResult<Row>>((resolve, reject) => {
      this.pending.push({ sql, params, resolve: resolve as PendingWrite['resolve'], reject })
      if (this.pending.length === 1) setImmediate(() => void this.flush())
    })
  }

  /**
   * A read by its named statement, at once (not gathered): Bind, Describe, Execute and Sync in one call, where
   * `query` makes six and plans the text each time. An agent whose reads all reached the database used a third less
   * CPU per exchange this way (a type past the mirror's limits reads so; docs/benchmarks.md). A read
   * that fails runs again through `query`, which reports its error as usual (a read changes nothing).
   */
  private async read<Row>(sql: string, params: readonly unknown[]): Promise<SqlResult<Row>> {
    const statement = await this.statementFor(sql, 'read')
    if (!statement) return this.run<Row>(sql, params)
    let answer: Awaited<ReturnType<PGlite['execProtocol']>>
    try {
      answer = await this.exchange([
        bindMessage(statement.name, this.serializeAll(statement, params)),
        DESCRIBE_PORTAL,
        EXECUTE_PORTAL,
        serialize.sync(),
      ])
    } catch {
      return this.run<Row>(sql, params)
    }
    const [result] = parse.parseResults(answer.messages, this.db.parsers) as Results<Row>[]
    // PGlite counts no affected rows for a SELECT; its row count is the rows, as the pg client gives it.
    return { rows: result.rows, rowCount: result.rows.length }
  }

  /** Commits the writes gathered so far; groups run one after another. */
  private async flush(): Promise<void> {
    const previous = this.flushing
    const group = this.pending
    this.pending = []
    const done = (async () => {
      await previous
      if (group.length === 0) return
      const byName: { write: PendingWrite; statement: NamedStatement }[] = []
      const unnamed: PendingWrite[] = []
      for (const write of group) {
        const statement = await this.statementFor(write.sql, 'write')
        if (statement) byName.push({ write, statement })
        else unnamed.push(write)
      }
      if (byName.length > 0) await this.runNamed(byName)
      for (const write of unnamed) await this.settleAlone(write)
      this.writesSinceMaintenance += group.length
      if (this.writesSinceMaintenance >= this.maintenanceAfterWrites) await this.maintain()
    })()
    this.flushing = done
    await done
  }

  /**
   * The statement of `sql` parsed under a name (once; Parse and Describe in one call), or undefined when it does not
   * parse or too many texts of its kind were named: then it goes through `query`, which reports its error as usual.
   */
  private async statementFor(sql: string, kind: StatementKind): Promise<NamedStatement | undefined> {
    const known = this.named.get(sql)
    if (known || this.namedOfKind[kind] >= MAX_NAMED_STATEMENTS[kind]) return known
    // A name is never given twice, so a Parse that succeeded before a failure cannot collide with a later one.
    const name = `idplane_${kind === 'write' ? 'w' : 'r'}${++this.namesGiven}`
    try {
      const { messages } = await this.exchange([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ])
      const description = messages.find(
        (message): message is InstanceType<typeof protocol.messages.ParameterDescriptionMessage> =>
          message.name === 'parameterDescription',
      )
      const statement = { name, parameterTypes: description?.dataTypeIDs ?? [] }
      this.named.set(sql, statement)
      this.namedOfKind[kind]++
      return statement
    } catch {
      return undefined
    }
  }

  /**
   * The writes as one implicit transaction in one call; each caller gets its write's result as `query` would give it.
   * A group that fails is rolled back whole, and each write then runs alone for its own outcome. Once the group has
   * committed, nothing runs again: a later failure (syncing files, reading the answer) rejects its callers.
   */
  private async runNamed(writes: readonly { write: PendingWrite; statement: NamedStatement }[]): Promise<void> {
    let answer: Awaited<ReturnType<PGlite['execProtocol']>>
    try {
      const messages: Uint8Array[] = []
      for (const { write, statement } of writes) {
        messages.push(
          bindMessage(statement.name, this.serializeAll(statement, write.params)),
          DESCRIBE_PORTAL,
          EXECUTE_PORTAL,
        )
      }
      messages.push(serialize.sync())
      answer = await this.exchange(messages)
    } catch {
      for (const { write } of writes) await this.settleAlone(write)
      return
    }
    try {
      await this.db.syncToFs()
      const results = parse.parseResults(answer.messages, this.db.parsers)
      if (results.length !== writes.length) throw new Error(`Expected ${writes.length} results, got ${results.length}`)
      // PGlite adds affected rows up over the commands of one exchange; each statement's own count is the step.
      let before = 0
      results.forEach((result, index) => {
        const affected = result.affectedRows ?? 0
        writes[index].write.resolve({ rows: result.rows as never[], rowCount: affected - before })
        before = affected
      })
    } catch (error) {
      for (const { write } of writes) write.reject(error)
    }
  }

  /**
   * A vacuum-and-analyze run, then the next one set by the rows the tables hold. Never throws (the writes queued
   * behind it must still run): a failed run is reported and tried again after as many writes.
   */
  private async maintain(): Promise<void> {
    // Each statement under PGlite's lock; the agent never leaves a transaction open between two of its calls.
    const run = await timedVacuumAndAnalyze(async <Row>(text: string) => (await this.db.query<Row>(text)).rows)
    if (run.live !== undefined) {
      this.maintenanceAfterWrites = this.maintenance.baseWrites + this.maintenance.rowsFraction * run.live
    }
    this.writesSinceMaintenance = 0
    this.maintenance.onRun?.(run)
  }

  /** Parameters in text form by PGlite's serializer of each parameter's type, as its `query` does. */
  private serializeAll(statement: NamedStatement, params: readonly unknown[]): (string | null)[] {
    return params.map((value, index) => {
      if (value === null || value === undefined) return null
      const serializer = this.db.serializers[statement.parameterTypes[index]]
      return serializer ? serializer(value) : String(value)
    })
  }

  /**
   * Protocol messages sent in one call, under PGlite's query lock (nothing else may interleave); the files are synced
   * by the caller, after it knows whether the statements succeeded.
   */
  private exchange(messages: readonly Uint8Array[]): ReturnType<PGlite['execProtocol']> {
    const frame = Buffer.concat(messages)
    return this.db.runExclusive(() => this.db.execProtocol(frame, { syncToFs: false }))
  }

  private async settleAlone(write: PendingWrite): Promise<void> {
    try {
      write.resolve(await this.run<never>(write.sql, write.params))
    } catch (error) {
      write.reject(error)
    }
  }

  private async run<Row>(sql: string, params: readonly unknown[]): Promise<SqlResult<Row>> {
    const result: Results<Row> = await this.db.query<Row>(sql, params as unknown[])
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
