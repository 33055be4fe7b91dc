/**
 * A Map that keeps at most `maxEntries`, dropping the least recently used entry (by `get` or `set`) when a new one
 * would exceed the bound. The caches of the agent (opened keys, derived keys, DID documents, record instances) use it
 * so that none of them grows with the traffic it serves.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>()

  public constructor(private readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer')
  }

  public get size(): number {
    return this.entries.size
  }

  /** The value, which becomes the most recently used. */
  public get(key: K): V | undefined {
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  /** The value under `key`, made by `make` and kept when there is none (a cache's usual read). */
  public remembered(key: K, make: () => V): V {
    let value = this.get(key)
    if (value === undefined) {
      value = make()
      this.set(key, value)
    }
    return value
  }

  public set(key: K, value: V): this {
    this.entries.delete(key)
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K)
    this.entries.set(key, value)
    return this
  }

  public delete(key: K): boolean {
    return this.entries.delete(key)
  }

  public keys(): IterableIterator<K> {
    return this.entries.keys()
  }

  /** The entries, least recently used first; reading them does not make them recently used. */
  public entriesByAge(): IterableIterator<[K, V]> {
    return this.entries.entries()
  }
}
