/**
 * Where fixed-window counters live. RateLimitHitsRepository (auth module) keeps them in the database so that every API replica
 * counts the same hits; unit tests use an in-memory store.
 */
export abstract class RateLimitStore {
  /** Adds `amount` hits (1 by default) to the counter of `key` in the window; resolves with the new count. */
  public abstract increment(key: string, windowStart: Date, amount?: number): Promise<number>

  /** Deletes the counters of windows that started before `cutoff`; resolves with how many went. */
  public abstract deleteWindowsBefore(cutoff: Date): Promise<number>
}
