import type { TagsBase } from '@credo-ts/core'

import { matchesTagQuery } from './tag-match'
import type { TagQuery } from './query-to-sql'

/** A record as stored: the value kept as JSON text, so no instance handed out can share (and mutate) it. */
export interface CachedRow {
  id: string
  json: string
  tags: TagsBase
}

interface QueryEntry {
  query: TagQuery
  rows: readonly CachedRow[]
}

interface Scope {
  /** Bumped by every write; a read that saw the version change while it ran is not cached. */
  version: number
  queries: Map<string, QueryEntry>
  byId: Map<string, CachedRow>
}

/**
 * Read-through cache of query results and records per agent context and record type. Credo repeats the same
 * lookups many times per message (DID records by key, DIDComm messages by thread), and on PGlite every query costs
 * the agent's own CPU. Sound because this process is the only writer of its database (one process per agent, a
 * lock on PGlite's directory): after each write, entries that held the record or that the record now matches are
 * dropped. Results of paged queries are not cached (a record leaving the match would shift the page).
 */
export class RecordCache {
  private readonly scopes = new Map<string, Scope>()

  public constructor(private readonly maxEntriesPerScope = 200) {}

  public version(contextId: string, type: string): number {
    return this.scope(contextId, type).version
  }

  public getQuery(contextId: string, type: string, key: string): readonly CachedRow[] | undefined {
    return this.scopes.get(scopeKey(contextId, type))?.queries.get(key)?.rows
  }

  public setQuery(
    contextId: string,
    type: string,
    key: string,
    query: TagQuery,
    rows: readonly CachedRow[],
    seen: number,
  ) {
    const scope = this.scope(contextId, type)
    if (scope.version !== seen) return
    if (scope.queries.size >= this.maxEntriesPerScope) scope.queries.clear()
    scope.queries.set(key, { query, rows })
  }

  public getById(contextId: string, type: string, id: string): CachedRow | undefined {
    return this.scopes.get(scopeKey(contextId, type))?.byId.get(id)
  }

  public setById(contextId: string, type: string, row: CachedRow, seen: number): void {
    const scope = this.scope(contextId, type)
    if (scope.version !== seen) return
    if (scope.byId.size >= this.maxEntriesPerScope) scope.byId.clear()
    scope.byId.set(row.id, row)
  }

  /** After a record was saved, updated (with its new tags) or deleted (no tags). */
  public written(contextId: string, type: string, id: string, tags: TagsBase | undefined): void {
    const scope = this.scope(contextId, type)
    scope.version++
    scope.byId.delete(id)
    for (const [key, entry] of scope.queries) {
      if (entry.rows.some((row) => row.id === id) || (tags !== undefined && matchesTagQuery(entry.query, tags))) {
        scope.queries.delete(key)
      }
    }
  }

  public dropContext(contextId: string): void {
    for (const [key, scope] of this.scopes) {
      if (!key.startsWith(`${contextId}\u0000`)) continue
      scope.version++
      scope.queries.clear()
      scope.byId.clear()
    }
  }

  private scope(contextId: string, type: string): Scope {
    const key = scopeKey(contextId, type)
    let scope = this.scopes.get(key)
    if (!scope) {
      scope = { version: 0, queries: new Map(), byId: new Map() }
      this.scopes.set(key, scope)
    }
    return scope
  }
}

function scopeKey(contextId: string, type: string): string {
  return `${contextId}\u0000${type}`
}
