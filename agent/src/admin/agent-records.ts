import { NotFoundError } from '@idplane/common'

import type { ScopedAgent } from '../credo/build-agent'
import type { AgentScope } from './agent-scope'

/** The part of a Credo module API (connections, credentials, proofs) that lists, finds and deletes its records. */
export interface RecordApi<R, StoreQuery> {
  findAllByQuery(query: StoreQuery): Promise<R[]>
  findById(id: string): Promise<R | null>
  deleteById(id: string): Promise<void>
}

/** One kind of exchange record the admin API lists, reads and removes. */
export interface RecordKind<R extends { toJSON(): Record<string, unknown> }, Filter, StoreQuery> {
  /** Names the record in answers: `Connection`, `Credential record`. */
  name: string
  api(agent: ScopedAgent): RecordApi<R, StoreQuery>
  /** The store query for the admin query's filter (tag fields only). */
  toQuery(filter: Filter): StoreQuery
  /** The filter fields that are no tags of the record, checked on each record. @default every record */
  matches?(record: R, filter: Filter): boolean
}

/**
 * List, get and remove of a kind of Credo record, written once: records answer as their `toJSON()` writes them (the
 * contract's `<Kind>RecordJson`), an unknown id is a 404 naming the kind.
 */
export class AgentRecords<R extends { toJSON(): Record<string, unknown> }, Filter, StoreQuery, Json> {
  public constructor(private readonly kind: RecordKind<R, Filter, StoreQuery>) {}

  public async list(scope: AgentScope, filter: Filter): Promise<Json[]> {
    const records = await this.kind.api(scope.agent).findAllByQuery(this.kind.toQuery(filter))
    const matches = this.kind.matches
    return (matches ? records.filter((record) => matches(record, filter)) : records).map(toRecordJson<Json>)
  }

  /** @throws {NotFoundError} naming the kind */
  public async find(scope: AgentScope, id: string): Promise<R> {
    const record = await this.kind.api(scope.agent).findById(id)
    if (!record) throw new NotFoundError(`${this.kind.name} not found`)
    return record
  }

  /** @throws {NotFoundError} naming the kind */
  public async get(scope: AgentScope, id: string): Promise<Json> {
    return toRecordJson<Json>(await this.find(scope, id))
  }

  /** Removes the record from this wallet (the other side is not told). @throws {NotFoundError} naming the kind */
  public async remove(scope: AgentScope, id: string): Promise<{ id: string }> {
    await this.find(scope, id)
    await this.kind.api(scope.agent).deleteById(id)
    return { id }
  }
}

/**
 * A Credo record as the contract types its JSON (`common/agent-contract/admin-api.ts`: the fields the platform reads
 * are named, the rest pass through). The one place where Credo's `Record<string, unknown>` is read as such.
 */
export function toRecordJson<Json>(record: { toJSON(): Record<string, unknown> }): Json {
  return record.toJSON() as Json
}
