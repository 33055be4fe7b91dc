import {
  LockMode,
  ReferenceKind,
  RequestContext,
  Utils,
  wrap,
  type EntityClass,
  type EntityData,
  type FilterQuery,
  type FindOptions,
  type QueryOrderMap,
  type RequiredEntityData,
} from '@mikro-orm/core'
import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { NotFoundError } from '@idplane/common'
import { pageOffset } from '../http/pagination'
import { PreparedStatement, type PreparedResult } from './prepared-statement'

/** A page request as the list routes take it. */
export interface PageRequest {
  pageNumber: number
  pageSize: number
}

/**
 * A row of an exchange store, locked until the transaction ends; `isNew` when this call inserted it. `save` writes
 * the changes made to it since (in the same transaction).
 */
export interface LockedRow<T> {
  row: T
  isNew: boolean
  save(): Promise<void>
}

/** What an exchange store's row is created from: its columns; `id` and `createdAt` when the record brings them. */
type ExchangeColumns<T> = Partial<T> & { id?: string; createdAt?: Date }

/**
 * The one place a module reaches the entity manager (docs/architecture.md, "Repositories"): every module
 * repository extends this (or OrgRepository), and nothing outside repositories and infra/db touches
 * `EntityManager` (infra/db/entity-manager-use.test.ts checks it).
 *
 * Inside `transactional()` every repository's queries join the transaction: the entity manager is the request's
 * (or the transaction's) fork, found through MikroORM's context.
 */
export abstract class BaseRepository<T extends object> {
  /** This entity's prepared locking reads (findLocked), by their key columns. */
  private readonly lockingReads = new Map<string, PreparedStatement>()
  /** This entity's prepared inserts of exchange rows (insertUnlessPresent), by the columns they write. */
  private readonly exchangeInserts = new Map<string, PreparedStatement>()
  /** This entity's prepared updates of exchange rows (saveExchange), by the columns they set. */
  private readonly exchangeUpdates = new Map<string, PreparedStatement>()
  /**
   * The exchange rows this repository handed out unmanaged (exchangeRowOf), each with MikroORM's snapshot of it as
   * read or last written: saveExchange writes what differs from it.
   */
  private readonly exchangeSnapshots = new WeakMap<object, EntityData<T>>()
  /** Whether this entity's rows can be held unmanaged (exchangeColumnsOf), found at the first exchange row. */
  private exchangeColumns: Map<string, string> | null | undefined

  protected constructor(
    protected readonly em: EntityManager,
    protected readonly entity: EntityClass<T>,
  ) {}

  /** Runs `work` in one transaction (or joins the caller's); every repository's calls inside it join it. */
  public transactional<R>(work: () => Promise<R>): Promise<R> {
    return this.em.transactional(() => work())
  }

  /**
   * Runs background work (a queue job, a start-up task, a metrics scrape) with an identity map of its own, as a
   * request has; every repository's calls inside it share that context.
   */
  public inOwnContext<R>(work: () => Promise<R>): Promise<R> {
    return RequestContext.create(this.em, work)
  }

  /** Writes the changes made to loaded and created entities. */
  public flush(): Promise<void> {
    return this.em.flush()
  }

  /**
   * Writes an exchange row that lockOrCreateExchange handed out (in the transaction that locked it): the columns that
   * differ from the row as read, by one prepared update, and the `onUpdate` columns with them (`updatedAt`); nothing
   * when none differs. A row the context manages (exchangeRowOf) is written by flush.
   */
  private async saveExchange(row: T): Promise<void> {
    const snapshot = this.exchangeSnapshots.get(row)
    const columns = snapshot && this.exchangeColumnsOf()
    if (!snapshot || !columns) return this.em.flush()
    const meta = this.em.getMetadata(this.entity)
    const comparator = this.em.getComparator()
    if (Object.keys(comparator.diffEntities(meta.class, snapshot, comparator.prepareEntity(row))).length === 0) return
    for (const prop of meta.props) {
      if (prop.onUpdate) (row as Record<string, unknown>)[prop.name] = prop.onUpdate(row, this.em)
    }
    const current = comparator.prepareEntity(row)
    const changed = Object.keys(comparator.diffEntities(meta.class, snapshot, current)).sort()
    const statement = statementFor(this.exchangeUpdates, changed.join(','), 'save', () => {
      const sets = changed.map((name) => `"${columns.get(name)}" = ?`).join(', ')
      return `update "${meta.tableName}" set ${sets} where "${columns.get(meta.primaryKeys[0])}" = ?`
    })
    // The snapshot is in database form already: JSON as its text, a reference as its key.
    const values = current as Record<string, unknown>
    const params = changed.map((name) => values[name] ?? null)
    await this.runPreparedInTransaction(statement, [...params, values[meta.primaryKeys[0]]])
    this.exchangeSnapshots.set(row, current)
  }

  /**
   * The one way a repository handles the insert race: the row `where` names, locked until the transaction ends;
   * inserted from `row` first when there is none. A row that exists (most calls) is found by one locking read.
   * When there is none, the insert race (an agent event and the creating request both arriving first) ends in one
   * row: the insert does nothing on a unique conflict (waiting for a concurrent inserter to commit), and the locking
   * read that follows sees the winner's row; the row the insert made is its answer (no read after it). The same
   * statements on PostgreSQL and PGlite. Call inside `transactional()`.
   * @param mayCreate asked only when there is no row yet; false leaves it uncreated (null)
   * @returns null when the row that exists does not match `where` (another organization's record with this id), or
   *   when `mayCreate` refused
   */
  protected async lockOrCreateRow(
    where: FilterQuery<T>,
    row: RequiredEntityData<T>,
    mayCreate?: () => Promise<boolean>,
  ): Promise<{ entity: T; isNew: boolean } | null> {
    const stored = await this.findLocked(where)
    if (stored) return { entity: stored, isNew: false }
    if (mayCreate && !(await mayCreate())) return null
    // The row this insert made is this transaction's until it commits (locked as the read would lock it): it is
    // taken from the insert's answer, not read again. A conflict answers nothing, and the winner's row is read.
    const inserted = await this.insertUnlessPresent(row)
    if (inserted) return { entity: this.exchangeRowOf(inserted), isNew: true }
    const entity = await this.findLocked(where)
    return entity ? { entity, isNew: false } : null
  }

  /**
   * An exchange store's `lockOrCreate` (the insert race, over lockOrCreateRow): the row `key` names (its unique key,
   * the owner's column included), locked; inserted first when absent from `columns` and `key`, with a new id and
   * `createdAt` now unless the columns bring them, and `updatedAt` now.
   * @param options.missing the NotFoundError's message when there is no row: for a `key` that is the row's unique
   *   key, where the row inserted or the one that won the race is always found
   * @param options.mayCreate as lockOrCreateRow's
   * @returns null when the row that exists is another owner's (`key` not unique) or `mayCreate` refused
   */
  protected lockOrCreateExchange(
    key: FilterQuery<T>,
    columns: ExchangeColumns<T>,
    options: { missing: string },
  ): Promise<LockedRow<T>>
  protected lockOrCreateExchange(
    key: FilterQuery<T>,
    columns: ExchangeColumns<T>,
    options?: { mayCreate?: () => Promise<boolean> },
  ): Promise<LockedRow<T> | null>
  protected async lockOrCreateExchange(
    key: FilterQuery<T>,
    columns: ExchangeColumns<T>,
    options: { missing?: string; mayCreate?: () => Promise<boolean> } = {},
  ): Promise<LockedRow<T> | null> {
    const now = new Date()
    const row = {
      ...columns,
      ...(key as object),
      id: columns.id ?? randomUUID(),
      createdAt: columns.createdAt ?? now,
      updatedAt: now,
    } as unknown as RequiredEntityData<T>
    const locked = await this.lockOrCreateRow(key, row, options.mayCreate)
    if (!locked && options.missing) throw new NotFoundError(options.missing)
    return locked && { row: locked.entity, isNew: locked.isNew, save: () => this.saveExchange(locked.entity) }
  }

  /**
   * The row `where` names, read afresh and locked until the transaction ends. An exchange store's key (columns equal
   * to plain values) is read by a prepared statement (lockingReadOf) and taken into the entity manager as MikroORM's
   * own read would take it (`map`: merged, refreshed); any other `where` by MikroORM's locking `findOne`.
   */
  private async findLocked(where: FilterQuery<T>): Promise<T | null> {
    const read = this.lockingReadOf(where)
    if (!read) {
      return this.em.findOne(this.entity, where as never, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
    }
    const { rows } = await this.runPreparedInTransaction<Record<string, unknown>>(read.statement, read.values)
    return rows.length > 0 ? this.exchangeRowOf(rows[0]) : null
  }

  /**
   * Inserts `row` unless a row with one of its unique keys is there (`on conflict do nothing`, waiting for a
   * concurrent inserter to commit); the row inserted, as the database answers it, or undefined. By a prepared insert
   * of the columns `row` gives (one text per set of columns: a few per exchange entity) when the entity's rows can be
   * held unmanaged (exchangeColumnsOf), else by MikroORM's query builder.
   */
  private async insertUnlessPresent(row: RequiredEntityData<T>): Promise<Record<string, unknown> | undefined> {
    const given = row as Record<string, unknown>
    const names = Object.keys(given)
      .filter((name) => given[name] !== undefined)
      .sort()
    const columns = this.exchangeColumnsOf()
    if (!columns || names.some((name) => !columns.has(name))) {
      const [inserted] = await this.em
        .createQueryBuilder(this.entity)
        .insert(row)
        .onConflict()
        .ignore()
        .returning('*' as never)
        .execute<Record<string, unknown>[]>('all', false)
      return inserted
    }
    const meta = this.em.getMetadata(this.entity)
    const statement = statementFor(this.exchangeInserts, names.join(','), 'insert', () => {
      const list = names.map((name) => `"${columns.get(name)}"`).join(', ')
      return `insert into "${meta.tableName}" (${list}) values (${names.map(() => '?').join(', ')})
        on conflict do nothing returning *`
    })
    const platform = this.em.getPlatform()
    const values = names.map((name) => {
      const prop = meta.properties[name as keyof typeof meta.properties]
      const value = given[name]
      if (value === null) return null
      // A reference goes in as its key; a scalar as its type writes it (JSON as its text).
      if (prop.kind === ReferenceKind.MANY_TO_ONE)
        return Utils.isEntity(value) ? wrap(value, true).getPrimaryKey() : value
      return prop.customType ? prop.customType.convertToDatabaseValue(value, platform, { mode: 'query' }) : value
    })
    const { rows } = await this.runPreparedInTransaction<Record<string, unknown>>(statement, values)
    return rows[0]
  }

  /**
   * An exchange row from its columns as the database answered them: unmanaged, outside the entity manager's identity
   * map, so that neither taking it in nor the commit's change-set computation costs the exchange path, the API's most
   * repeated work (docs/benchmarks.md, "Exchange rows outside the entity manager"); saveExchange writes it. Taken into
   * the entity manager (`map`: merged, refreshed) instead when the context already manages that row (a request read
   * it before the exchange path locked it: the one instance it holds stays current) or when the entity has a property
   * the prepared update cannot write (exchangeColumnsOf).
   */
  private exchangeRowOf(raw: Record<string, unknown>): T {
    const meta = this.em.getMetadata(this.entity)
    if (!this.exchangeColumnsOf()) return this.em.map(this.entity, raw as never)
    const data = this.em.getDriver().mapResult(raw as EntityData<T>, meta) as EntityData<T>
    const id = (data as Record<string, unknown>)[meta.primaryKeys[0]]
    if (this.em.getUnitOfWork().getById(meta.class, id as never)) return this.em.map(this.entity, raw as never)
    const row: T = this.em.getEntityFactory().create(this.entity, data as never, {
      merge: false,
      refresh: true,
      convertCustomTypes: true,
    })
    this.exchangeSnapshots.set(row, this.em.getComparator().prepareEntity(row) as EntityData<T>)
    return row
  }

  /**
   * The column of each property when every property the entity persists is a scalar or a reference to one row, in
   * one column (every exchange entity): then saveExchange can write any change. Null otherwise.
   */
  private exchangeColumnsOf(): Map<string, string> | null {
    if (this.exchangeColumns !== undefined) return this.exchangeColumns
    const meta = this.em.getMetadata(this.entity)
    const persisted = meta.props.filter((prop) => prop.persist !== false)
    const isSimple = (prop: (typeof persisted)[number]) =>
      (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE) && prop.fieldNames?.length === 1
    this.exchangeColumns =
      meta.primaryKeys.length === 1 && persisted.every(isSimple)
        ? new Map(persisted.map((prop) => [prop.name, prop.fieldNames[0]]))
        : null
    return this.exchangeColumns
  }

  /**
   * The prepared locking read of `where` (one per set of key columns, made at its first use): when every member of
   * `where` is a property stored in one column and equal to a string or a number, as every exchange store's key is;
   * else null. The exchange path's most repeated statement (one per agent event): prepared, the server plans it once
   * per connection instead of once per event, and the read skips MikroORM's query building.
   */
  private lockingReadOf(where: FilterQuery<T>): { statement: PreparedStatement; values: unknown[] } | null {
    const meta = this.em.getMetadata(this.entity)
    if (meta.schema && meta.schema !== 'public') return null
    const columns: string[] = []
    const values: unknown[] = []
    for (const [name, value] of Object.entries(where as Record<string, unknown>)) {
      const fieldNames = (meta.properties as Record<string, { fieldNames?: string[] } | undefined>)[name]?.fieldNames
      if (fieldNames?.length !== 1 || (typeof value !== 'string' && typeof value !== 'number')) return null
      columns.push(fieldNames[0])
      values.push(value)
    }
    if (columns.length === 0) return null
    const statement = statementFor(this.lockingReads, columns.join(','), 'lock', () => {
      const condition = columns.map((column) => `"${column}" = ?`).join(' and ')
      return `select * from "${meta.tableName}" where ${condition} limit 1 for update`
    })
    return { statement, values }
  }

  /**
   * Runs a prepared statement (prepared-statement.ts) with `values`, outside any transaction: on a connection of the
   * ORM's pool, as `getConnection().execute` runs a statement without a transaction context. For work that must
   * commit on its own even when it runs in a transaction's async context (an outbox relay woken by a commit). Counted
   * with the statements the ORM sends (its `onQuery` hook). PostgreSQL's errors arrive as `pg` raises them, not as
   * MikroORM's exceptions (isDatabaseUnavailable reads both).
   */
  protected async runPrepared<R>(statement: PreparedStatement, values: readonly unknown[]): Promise<PreparedResult<R>> {
    const params = this.countedParams(statement, values)
    const pool = await this.em.getConnection().getNativeClient()
    const result = await pool.query({ name: statement.name, text: statement.text, values: params })
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 }
  }

  /**
   * runPrepared in the caller's transaction, as `em.execute` joins it: on the transaction's connection when there is
   * a transaction context (one that has ended refuses the statement, as it refuses MikroORM's), else on the pool.
   */
  protected async runPreparedInTransaction<R>(
    statement: PreparedStatement,
    values: readonly unknown[],
  ): Promise<PreparedResult<R>> {
    const transaction = this.em.getTransactionContext<TransactionQueries>()
    if (!transaction) return this.runPrepared(statement, values)
    return runOnTransaction<R>(transaction, statement, this.countedParams(statement, values))
  }

  /** `values` as sent, checked against the statement and counted by the statement metric (the ORM's `onQuery`). */
  private countedParams(statement: PreparedStatement, values: readonly unknown[]): unknown[] {
    if (values.length !== statement.parameterCount) {
      throw new Error(
        `Prepared statement ${statement.name} takes ${statement.parameterCount} values, not ${values.length}`,
      )
    }
    const params = [...values]
    this.em.config.get('onQuery')(statement.text, params)
    return params
  }

  /** A page of rows matching `where`, with the total; ties on `orderBy` are broken by id. */
  protected findPage<Hint extends string = never>(
    where: FilterQuery<T>,
    query: PageRequest,
    orderBy: QueryOrderMap<T>,
    options: Omit<FindOptions<T, Hint>, 'limit' | 'offset' | 'orderBy'> = {},
  ): Promise<[T[], number]> {
    return this.em.findAndCount(
      this.entity,
      where as never,
      {
        ...options,
        orderBy: { ...orderBy, id: 'asc' } as QueryOrderMap<T>,
        limit: query.pageSize,
        offset: pageOffset(query),
      } as FindOptions<T>,
    )
  }

  /**
   * Deletes at most `limit` rows matching `condition` (SQL over the table's columns, `?` placeholders bound to
   * `params`), first in `orderBy` order: a retention batch (infra/retention). The rows are chosen with
   * `for update skip locked`, so a batch never waits for a row being written and two processes pruning at once
   * delete disjoint rows; each statement's locks last milliseconds. The same statement on PostgreSQL and PGlite.
   * Runs outside any transaction. Resolves with how many rows this call deleted.
   */
  protected async deleteBatch(
    condition: string,
    params: readonly unknown[],
    orderBy: string,
    limit: number,
  ): Promise<number> {
    const meta = this.em.getMetadata(this.entity)
    const table = `"${meta.tableName}"`
    const key = `"${meta.getPrimaryProps()[0].fieldNames[0]}"`
    const result = await this.em.getConnection().execute<{ affectedRows: number }>(
      // `= any(array(...))`, not `in (select ...)`: the planner then finds the batch by primary key instead of
      // hash-joining it against a scan of the whole table.
      `delete from ${table} where ${key} = any(array(
         select ${key} from ${table} where ${condition} order by ${orderBy} limit ? for update skip locked))`,
      [...params, limit],
      'run',
    )
    return result.affectedRows
  }
}

/**
 * A repository of organization-scoped rows (an `organization` relation): lookups take the organization id first,
 * so another organization's row is simply not found (a 404), never loaded and then refused.
 */
export abstract class OrgRepository<T extends object> extends BaseRepository<T> {
  /** The organization's row with this id; null when there is none or it is another organization's. */
  protected findInOrg(orgId: string, id: string, options: FindOptions<T> = {}): Promise<T | null> {
    return this.em.findOne(this.entity, this.inOrg(orgId, { id } as FilterQuery<T>) as never, options as never)
  }

  /** The organization's rows matching `where`. */
  protected listInOrg(orgId: string, where: FilterQuery<T> = {}, options: FindOptions<T> = {}): Promise<T[]> {
    return this.em.find(this.entity, this.inOrg(orgId, where) as never, options as never)
  }

  /** A page of the organization's rows matching `where`, with the total. */
  protected pageInOrg<Hint extends string = never>(
    orgId: string,
    where: FilterQuery<T>,
    query: PageRequest,
    orderBy: QueryOrderMap<T>,
    options: Omit<FindOptions<T, Hint>, 'limit' | 'offset' | 'orderBy'> = {},
  ): Promise<[T[], number]> {
    return this.findPage(this.inOrg(orgId, where), query, orderBy, options)
  }

  /** `where` narrowed to the organization. */
  protected inOrg(orgId: string, where: FilterQuery<T> = {}): FilterQuery<T> {
    return { ...(where as object), organization: orgId } as FilterQuery<T>
  }
}

/** The statement `cache` holds under `key`; made from `text()` and named from it (PreparedStatement.fromText) at first. */
function statementFor(
  cache: Map<string, PreparedStatement>,
  key: string,
  prefix: string,
  text: () => string,
): PreparedStatement {
  let statement = cache.get(key)
  if (!statement) {
    statement = PreparedStatement.fromText(prefix, text())
    cache.set(key, statement)
  }
  return statement
}

/**
 * The part of a transaction context (kysely's transaction, which MikroORM keeps as the context) a prepared statement
 * needs: its query on the transaction's connection.
 */
interface TransactionQueries {
  executeQuery(query: {
    sql: unknown
    parameters: readonly unknown[]
    query: { kind: 'RawNode'; sqlFragments: readonly string[]; parameters: readonly unknown[] }
    queryId: { queryId: string }
  }): Promise<{ rows: unknown[]; numAffectedRows?: bigint }>
}

/**
 * A prepared statement on a transaction's connection. kysely's PostgreSQL driver hands `sql` to `pg`'s
 * `client.query(sql, parameters)` as it is, and `pg` takes a `{ name, text }` object there as a statement to prepare
 * by name (the same call the pool path makes): a fresh object per call, since `pg` writes the values into it. A
 * transaction that has ended refuses the query (kysely checks), so a context outliving its transaction never runs a
 * statement outside it. Covered by test/integration/prepared-in-transaction.int.test.ts on PostgreSQL and PGlite.
 */
async function runOnTransaction<R>(
  transaction: TransactionQueries,
  statement: PreparedStatement,
  params: unknown[],
): Promise<PreparedResult<R>> {
  const result = await transaction.executeQuery({
    sql: { name: statement.name, text: statement.text },
    parameters: params,
    query: { kind: 'RawNode', sqlFragments: [], parameters: [] },
    queryId: { queryId: statement.name },
  })
  const rowCount = result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows)
  return { rows: result.rows as R[], rowCount }
}
