import type { TagsBase } from '@credo-ts/core'

import type { TagQuery } from './query-to-sql'
import { matchesTagQuery } from './tag-match'

/** A record as stored: the value kept as JSON text, so no instance handed out can share (and mutate) it. */
export interface MirroredRow {
  id: string
  json: string
  tags: TagsBase
}

interface Entry extends MirroredRow {
  /** Insertion order, the in-memory twin of the `seq` column (an update keeps its place). */
  order: number
}

/** Every record of one agent context and record type, with an index of its tag values. */
class Scope {
  public readonly rows = new Map<string, Entry>()
  /** tag value key (see `valueKey`) → ids of the records whose tags hold it */
  private readonly index = new Map<string, Set<string>>()
  private nextOrder = 0
  public bytes = 0

  /** Returns the row as kept here. */
  public put(row: MirroredRow): MirroredRow {
    const previous = this.rows.get(row.id)
    if (previous) this.unindex(previous)
    // Setting an existing key keeps its place in the Map, so iteration stays in insertion order.
    const kept = { ...row, order: previous?.order ?? this.nextOrder++ }
    this.rows.set(row.id, kept)
    this.bytes += rowCost(row)
    for (const key of valueKeys(row.tags)) {
      let ids = this.index.get(key)
      if (!ids) this.index.set(key, (ids = new Set()))
      ids.add(row.id)
    }
    return kept
  }

  public remove(id: string): void {
    const entry = this.rows.get(id)
    if (!entry) return
    this.rows.delete(id)
    this.unindex(entry)
  }

  /** The matching rows in insertion order. */
  public find(query: TagQuery): MirroredRow[] {
    const candidates = this.candidates(query)
    if (!candidates) return [...this.rows.values()].filter((row) => matchesTagQuery(query, row.tags))
    const matching: Entry[] = []
    for (const id of candidates) {
      const row = this.rows.get(id)
      if (row && matchesTagQuery(query, row.tags)) matching.push(row)
    }
    return matching.sort((a, b) => a.order - b.order)
  }

  /**
   * A set holding at least every id the query can match (the smallest the index offers), or undefined when the
   * query narrows nothing by equality (only `$not`, or an `$or` with an unconditional branch): then every row
   * is a candidate. The exact test is always `matchesTagQuery`.
   */
  private candidates(query: TagQuery): ReadonlySet<string> | undefined {
    let best: ReadonlySet<string> | undefined
    const consider = (ids: ReadonlySet<string> | undefined) => {
      if (ids && (!best || ids.size < best.size)) best = ids
    }
    for (const [tag, value] of Object.entries(query)) {
      if (tag.startsWith('$') || value === undefined || value === null) continue
      if (Array.isArray(value)) for (const item of value) consider(this.index.get(arrayItemKey(tag, item)) ?? NONE)
      else if (isScalar(value)) consider(this.index.get(scalarKey(tag, value)) ?? NONE)
    }
    for (const sub of query.$and ?? []) consider(this.candidates(sub))
    if (query.$or && query.$or.length > 0) {
      const branches = query.$or.map((sub) => this.candidates(sub))
      if (branches.every((ids) => ids !== undefined)) {
        const union = new Set<string>()
        for (const ids of branches) for (const id of ids ?? []) union.add(id)
        consider(union)
      }
    }
    return best
  }

  private unindex(entry: Entry): void {
    this.bytes -= rowCost(entry)
    for (const key of valueKeys(entry.tags)) {
      const ids = this.index.get(key)
      ids?.delete(entry.id)
      if (ids?.size === 0) this.index.delete(key)
    }
  }
}

const NONE: ReadonlySet<string> = new Set()

export interface RecordMirrorLimits {
  /**
   * Bytes kept over all scopes (a row's JSON, its tags and their index entries, estimated by `rowCost`); least
   * recently used scopes are dropped beyond it.
   */
  maxBytes: number
  /** A scope with more records than this is never mirrored (its reads go to the database). */
  maxRowsPerScope: number
}

export const DEFAULT_MIRROR_LIMITS: RecordMirrorLimits = { maxBytes: 64 * 1024 * 1024, maxRowsPerScope: 20000 }

/**
 * A scope may take at most this share of `maxBytes`; a larger one is served by SQL, as one over the row limit is.
 * Without it a scope larger than the budget was loaded whole, dropped at once to fit it, and loaded again by the next
 * read: every read of its type read the whole type from the database.
 */
const MAX_SCOPE_SHARE = 0.5

/**
 * A scope dropped to make room is not loaded again for this long; its reads go to the database meanwhile. Without
 * it, scopes that are read in turn and together exceed the budget evicted each other at every read, each read
 * loading a whole type (in `bench:agent` with an 8 MB budget, 8 times the CPU per exchange; worse than no mirror).
 */
export const EVICTED_RELOAD_DELAY_MS = 30_000

/**
 * An in-memory copy of the records of each (agent context, record type) the agent reads, loaded whole on first
 * use and kept current by every write, so reads never reach the database. Credo reads far more than it writes
 * (about three queries per write in a DIDComm exchange), and on PGlite every query costs the agent's own CPU.
 *
 * Sound because this process is the only writer of its records (one process per agent, enforced by a lock on
 * PGlite's directory or an advisory lock on the PostgreSQL schema) and MirroredStorageService applies each write
 * here after the database took it. A load that overlapped a
 * write to its scope is not kept (the next read loads again). Memory is bounded: scopes are dropped least
 * recently used first (and not loaded again for a while), and a scope too large to mirror (in rows, or in bytes
 * beyond a share of the budget) is served by SQL.
 */
export class RecordMirror {
  /** Loaded scopes, least recently used first. */
  private readonly scopes = new Map<string, Scope>()
  /** Bumped by every write per scope key, loaded or not. */
  private readonly versions = new Map<string, number>()
  private readonly tooLarge = new Set<string>()
  /** Scopes dropped to make room, by key: the time before which they are not loaded again. */
  private readonly evictedUntil = new Map<string, number>()
  private bytes = 0

  public constructor(
    public readonly limits: RecordMirrorLimits = DEFAULT_MIRROR_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The loaded scope, or undefined when the caller must read from the database (and may `load`). */
  public scope(contextId: string, type: string): Pick<Scope, 'rows' | 'find'> | undefined {
    const key = scopeKey(contextId, type)
    const scope = this.scopes.get(key)
    if (scope) {
      this.scopes.delete(key)
      this.scopes.set(key, scope)
    }
    return scope
  }

  /** Whether loading this scope is worth trying: it was not found too large, nor dropped for room a moment ago. */
  public mayLoad(contextId: string, type: string): boolean {
    const key = scopeKey(contextId, type)
    if (this.tooLarge.has(key)) return false
    const until = this.evictedUntil.get(key)
    if (until === undefined) return true
    if (this.now() < until) return false
    this.evictedUntil.delete(key)
    return true
  }

  public version(contextId: string, type: string): number {
    return this.versions.get(scopeKey(contextId, type)) ?? 0
  }

  /**
   * Installs a scope read from the database, unless a write to it completed while it was read (`seen` is the
   * version taken before the read) or it has more rows than `maxRowsPerScope`.
   */
  public install(contextId: string, type: string, rows: readonly MirroredRow[], seen: number): void {
    const key = scopeKey(contextId, type)
    if (this.version(contextId, type) !== seen || this.scopes.has(key)) return
    if (rows.length > this.limits.maxRowsPerScope) {
      this.tooLarge.add(key)
      return
    }
    const scope = new Scope()
    for (const row of rows) {
      scope.put(row)
      if (scope.bytes > this.maxScopeBytes()) {
        this.tooLarge.add(key)
        return
      }
    }
    this.scopes.set(key, scope)
    this.bytes += scope.bytes
    this.evict(key)
  }

  /**
   * After the database saved or updated a record (`row`), or deleted it (`row` undefined, `id` given).
   * @returns the row as kept here; undefined when the scope is not mirrored (or no longer is: it grew too large)
   */
  public written(contextId: string, type: string, id: string, row: MirroredRow | undefined): MirroredRow | undefined {
    const key = scopeKey(contextId, type)
    this.versions.set(key, this.version(contextId, type) + 1)
    const scope = this.scopes.get(key)
    if (!scope) return undefined
    this.bytes -= scope.bytes
    let kept: MirroredRow | undefined
    if (row) kept = scope.put(row)
    else scope.remove(id)
    this.bytes += scope.bytes
    if (scope.rows.size > this.limits.maxRowsPerScope || scope.bytes > this.maxScopeBytes()) {
      this.drop(key)
      this.tooLarge.add(key)
      return undefined
    }
    this.evict(key)
    return this.scopes.has(key) ? kept : undefined
  }

  /** After a write whose outcome is unknown (the database may or may not have taken it): forget the scope. */
  public invalidate(contextId: string, type: string): void {
    const key = scopeKey(contextId, type)
    this.versions.set(key, this.version(contextId, type) + 1)
    this.drop(key)
  }

  public dropContext(contextId: string): void {
    const prefix = `${contextId}\u0000`
    for (const key of [...this.versions.keys(), ...this.scopes.keys(), ...this.evictedUntil.keys()]) {
      if (!key.startsWith(prefix)) continue
      this.versions.set(key, (this.versions.get(key) ?? 0) + 1)
      this.drop(key)
      this.tooLarge.delete(key)
      this.evictedUntil.delete(key)
    }
  }

  private drop(key: string): void {
    const scope = this.scopes.get(key)
    if (!scope) return
    this.scopes.delete(key)
    this.bytes -= scope.bytes
  }

  /** Drops the least recently used scopes other than `keep` until the budget holds (`keep` fits: maxScopeBytes). */
  private evict(keep: string): void {
    for (const key of this.scopes.keys()) {
      if (this.bytes <= this.limits.maxBytes) return
      if (key === keep) continue
      this.drop(key)
      this.evictedUntil.set(key, this.now() + EVICTED_RELOAD_DELAY_MS)
    }
  }

  private maxScopeBytes(): number {
    return this.limits.maxBytes * MAX_SCOPE_SHARE
  }
}

function scopeKey(contextId: string, type: string): string {
  return `${contextId}\u0000${type}`
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

/** A scalar tag and an array tag never match each other's queries, so they are indexed under distinct keys. */
function scalarKey(tag: string, value: string | number | boolean): string {
  return `${tag}\u0000${typeof value}\u0000${String(value)}`
}

function arrayItemKey(tag: string, item: unknown): string {
  return `${tag}\u0000[]\u0000${String(item)}`
}

/** Per row: the Map entry, the Entry object and the tags object (V8 headers and hash-table slots, rounded up). */
const ROW_OVERHEAD_BYTES = 200
/** Per tag value: its property in the tags object and its id in the index's Set, beyond the characters. */
const TAG_OVERHEAD_BYTES = 64

/**
 * What a row holds in the heap, estimated: its JSON, and each tag value twice (in the tags object and in its index
 * key), with the objects around them. Counting only the JSON (as before) let the mirror's live heap reach several
 * times its budget (the soak's agents, docs/benchmarks.md, agent memory).
 */
export function rowCost(row: MirroredRow): number {
  let bytes = row.json.length + row.id.length + ROW_OVERHEAD_BYTES
  for (const key of valueKeys(row.tags)) bytes += 2 * key.length + TAG_OVERHEAD_BYTES
  return bytes
}

function valueKeys(tags: TagsBase): string[] {
  const keys: string[] = []
  for (const [tag, value] of Object.entries(tags)) {
    if (Array.isArray(value)) for (const item of value) keys.push(arrayItemKey(tag, item))
    else if (isScalar(value)) keys.push(scalarKey(tag, value))
  }
  return keys
}
