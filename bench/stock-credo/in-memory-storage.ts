import {
  type AgentContext,
  type BaseRecord,
  type BaseRecordConstructor,
  JsonTransformer,
  type Query,
  type QueryOptions,
  RecordDuplicateError,
  RecordNotFoundError,
  type StorageService,
  type TagsBase,
} from '@credo-ts/core'

interface Stored {
  value: Record<string, unknown>
  tags: TagsBase
}

/**
 * The stock pair's storage: records kept as JSON in memory and turned back into instances on every read, as a
 * persistent store would (Credo 0.6.3 exports no in-memory storage service). One agent context per process.
 */
export class BenchInMemoryStorageService<T extends BaseRecord> implements StorageService<T> {
  public readonly supportsCursorPagination = false
  private readonly byType = new Map<string, Map<string, Stored>>()

  private records(type: string): Map<string, Stored> {
    let records = this.byType.get(type)
    if (!records) this.byType.set(type, (records = new Map()))
    return records
  }

  public async save(_agentContext: AgentContext, record: T): Promise<void> {
    record.updatedAt = new Date()
    const records = this.records(record.type)
    if (records.has(record.id))
      throw new RecordDuplicateError(`${record.type} ${record.id} exists`, { recordType: record.type })
    records.set(record.id, { value: JsonTransformer.toJSON(record), tags: record.getTags() as TagsBase })
  }

  public async update(_agentContext: AgentContext, record: T): Promise<void> {
    record.updatedAt = new Date()
    const records = this.records(record.type)
    if (!records.has(record.id))
      throw new RecordNotFoundError(`${record.type} ${record.id}`, { recordType: record.type })
    records.set(record.id, { value: JsonTransformer.toJSON(record), tags: record.getTags() as TagsBase })
  }

  public async delete(agentContext: AgentContext, record: T): Promise<void> {
    await this.deleteById(agentContext, record.constructor as BaseRecordConstructor<T>, record.id)
  }

  public async deleteById(
    _agentContext: AgentContext,
    recordClass: BaseRecordConstructor<T>,
    id: string,
  ): Promise<void> {
    if (!this.records(recordClass.type).delete(id))
      throw new RecordNotFoundError(`${recordClass.type} ${id}`, { recordType: recordClass.type })
  }

  public async getById(_agentContext: AgentContext, recordClass: BaseRecordConstructor<T>, id: string): Promise<T> {
    const stored = this.records(recordClass.type).get(id)
    if (!stored) throw new RecordNotFoundError(`${recordClass.type} ${id}`, { recordType: recordClass.type })
    return this.instance(recordClass, stored)
  }

  public async getAll(_agentContext: AgentContext, recordClass: BaseRecordConstructor<T>): Promise<T[]> {
    return [...this.records(recordClass.type).values()].map((stored) => this.instance(recordClass, stored))
  }

  public async findByQuery(
    _agentContext: AgentContext,
    recordClass: BaseRecordConstructor<T>,
    query: Query<T>,
    options: QueryOptions = {},
  ): Promise<T[]> {
    const matching = [...this.records(recordClass.type).values()].filter((stored) => matches(stored.tags, query))
    const offset = options.offset ?? 0
    const page = matching.slice(offset, options.limit === undefined ? undefined : offset + options.limit)
    return page.map((stored) => this.instance(recordClass, stored))
  }

  private instance(recordClass: BaseRecordConstructor<T>, stored: Stored): T {
    const record = JsonTransformer.fromJSON(stored.value, recordClass)
    record.replaceTags(stored.tags as never)
    return record
  }
}

/** Askar's tag query semantics: all given tags equal (an array tag must hold every given value), $and, $or, $not. */
function matches(tags: TagsBase, query: Query<BaseRecord>): boolean {
  for (const [key, expected] of Object.entries(query as Record<string, unknown>)) {
    if (expected === undefined) continue
    if (key === '$and') {
      if (!(expected as Query<BaseRecord>[]).every((part) => matches(tags, part))) return false
    } else if (key === '$or') {
      if (!(expected as Query<BaseRecord>[]).some((part) => matches(tags, part))) return false
    } else if (key === '$not') {
      if (matches(tags, expected as Query<BaseRecord>)) return false
    } else {
      const actual = tags[key]
      if (Array.isArray(expected)) {
        if (!Array.isArray(actual) || !expected.every((value) => actual.includes(value as string))) return false
      } else if (expected === null) {
        if (actual !== null && actual !== undefined) return false
      } else if (String(actual) !== String(expected) || actual === undefined) return false
    }
  }
  return true
}
