import { BoundedMap } from '@idplane/common'

/**
 * How long a row that another API replica may change is reused by the process that read it: an organization's
 * agent address, the roles a user holds in an organization, the organization of an agent's event token. The same
 * bound as a revoked session's (SESSION_REVOCATION_REFRESH_MS, 2 s by default): a change made on another replica is
 * seen here within it. This process's own changes are seen at once (the repository forgets what it writes).
 */
export const SHARED_ROW_REUSE_MS = 2_000

/**
 * Values read from the database that serve the next reads of the same key for `reuseMs` (docs/decisions.md, "API CPU
 * per request"). Only found values are kept: a missing row is read again each time. Reads of one key that overlap
 * share one query. `forget` drops a key, and a read that began before any `forget` keeps nothing, so a write here is
 * never followed by the value it replaced.
 *
 * A read made inside a transaction (`inTransaction()`, asked at each read; every user passes its entity manager's
 * check, so none can forget it) is isolated: a kept value serves it, but it never joins a read in flight nor
 * starts one that others join or that is kept. Joining would wait for a query made outside the transaction, and on
 * the embedded database (one connection, which the transaction holds) that query waits for the transaction: neither
 * ends (docs/decisions.md, "A transaction never waits for a read shared outside it"). What it reads may also be its
 * own uncommitted write, which no other caller should see.
 */
export class RecentReads<K, V> {
  private readonly values: BoundedMap<K, { value: V; readAt: number }>
  private readonly reading = new Map<K, Promise<V | null>>()
  /** Counts forgets: a read that began under another count may hold what a forget meant to drop. */
  private forgets = 0

  public constructor(
    private readonly reuseMs: number,
    maxEntries: number,
    private readonly inTransaction: () => boolean,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.values = new BoundedMap(maxEntries)
  }

  /** The value read at most `reuseMs` ago, else `read()`'s (kept when not null and not read inside a transaction). */
  public get(key: K, read: () => Promise<V | null>): Promise<V | null> {
    const known = this.values.get(key)
    if (known && this.now() - known.readAt < this.reuseMs) return Promise.resolve(known.value)
    if (this.inTransaction()) return read()
    const pending = this.reading.get(key)
    if (pending) return pending
    const startedAt = this.now()
    const forgetsAtStart = this.forgets
    const reading = read()
      .then((value) => {
        if (value === null) this.values.delete(key)
        else if (this.forgets === forgetsAtStart) this.values.set(key, { value, readAt: startedAt })
        return value
      })
      .finally(() => {
        if (this.reading.get(key) === reading) this.reading.delete(key)
      })
    this.reading.set(key, reading)
    return reading
  }

  /** Drops what is known of `key` (after a write to its row). */
  public forget(key: K): void {
    this.forgets += 1
    this.values.delete(key)
    this.reading.delete(key)
  }

  /** Drops the keys `matches` picks (after a write that touched several rows). */
  public forgetWhere(matches: (key: K) => boolean): void {
    this.forgets += 1
    for (const key of [...this.values.keys()]) if (matches(key)) this.values.delete(key)
    for (const key of [...this.reading.keys()]) if (matches(key)) this.reading.delete(key)
  }

  /** Drops everything (after a write whose key is not at hand). */
  public clear(): void {
    this.forgetWhere(() => true)
  }
}
