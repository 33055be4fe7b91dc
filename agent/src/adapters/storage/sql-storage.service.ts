import {
  type AgentContext,
  type BaseRecord,
  type BaseRecordConstructor,
  CredoError,
  type Query,
  type QueryOptions,
  RecordDuplicateError,
  RecordNotFoundError,
  type TagsBase,
} from '@credo-ts/core'

import type { SqlClient } from '../sql/sql-client'
import { KeyedQueue } from './keyed-queue'
import { queryToSql, type TagQuery } from './query-to-sql'
import type { MirroredRow } from './record-mirror'
import { toInstance, toRow, writeKey } from './record-rows'
import type { ContextStorage, RowSource } from './row-storage'
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
}

const UNIQUE_VIOLATION = '23505'

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
 * Credo's StorageService on PostgreSQL or PGlite (one SqlClient), every read and write a SQL statement. Records
 * live in `records`, keyed by the agent context (base wallet or tenant), the record type and the id; tags are
 * stored as jsonb as Credo gives them (strings, booleans, string arrays), so no Askar-style encoding is needed to
 * read them back. A write of a record type that `events` announces stores its event in the same statement when the
 * record is new or its state changed. MirroredStorageService answers reads from memory in front of it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Credo's own StorageService signature
export class SqlStorageService<T extends BaseRecord<any, any, any>> implements ContextStorage<T>, RowSource {
  public readonly supportsCursorPagination = false
  private readonly events: WriteEvents | undefined
  private readonly writes = new KeyedQueue()
  /** The row each instance's last write stored, for a mirror in front (takeWrittenRow); gone with the instance. */
  private readonly writtenRows = new WeakMap<BaseRecord, MirroredRow>()

  public constructor(
    private readonly sql: SqlClient,
    options: SqlStorageOptions = {},
  ) {
    this.events = options.events
  }

  public async save(agentContext: AgentContext, record: T): Promise<void> {
    record.updatedAt = new Date()
    const contextId = contextOf(agentContext)
    const row = toRow(record)
    await this.writes.run(writeKey(contextId, record.type, record.id), async () => {
      const draft = this.events?.draft(contextId, record, row.json)
      const params = [contextId, record.type, row.id, row.json, JSON.stringify(row.tags)]
      try {
        await this.sql.query(draft ? INSERT_ANNOUNCED : INSERT, draft ? [...params, ...draftParams(draft)] : params)
      } catch (error) {
        if (draft) this.events?.settled(draft, false)
        if (isUniqueViolation(error)) {
          throw new RecordDuplicateError(`Record with id ${record.id} already exists`, { recordType: record.type })
        }
        throw new CredoError('Error saving record', { cause: error instanceof Error ? error : undefined })
      }
      if (draft) this.events?.settled(draft, true)
      this.writtenRows.set(record, row)
    })
  }

  public async update(agentContext: AgentContext, record: T): Promise<void> {
    record.updatedAt = new Date()
    const contextId = contextOf(agentContext)
    const row = toRow(record)
    await this.writes.run(writeKey(contextId, record.type, record.id), async () => {
      const draft = this.events?.draft(contextId, record, row.json)
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
        throw error
      }
      if (draft) this.events?.settled(draft, announced)
      if (written === 0) {
        throw new RecordNotFoundError(`record with id ${record.id} not found.`, { recordType: record.type })
      }
      this.writtenRows.set(record, row)
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
    const { rows } = await this.sql.query<RecordRow>(
      `${SELECT_COLUMNS} WHERE context_id = $1 AND type = $2 AND id = $3`,
      [contextOf(agentContext), recordClass.type, id],
    )
    if (rows.length === 0) {
      throw new RecordNotFoundError(`record with id ${id} not found.`, { recordType: recordClass.type })
    }
    return toInstance(fromSql(rows[0]), recordClass)
  }

  public async getAll(agentContext: AgentContext, recordClass: BaseRecordConstructor<T>): Promise<T[]> {
    const { rows } = await this.sql.query<RecordRow>(
      `${SELECT_COLUMNS} WHERE context_id = $1 AND type = $2 ORDER BY seq`,
      [contextOf(agentContext), recordClass.type],
    )
    return rows.map((row) => toInstance(fromSql(row), recordClass))
  }

  public async findByQuery(
    agentContext: AgentContext,
    recordClass: BaseRecordConstructor<T>,
    query: Query<T>,
    queryOptions?: QueryOptions,
  ): Promise<T[]> {
    const condition = queryToSql(query as TagQuery, 'tags', 3)
    const params: unknown[] = [contextOf(agentContext), recordClass.type, ...condition.params]
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
    await this.sql.query('DELETE FROM records WHERE context_id = $1', [contextId])
  }

  public async loadRows(contextId: string, type: string, limit: number): Promise<MirroredRow[]> {
    const { rows } = await this.sql.query<RecordRow>(
      `${SELECT_COLUMNS} WHERE context_id = $1 AND type = $2 ORDER BY seq LIMIT $3`,
      [contextId, type, limit],
    )
    return rows.map(fromSql)
  }

  public takeWrittenRow(record: BaseRecord): MirroredRow | undefined {
    const row = this.writtenRows.get(record)
    this.writtenRows.delete(record)
    return row
  }

  private async deleteByTypeAndId(agentContext: AgentContext, type: string, id: string): Promise<void> {
    const contextId = contextOf(agentContext)
    await this.writes.run(writeKey(contextId, type, id), async () => {
      const deleted = (
        await this.sql.query('DELETE FROM records WHERE context_id = $1 AND type = $2 AND id = $3', [
          contextId,
          type,
          id,
        ])
      ).rowCount
      if (deleted === 0) throw new RecordNotFoundError(`record with id ${id} not found.`, { recordType: type })
    })
  }
}

function contextOf(agentContext: AgentContext): string {
  return agentContext.contextCorrelationId
}

function draftParams(draft: OutboxDraft): string[] {
  return [draft.id, draft.kind, draft.body]
}

/** The record's state as the announcing update compares it with the stored one; null for stateless records. */
function stateOf(record: BaseRecord): string | null {
  const state = (record as { state?: unknown }).state
  return typeof state === 'string' ? state : null
}

function fromSql(row: RecordRow): MirroredRow {
  return { id: row.id, json: row.value, tags: row.tags }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION
}
