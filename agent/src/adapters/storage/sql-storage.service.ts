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

import type { SqlClient } from '../sql/sql-client'
import { queryToSql, type TagQuery } from './query-to-sql'
import { type CachedRow, RecordCache } from './record-cache'

interface RecordRow {
  id: string
  value: Record<string, unknown>
  tags: TagsBase
}

const UNIQUE_VIOLATION = '23505'

/**
 * Credo's StorageService on PostgreSQL or PGlite (one SqlClient). Records live in `records`, keyed by the
 * agent context (base wallet or tenant), the record type and the id; tags are stored as jsonb as Credo gives
 * them (strings, booleans, string arrays), so no Askar-style encoding is needed to read them back.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Credo's own StorageService signature
export class SqlStorageService<T extends BaseRecord<any, any, any>> implements StorageService<T> {
  public readonly supportsCursorPagination = false
  private readonly cache = new RecordCache()

  public constructor(private readonly sql: SqlClient) {}

  public async save(agentContext: AgentContext, record: T): Promise<void> {
    record.updatedAt = new Date()
    const tags = cleanTags(record.getTags())
    try {
      await this.sql.query('INSERT INTO records (context_id, type, id, value, tags) VALUES ($1, $2, $3, $4, $5)', [
        contextOf(agentContext),
        record.type,
        record.id,
        serialize(record),
        JSON.stringify(tags),
      ])
      this.cache.written(contextOf(agentContext), record.type, record.id, tags)
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new RecordDuplicateError(`Record with id ${record.id} already exists`, { recordType: record.type })
      }
      throw new CredoError('Error saving record', { cause: error instanceof Error ? error : undefined })
    }
  }

  public async update(agentContext: AgentContext, record: T): Promise<void> {
    record.updatedAt = new Date()
    const tags = cleanTags(record.getTags())
    const result = await this.sql.query(
      'UPDATE records SET value = $4, tags = $5 WHERE context_id = $1 AND type = $2 AND id = $3',
      [contextOf(agentContext), record.type, record.id, serialize(record), JSON.stringify(tags)],
    )
    this.cache.written(contextOf(agentContext), record.type, record.id, tags)
    if (result.rowCount === 0) {
      throw new RecordNotFoundError(`record with id ${record.id} not found.`, { recordType: record.type })
    }
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
    const cached = this.cache.getById(contextId, recordClass.type, id)
    if (cached) return fromCache(cached, recordClass)
    const seen = this.cache.version(contextId, recordClass.type)
    const { rows } = await this.sql.query<RecordRow>(
      'SELECT id, value, tags FROM records WHERE context_id = $1 AND type = $2 AND id = $3',
      [contextId, recordClass.type, id],
    )
    if (rows.length === 0) {
      throw new RecordNotFoundError(`record with id ${id} not found.`, { recordType: recordClass.type })
    }
    this.cache.setById(contextId, recordClass.type, toCached(rows[0]), seen)
    return toInstance(rows[0], recordClass)
  }

  public async getAll(agentContext: AgentContext, recordClass: BaseRecordConstructor<T>): Promise<T[]> {
    const { rows } = await this.sql.query<RecordRow>(
      'SELECT id, value, tags FROM records WHERE context_id = $1 AND type = $2 ORDER BY seq',
      [contextOf(agentContext), recordClass.type],
    )
    return rows.map((row) => toInstance(row, recordClass))
  }

  public async findByQuery(
    agentContext: AgentContext,
    recordClass: BaseRecordConstructor<T>,
    query: Query<T>,
    queryOptions?: QueryOptions,
  ): Promise<T[]> {
    const contextId = contextOf(agentContext)
    const paged = queryOptions?.limit !== undefined || queryOptions?.offset !== undefined
    const cacheKey = paged ? undefined : JSON.stringify(query)
    const cached = cacheKey === undefined ? undefined : this.cache.getQuery(contextId, recordClass.type, cacheKey)
    if (cached) return cached.map((row) => fromCache(row, recordClass))
    const seen = this.cache.version(contextId, recordClass.type)
    const condition = queryToSql(query as TagQuery, 'tags', 3)
    const params: unknown[] = [contextId, recordClass.type, ...condition.params]
    let sql = `SELECT id, value, tags FROM records WHERE context_id = $1 AND type = $2 AND (${condition.sql}) ORDER BY seq`
    if (queryOptions?.limit !== undefined) {
      params.push(queryOptions.limit)
      sql += ` LIMIT $${params.length}`
    }
    if (queryOptions?.offset !== undefined) {
      params.push(queryOptions.offset)
      sql += ` OFFSET $${params.length}`
    }
    const { rows } = await this.sql.query<RecordRow>(sql, params)
    if (cacheKey !== undefined)
      this.cache.setQuery(contextId, recordClass.type, cacheKey, query as TagQuery, rows.map(toCached), seen)
    return rows.map((row) => toInstance(row, recordClass))
  }

  /** Drops every record of one agent context (a deleted tenant). */
  public async deleteContext(contextId: string): Promise<void> {
    await this.sql.query('DELETE FROM records WHERE context_id = $1', [contextId])
    this.cache.dropContext(contextId)
  }

  private async deleteByTypeAndId(agentContext: AgentContext, type: string, id: string): Promise<void> {
    const result = await this.sql.query('DELETE FROM records WHERE context_id = $1 AND type = $2 AND id = $3', [
      contextOf(agentContext),
      type,
      id,
    ])
    this.cache.written(contextOf(agentContext), type, id, undefined)
    if (result.rowCount === 0) throw new RecordNotFoundError(`record with id ${id} not found.`, { recordType: type })
  }
}

function contextOf(agentContext: AgentContext): string {
  return agentContext.contextCorrelationId
}

function serialize(record: BaseRecord): string {
  return JsonTransformer.serialize(record)
}

/** Null and undefined tags are dropped, as Askar does, so a query for a value never meets a JSON null. */
function cleanTags(tags: TagsBase): TagsBase {
  const out: TagsBase = {}
  for (const [key, value] of Object.entries(tags)) if (value !== undefined && value !== null) out[key] = value
  return out
}

/** A new instance each time; the row may be a cached one, so its tags are copied, never handed out. */
function toInstance<R extends BaseRecord>(row: RecordRow, recordClass: BaseRecordConstructor<R>): R {
  const instance = JsonTransformer.fromJSON(row.value, recordClass)
  instance.id = row.id
  instance.replaceTags(copyTags(row.tags))
  return instance
}

function toCached(row: RecordRow): CachedRow {
  return { id: row.id, json: JSON.stringify(row.value), tags: copyTags(row.tags) }
}

function fromCache<R extends BaseRecord>(row: CachedRow, recordClass: BaseRecordConstructor<R>): R {
  return toInstance({ id: row.id, value: JSON.parse(row.json) as Record<string, unknown>, tags: row.tags }, recordClass)
}

function copyTags(tags: TagsBase): TagsBase {
  const copy: TagsBase = {}
  for (const [key, value] of Object.entries(tags)) copy[key] = Array.isArray(value) ? [...value] : value
  return copy
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION
}
