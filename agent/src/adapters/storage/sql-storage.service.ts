import {
  type AgentContext,
  type BaseRecord,
  type BaseRecordConstructor,
  CredoError,
  JsonTransformer,
  type Query,
  type QueryOptions,
  RecordDuplicateError,
  RecordNotFoundError,
  type StorageService,
  type TagsBase,
} from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'

import { cloneInstance } from '../../credo/clone-instance'
import type { SqlClient } from '../sql/sql-client'
import { KeyedQueue } from './keyed-queue'
import { assertTagQuery, queryToSql, type TagQuery } from './query-to-sql'
import { DEFAULT_MIRROR_LIMITS, type MirroredRow, RecordMirror, type RecordMirrorLimits } from './record-mirror'
import type { OutboxDraft, WriteEvents } from './write-events'

interface RecordRow {
  id: string
  /** JSON text (`value::text`), parsed only when an instance is made */
  value: string
  tags: TagsBase
}

export interface SqlStorageOptions {
  /** Stores an event with each announcing write (the transactional outbox); none when undefined. */
  events?: WriteEvents
  /** Bounds of the in-memory mirror; `false` sends every read to the database. */
  mirror?: RecordMirrorLimits | false
}

const UNIQUE_VIOLATION = '23505'
/** Validated instances of mirrored rows kept to copy from (cloneInstance), least recently used dropped first. */
const MAX_CACHED_INSTANCES = 2000

const INSERT = 'INSERT INTO records (context_id, type, id, value, tags) VALUES ($1, $2, $3, $4, $5)'
const INSERT_ANNOUNCED = `WITH written AS (${INSERT} RETURNING 1)
  INSERT INTO outbox_events (id, kind, body) SELECT $6, $7, $8 FROM written`
const UPDATE = 'UPDATE records SET value = $4, tags = $5 WHERE context_id = $1 AND type = $2 AND id = $3'
/**
 * One statement, so the event exists exactly when the new state does. Every sub-statement sees the row as it was
 * before, so `previous` holds the old state; writes of one record are serialized in-process (KeyedQueue).
 */
const UPDATE_ANNOUNCED = `WITH previous AS (
    SELECT value->>'state' AS state FROM records WHERE context_id = $1 AND type = $2 AND id = $3
  ), written AS (${UPDATE} RETURNING 1
  ), announced AS (
    INSERT INTO outbox_events (id, kind, body) SELECT $6, $7, $8 FROM written, previous
    WHERE previous.state IS DISTINCT FROM $9::text RETURNING 1
  )
  SELECT (SELECT count(*) FROM written)::int AS written, (SELECT count(*) FROM announced)::int AS announced`
const SELECT_COLUMNS = 'SELECT id, value::text AS value, tags FROM records'

/**
 * Credo's StorageService on PostgreSQL or PGlite (one SqlClient). Records live in `records`, keyed by the
 * agent context (base wallet or tenant), the record type and the id; tags are stored as jsonb as Credo gives
 * them (strings, booleans, string arrays), so no Askar-style encoding is needed to read them back.
 *
 * Reads are answered from a RecordMirror (every record of a context and type, loaded on first use, kept current
 * by the writes below); SQL serves them only when a scope cannot be mirrored. A write of a record type that
 * `events` announces stores its event in the same statement when the record is new or its state changed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Credo's own StorageService signature
export class SqlStorageService<T extends BaseRecord<any, any, any>> implements StorageService<T> {
  public readonly supportsCursorPagination = false
  private readonly events: WriteEvents | undefined
  private readonly mirror: RecordMirror | undefined
  private readonly loads = new Map<string, Promise<void>>()
  private readonly writes = new KeyedQueue()
  /** By write key: the mirrored row an instance was made from, so a newer row version is never served stale. */
  private readonly instances = new BoundedMap<string, { row: MirroredRow; recordClass: unknown; instance: BaseRecord }>(
    MAX_CACHED_INSTANCES,
  )

  public constructor(
    private readonly sql: SqlClient,
    options: SqlStorageOptions = {},
  ) {
    this.events = options.events
    const limits = options.mirror ?? DEFAULT_MIRROR_LIMITS
    this.mirror = limits === false ? undefined : new RecordMirror(limits)
  }

  public async save(agentContext: AgentContext, record: T): Promise<void> {
    record.updatedAt = new Date()
    const contextId = contextOf(agentContext)
    const row: MirroredRow = { id: record.id, json: serialize(record), tags: cleanTags(record.getTags()) }
    await this.writes.run(writeKey(contextId, record.type, record.id), async () => {
      const draft = this.events?.draft(contextId, record.type, row.json)
      const params = [contextId, record.type, row.id, row.json, JSON.stringify(row.tags)]
      try {
        await this.sql.query(draft ? INSERT_ANNOUNCED : INSERT, draft ? [...params, ...draftParams(draft)] : params)
      } catch (error) {
        if (draft) this.events?.settled(draft, false)
        if (isUniqueViolation(error)) {
          throw new RecordDuplicateError(`Record with id ${record.id} already exists`, { recordType: record.type })
        }
        this.mirror?.invalidate(contextId, record.type)
        throw new CredoError('Error saving record', { cause: error instanceof Error ? error : undefined })
      }
      if (draft) this.events?.settled(draft, true)
      this.mirror?.written(contextId, record.type, row.id, row)
    })
  }

  public async update(agentContext: AgentContext, record: T): Promise<void> {
    record.updatedAt = new Date()
    const contextId = contextOf(agentContext)
    const row: MirroredRow = { id: record.id, json: serialize(record), tags: cleanTags(record.getTags()) }
    await this.writes.run(writeKey(contextId, record.type, record.id), async () => {
      const draft = this.events?.draft(contextId, record.type, row.json)
      const params = [contextId, record.type, row.id, row.json, JSON.stringify(row.tags)]
      let written: number
      let announced = false
      try {
        if (draft) {
          const { rows } = await this.sql.query<{ written: number; announced: number }>(UPDATE_ANNOUNCED, [
            ...params,
            ...draftParams(draft),
            stateOf(record),
          ])
          written = Number(rows[0].written)
          announced = Number(rows[0].announced) > 0
        } else {
          written = (await this.sql.query(UPDATE, params)).rowCount
        }
      } catch (error) {
        if (draft) this.events?.settled(draft, false)
        this.mirror?.invalidate(contextId, record.type)
        throw error
      }
      if (draft) this.events?.settled(draft, announced)
      if (written === 0) {
        this.mirror?.written(contextId, record.type, row.id, undefined)
        throw new RecordNotFoundError(`record with id ${record.id} not found.`, { recordType: record.type })
      }
      this.mirror?.written(contextId, record.type, row.id, row)
    })
  }

  public async delete(agentContext: AgentContext, record: T): Promise<void> {
    await this.deleteByTypeAndId(agentContext, record.type, record.id)
  }

  public async deleteById(
    agentContext: AgentContext,
    recordClass: BaseRecordConstructor<T>,
    id: string,
  ): Promise<void> {
    await this.deleteByTypeAndId(agentContext, recordClass.type, id)
  }

  public async getById(agentContext: AgentContext, recordClass: BaseRecordConstructor<T>, id: string): Promise<T> {
    const contextId = contextOf(agentContext)
    const scope = await this.mirrored(contextId, recordClass.type)
    let row: MirroredRow | undefined
    if (scope) {
      row = scope.rows.get(id)
      if (row) return this.instanceOf(contextId, recordClass, row)
    } else {
      const { rows } = await this.sql.query<RecordRow>(
        `${SELECT_COLUMNS} WHERE context_id = $1 AND type = $2 AND id = $3`,
        [contextId, recordClass.type, id],
      )
      row = rows.length > 0 ? fromSql(rows[0]) : undefined
    }
    if (!row) throw new RecordNotFoundError(`record with id ${id} not found.`, { recordType: recordClass.type })
    return toInstance(row, recordClass)
  }

  public async getAll(agentContext: AgentContext, recordClass: BaseRecordConstructor<T>): Promise<T[]> {
    const contextId = contextOf(agentContext)
    const scope = await this.mirrored(contextId, recordClass.type)
    if (scope) return [...scope.rows.values()].map((row) => this.instanceOf(contextId, recordClass, row))
    const { rows } = await this.sql.query<RecordRow>(
      `${SELECT_COLUMNS} WHERE context_id = $1 AND type = $2 ORDER BY seq`,
      [contextId, recordClass.type],
    )
    return rows.map((row) => toInstance(fromSql(row), recordClass))
  }

  public async findByQuery(
    agentContext: AgentContext,
    recordClass: BaseRecordConstructor<T>,
    query: Query<T>,
    queryOptions?: QueryOptions,
  ): Promise<T[]> {
    const contextId = contextOf(agentContext)
    const scope = await this.mirrored(contextId, recordClass.type)
    if (scope) {
      // What SQL would refuse (an object as a tag value) is refused in memory too.
      assertTagQuery(query as TagQuery)
      const offset = queryOptions?.offset ?? 0
      const matching = scope.find(query as TagQuery)
      const page = matching.slice(offset, queryOptions?.limit === undefined ? undefined : offset + queryOptions.limit)
      return page.map((row) => this.instanceOf(contextId, recordClass, row))
    }
    const condition = queryToSql(query as TagQuery, 'tags', 3)
    const params: unknown[] = [contextId, recordClass.type, ...condition.params]
    let sql = `${SELECT_COLUMNS} WHERE context_id = $1 AND type = $2 AND (${condition.sql}) ORDER BY seq`
    if (queryOptions?.limit !== undefined) {
      params.push(queryOptions.limit)
      sql += ` LIMIT $${params.length}`
    }
    if (queryOptions?.offset !== undefined) {
      params.push(queryOptions.offset)
      sql += ` OFFSET $${params.length}`
    }
    const { rows } = await this.sql.query<RecordRow>(sql, params)
    return rows.map((row) => toInstance(fromSql(row), recordClass))
  }

  /** Drops every record of one agent context (a deleted tenant). */
  public async deleteContext(contextId: string): Promise<void> {
    try {
      await this.sql.query('DELETE FROM records WHERE context_id = $1', [contextId])
    } finally {
      this.mirror?.dropContext(contextId)
    }
  }

  private async deleteByTypeAndId(agentContext: AgentContext, type: string, id: string): Promise<void> {
    const contextId = contextOf(agentContext)
    await this.writes.run(writeKey(contextId, type, id), async () => {
      let deleted: number
      try {
        deleted = (
          await this.sql.query('DELETE FROM records WHERE context_id = $1 AND type = $2 AND id = $3', [
            contextId,
            type,
            id,
          ])
        ).rowCount
      } catch (error) {
        this.mirror?.invalidate(contextId, type)
        throw error
      }
      this.mirror?.written(contextId, type, id, undefined)
      if (deleted === 0) throw new RecordNotFoundError(`record with id ${id} not found.`, { recordType: type })
    })
  }

  /**
   * A new instance of a mirrored row: a copy of the one validated instance made from this version of the row.
   * Equivalent to parsing the row again (fromJSON of the same JSON gives the same instance) at a fraction of the cost.
   */
  private instanceOf(contextId: string, recordClass: BaseRecordConstructor<T>, row: MirroredRow): T {
    const key = writeKey(contextId, recordClass.type, row.id)
    const cached = this.instances.get(key)
    let instance = cached?.row === row && cached.recordClass === recordClass ? cached.instance : undefined
    if (!instance) {
      instance = toInstance(row, recordClass)
      this.instances.set(key, { row, recordClass, instance })
    }
    return cloneInstance(instance as T)
  }

  /** The mirrored scope, loading it first when needed; undefined when it cannot be mirrored now. */
  private async mirrored(contextId: string, type: string) {
    const mirror = this.mirror
    if (!mirror) return undefined
    const loaded = mirror.scope(contextId, type)
    if (loaded || !mirror.mayLoad(contextId, type)) return loaded
    const key = writeKey(contextId, type, '')
    let loading = this.loads.get(key)
    if (!loading) {
      loading = this.load(contextId, type).finally(() => this.loads.delete(key))
      this.loads.set(key, loading)
    }
    await loading
    return mirror.scope(contextId, type)
  }

  private async load(contextId: string, type: string): Promise<void> {
    const mirror = this.mirror
    if (!mirror) return
    const seen = mirror.version(contextId, type)
    const { rows } = await this.sql.query<RecordRow>(
      `${SELECT_COLUMNS} WHERE context_id = $1 AND type = $2 ORDER BY seq LIMIT $3`,
      [contextId, type, mirror.limits.maxRowsPerScope + 1],
    )
    mirror.install(contextId, type, rows.map(fromSql), seen)
  }
}

function contextOf(agentContext: AgentContext): string {
  return agentContext.contextCorrelationId
}

function writeKey(contextId: string, type: string, id: string): string {
  return `${contextId}\u0000${type}\u0000${id}`
}

function serialize(record: BaseRecord): string {
  return JsonTransformer.serialize(record)
}

function draftParams(draft: OutboxDraft): string[] {
  return [draft.id, draft.kind, draft.body]
}

/** The record's state as the announcing update compares it with the stored one; null for stateless records. */
function stateOf(record: BaseRecord): string | null {
  const state = (record as { state?: unknown }).state
  return typeof state === 'string' ? state : null
}

/** Null and undefined tags are dropped, as Askar does, so a query for a value never meets a JSON null. */
function cleanTags(tags: TagsBase): TagsBase {
  const out: TagsBase = {}
  for (const [key, value] of Object.entries(tags)) {
    if (value !== undefined && value !== null) out[key] = Array.isArray(value) ? [...value] : value
  }
  return out
}

/** A new instance each time, parsed from the JSON text; its tags are a copy, never the mirror's own. */
function toInstance<R extends BaseRecord>(row: MirroredRow, recordClass: BaseRecordConstructor<R>): R {
  const instance = JsonTransformer.fromJSON(JSON.parse(row.json) as object, recordClass)
  instance.id = row.id
  instance.replaceTags(copyTags(row.tags))
  return instance
}

function fromSql(row: RecordRow): MirroredRow {
  return { id: row.id, json: row.value, tags: row.tags }
}

function copyTags(tags: TagsBase): TagsBase {
  const copy: TagsBase = {}
  for (const [key, value] of Object.entries(tags)) copy[key] = Array.isArray(value) ? [...value] : value
  return copy
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION
}
