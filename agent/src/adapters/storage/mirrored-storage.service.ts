import {
  type AgentContext,
  type BaseRecord,
  type BaseRecordConstructor,
  type Query,
  type QueryOptions,
  RecordDuplicateError,
  RecordNotFoundError,
  type StorageService,
} from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'

import { cloneInstance } from '../../credo/clone-instance'
import { KeyedQueue } from './keyed-queue'
import { assertTagQuery, type TagQuery } from './query-to-sql'
import { DEFAULT_MIRROR_LIMITS, type MirroredRow, RecordMirror, type RecordMirrorLimits } from './record-mirror'
import { copyTags, toInstance, toRow, writeKey } from './record-rows'
import { rowNarrowingFor } from './row-narrowing'
import { type ContextStorage, isRowSource } from './row-storage'

/** Validated instances of mirrored rows kept to copy from (cloneInstance), least recently used dropped first. */
const MAX_CACHED_INSTANCES = 2000

/**
 * A StorageService in front of another that answers reads from a RecordMirror (every record of a context and
 * type, loaded on first use, kept current by the writes that pass through here); the inner store serves a read
 * only when a scope cannot be mirrored. Writes go to the inner store first and reach the mirror once it took them.
 *
 * Sound only while this instance is the only writer of the inner store's records: the SQL client holds a lock
 * that makes a second agent process on the same data fail at start (a file lock on PGlite's directory, an
 * advisory lock per schema on PostgreSQL).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Credo's own StorageService signature
export class MirroredStorageService<T extends BaseRecord<any, any, any>> implements ContextStorage<T> {
  public readonly supportsCursorPagination = false
  private readonly mirror: RecordMirror
  private readonly loads = new Map<string, Promise<void>>()
  /** Writes of one record reach the mirror in the order the inner store took them. */
  private readonly writes = new KeyedQueue()
  /** By write key: the mirrored row an instance was made from, so a newer row version is never served stale. */
  private readonly instances = new BoundedMap<string, { row: MirroredRow; recordClass: unknown; instance: BaseRecord }>(
    MAX_CACHED_INSTANCES,
  )

  public constructor(
    private readonly inner: StorageService<T> & Partial<Pick<ContextStorage<T>, 'deleteContext'>>,
    limits: RecordMirrorLimits = DEFAULT_MIRROR_LIMITS,
  ) {
    this.mirror = new RecordMirror(limits)
  }

  public async save(agentContext: AgentContext, record: T): Promise<void> {
    const contextId = contextOf(agentContext)
    await this.writes.run(writeKey(contextId, record.type, record.id), async () => {
      try {
        await this.inner.save(agentContext, record)
      } catch (error) {
        // A duplicate changed nothing; any other failure may or may not have reached the database.
        if (!(error instanceof RecordDuplicateError)) this.mirror.invalidate(contextId, record.type)
        throw error
      }
      this.mirrorWritten(contextId, record)
    })
  }

  public async update(agentContext: AgentContext, record: T): Promise<void> {
    const contextId = contextOf(agentContext)
    await this.writes.run(writeKey(contextId, record.type, record.id), async () => {
      try {
        await this.inner.update(agentContext, record)
      } catch (error) {
        if (error instanceof RecordNotFoundError) this.mirror.written(contextId, record.type, record.id, undefined)
        else this.mirror.invalidate(contextId, record.type)
        throw error
      }
      this.mirrorWritten(contextId, record)
    })
  }

  public async delete(agentContext: AgentContext, record: T): Promise<void> {
    await this.deleted(agentContext, record.type, record.id, () => this.inner.delete(agentContext, record))
  }

  public async deleteById(
    agentContext: AgentContext,
    recordClass: BaseRecordConstructor<T>,
    id: string,
  ): Promise<void> {
    await this.deleted(agentContext, recordClass.type, id, () => this.inner.deleteById(agentContext, recordClass, id))
  }

  public async getById(agentContext: AgentContext, recordClass: BaseRecordConstructor<T>, id: string): Promise<T> {
    const contextId = contextOf(agentContext)
    const scope = await this.mirrored(agentContext, recordClass)
    if (!scope) return this.inner.getById(agentContext, recordClass, id)
    const row = scope.rows.get(id)
    if (!row) throw new RecordNotFoundError(`record with id ${id} not found.`, { recordType: recordClass.type })
    return this.instanceOf(contextId, recordClass, row)
  }

  public async getAll(agentContext: AgentContext, recordClass: BaseRecordConstructor<T>): Promise<T[]> {
    const contextId = contextOf(agentContext)
    const scope = await this.mirrored(agentContext, recordClass)
    if (!scope) return this.inner.getAll(agentContext, recordClass)
    return [...scope.rows.values()].map((row) => this.instanceOf(contextId, recordClass, row))
  }

  public async findByQuery(
    agentContext: AgentContext,
    recordClass: BaseRecordConstructor<T>,
    query: Query<T>,
    queryOptions?: QueryOptions,
  ): Promise<T[]> {
    const contextId = contextOf(agentContext)
    const scope = await this.mirrored(agentContext, recordClass)
    if (!scope) return this.inner.findByQuery(agentContext, recordClass, query, queryOptions)
    // What SQL would refuse (an object as a tag value) is refused in memory too.
    assertTagQuery(query as TagQuery)
    const offset = queryOptions?.offset ?? 0
    let matching = scope.find(query as TagQuery)
    // Rows a caller's narrowing rules out are never parsed nor copied; only whole results are narrowed (not pages).
    const narrowing = rowNarrowingFor(recordClass.type)
    if (narrowing && queryOptions?.offset === undefined && queryOptions?.limit === undefined) {
      matching = matching.filter((row) => narrowing.mayKeep(row))
    }
    const page = matching.slice(offset, queryOptions?.limit === undefined ? undefined : offset + queryOptions.limit)
    return page.map((row) => this.instanceOf(contextId, recordClass, row))
  }

  /** Drops every record of one agent context (a deleted tenant), in the inner store and here. */
  public async deleteContext(contextId: string): Promise<void> {
    try {
      await this.inner.deleteContext?.(contextId)
    } finally {
      this.mirror.dropContext(contextId)
    }
  }

  private async deleted(agentContext: AgentContext, type: string, id: string, remove: () => Promise<void>) {
    const contextId = contextOf(agentContext)
    await this.writes.run(writeKey(contextId, type, id), async () => {
      try {
        await remove()
      } catch (error) {
        if (error instanceof RecordNotFoundError) this.mirror.written(contextId, type, id, undefined)
        else this.mirror.invalidate(contextId, type)
        throw error
      }
      this.mirror.written(contextId, type, id, undefined)
    })
  }

  /**
   * Puts the row the inner store just wrote into the mirror (handed over when it can, else made the same way it
   * makes it), and a copy of the written record as that row's instance: the next read of a record an exchange just
   * updated, the common case, then copies it instead of parsing the row again (class-transformer and class-validator:
   * 3 % of an agent's CPU in bench:agent). The copy is taken now, as the caller goes on changing its record.
   */
  private mirrorWritten(contextId: string, record: T): void {
    const row = (isRowSource(this.inner) ? this.inner.takeWrittenRow(record) : undefined) ?? toRow(record)
    const kept = this.mirror.written(contextId, record.type, record.id, row)
    // Reads of a scope that is not mirrored go to the inner store: no instance of theirs comes from here.
    if (!kept) return
    this.instances.set(writeKey(contextId, record.type, record.id), {
      row: kept,
      recordClass: record.constructor,
      instance: writtenInstance(record, kept),
    })
  }

  /**
   * A new instance of a mirrored row: a copy of the one instance of this version of the row, parsed and validated from
   * it or the record just written as it. Equivalent to parsing the row again (fromJSON of the same JSON gives the same
   * instance) at a fraction of the cost.
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
  private async mirrored(agentContext: AgentContext, recordClass: BaseRecordConstructor<T>) {
    const contextId = contextOf(agentContext)
    const type = recordClass.type
    const loaded = this.mirror.scope(contextId, type)
    if (loaded || !this.mirror.mayLoad(contextId, type)) return loaded
    const key = writeKey(contextId, type, '')
    let loading = this.loads.get(key)
    if (!loading) {
      loading = this.load(agentContext, recordClass).finally(() => this.loads.delete(key))
      this.loads.set(key, loading)
    }
    await loading
    return this.mirror.scope(contextId, type)
  }

  private async load(agentContext: AgentContext, recordClass: BaseRecordConstructor<T>): Promise<void> {
    const contextId = contextOf(agentContext)
    const type = recordClass.type
    const seen = this.mirror.version(contextId, type)
    const limit = this.mirror.limits.maxRowsPerScope + 1
    const rows = isRowSource(this.inner)
      ? await this.inner.loadRows(contextId, type, limit)
      : (await this.inner.getAll(agentContext, recordClass)).map(toRow)
    this.mirror.install(contextId, type, rows, seen)
  }
}

/**
 * What reading `row` back would give, from the record that was written as it: a copy whose tags are the row's
 * (toInstance sets a read record's tags to every stored tag, the computed ones included).
 */
function writtenInstance(record: BaseRecord, row: MirroredRow): BaseRecord {
  const instance = cloneInstance(record)
  instance.replaceTags(copyTags(row.tags))
  return instance
}

function contextOf(agentContext: AgentContext): string {
  return agentContext.contextCorrelationId
}
