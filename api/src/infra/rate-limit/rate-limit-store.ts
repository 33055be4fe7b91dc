/**
 * Where fixed-window counters live. SqlRateLimitStore keeps them in the database so that every API replica
 * counts the same hits; unit tests use an in-memory store.
 */
export abstract class RateLimitStore {
  /** Adds one hit to the counter of `key` in the window starting at `windowStart`; resolves with the new count. */
  public abstract increment(key: string, windowStart: Date): Promise<number>

  /** Deletes the counters of windows that started before `cutoff`; resolves with how many went. */
  public abstract deleteWindowsBefore(cutoff: Date): Promise<number>
}
