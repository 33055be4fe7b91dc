/**
 * Runs tasks one after another per key, and tasks of different keys side by side. The storage writes each record
 * through it, so writes of one record reach the database, and the in-memory mirror, in the order they were made,
 * even over a connection pool that could otherwise complete them out of order.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>()

  public run<R>(key: string, task: () => Promise<R>): Promise<R> {
    const previous = this.tails.get(key)
    const result = previous ? previous.then(task) : task()
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    this.tails.set(key, tail)
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key)
    })
    return result
  }

  /** Keys with a task still queued or running (for tests and shutdown). */
  public get size(): number {
    return this.tails.size
  }
}
