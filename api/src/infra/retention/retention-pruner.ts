import { setTimeout as sleep } from 'node:timers/promises'
import { Counter, Histogram, type Registry } from 'prom-client'
import { Logger } from '@idplane/common'
import { reuse } from '../queue/queue-metrics'

/**
 * What one module (or infra) prunes: finished rows of one table, past the retention its own setting names. The
 * query lives in the table's repository; the pruner only calls it batch after batch.
 */
export interface RetentionTask {
  /** The table it prunes: the metrics' `table` label and the logs' name for it. */
  readonly table: string
  /**
   * Deletes at most `limit` rows past their retention, oldest first, without waiting for rows another process
   * holds (`for update skip locked`); resolves with how many rows this call deleted.
   */
  pruneBatch(limit: number): Promise<number>
}

export interface RetentionOptions {
  /** RETENTION_INTERVAL_SECONDS as milliseconds: the pause between two passes of one process. */
  intervalMs: number
  /** RETENTION_BATCH_SIZE: rows one DELETE removes at most. */
  batchSize: number
  /** RETENTION_BATCH_PAUSE_MS: pause between two batches of a table, so writers and the relay get their turn. */
  pauseMs: number
  /** Batches per table and pass at most; a larger backlog continues in the next pass. */
  maxBatchesPerPass: number
}

/** The longest retention a setting takes: ten years, for "keep them all". */
export const MAX_RETENTION_SECONDS = 3_650 * 86_400

/** @default 600 s between passes: rows are kept days, a pass costs a few index reads when nothing is due. */
export const DEFAULT_RETENTION_INTERVAL_SECONDS = 600
/** @default 500 rows per DELETE: each statement holds its row locks for milliseconds. */
export const DEFAULT_RETENTION_BATCH_SIZE = 500
/** @default 50 ms between batches. */
export const DEFAULT_RETENTION_BATCH_PAUSE_MS = 50
/** @default 200 batches (100 000 rows with the default batch size) per table and pass. */
export const DEFAULT_RETENTION_MAX_BATCHES_PER_PASS = 200

export interface BatchLoopOptions {
  batchSize: number
  pauseMs: number
  maxBatches: number
  /** Asked before every batch after the first: true ends the loop (the process is stopping). */
  isStopping?: () => boolean
  /** Waits between batches; tests pass a fake. */
  pause?: (ms: number) => Promise<unknown>
}

/**
 * Calls `pruneBatch` until a batch deletes fewer rows than `batchSize` (nothing more is due), `maxBatches` were
 * run or the process is stopping, pausing `pauseMs` between batches. Resolves with the rows deleted.
 */
export async function pruneInBatches(
  pruneBatch: (limit: number) => Promise<number>,
  options: BatchLoopOptions,
): Promise<number> {
  const pause = options.pause ?? ((ms: number) => sleep(ms))
  let total = 0
  for (let batch = 0; batch < options.maxBatches; batch++) {
    if (batch > 0) {
      if (options.isStopping?.()) break
      if (options.pauseMs > 0) await pause(options.pauseMs)
    }
    const deleted = await pruneBatch(options.batchSize)
    total += deleted
    // Fewer than asked: nothing more was due when it ran (or another replica took the rest).
    if (deleted < options.batchSize) break
  }
  return total
}

/**
 * The one retention mechanism (docs/reliability.md, "Retention"): every process runs it on a timer, and each pass
 * prunes every contributed table in small batches. Safe on every replica at once: a batch deletes only rows it
 * could lock without waiting (`for update skip locked`), so concurrent passes delete disjoint rows, never fail on
 * each other, and each counts only what it deleted.
 */
export class RetentionPruner {
  private readonly logger: Logger
  private readonly pruned: Counter<'table'>
  private readonly failures: Counter<'table'>
  private readonly duration: Histogram<'table'>
  private timer?: NodeJS.Timeout
  private running?: Promise<unknown>
  private isStopped = true
  /** Set by stop(): a pass in progress ends after its current batch. */
  private isStopping = false

  public constructor(
    private readonly tasks: readonly RetentionTask[],
    private readonly options: RetentionOptions,
    logger: Logger,
    registry: Registry,
  ) {
    this.logger = logger.child({ component: 'retention' })
    this.pruned = reuse(registry, 'idplane_api_retention_pruned_rows_total', (registers) => {
      return new Counter({
        name: 'idplane_api_retention_pruned_rows_total',
        help: 'Rows deleted by retention, by table',
        labelNames: ['table'],
        registers,
      })
    })
    this.failures = reuse(registry, 'idplane_api_retention_prune_failures_total', (registers) => {
      return new Counter({
        name: 'idplane_api_retention_prune_failures_total',
        help: 'Retention passes of a table that failed (retried at the next pass), by table',
        labelNames: ['table'],
        registers,
      })
    })
    this.duration = reuse(registry, 'idplane_api_retention_prune_duration_seconds', (registers) => {
      return new Histogram({
        name: 'idplane_api_retention_prune_duration_seconds',
        help: 'Time one retention pass took on one table (its batches and pauses), by table',
        labelNames: ['table'],
        buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
        registers,
      })
    })
  }

  /** The tables it prunes, in order. */
  public get tables(): string[] {
    return this.tasks.map((task) => task.table)
  }

  /** Starts the timer; the first pass comes after a random part of the interval, so replicas spread out. */
  public start(): void {
    if (!this.isStopped) return
    this.isStopped = false
    this.isStopping = false
    this.schedule(Math.floor(Math.random() * Math.min(this.options.intervalMs, 60_000)))
  }

  /** Stops the timer and waits for a pass in progress (it ends after its current batch). */
  public async stop(): Promise<void> {
    this.isStopped = true
    this.isStopping = true
    clearTimeout(this.timer)
    await this.running
  }

  /**
   * One pass now over every table, one after the other. A table whose prune fails is logged and counted; the
   * others are still pruned. Resolves with the rows deleted per table.
   */
  public async pruneOnce(): Promise<Record<string, number>> {
    const pass = this.runPass()
    this.running = pass
    try {
      return await pass
    } finally {
      if (this.running === pass) this.running = undefined
    }
  }

  private async runPass(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {}
    for (const task of this.tasks) {
      const endTimer = this.duration.startTimer({ table: task.table })
      try {
        deleted[task.table] = await pruneInBatches((limit) => task.pruneBatch(limit), {
          batchSize: this.options.batchSize,
          pauseMs: this.options.pauseMs,
          maxBatches: this.options.maxBatchesPerPass,
          isStopping: () => this.isStopping,
        })
      } catch (error) {
        deleted[task.table] = 0
        this.failures.inc({ table: task.table })
        this.logger.warn('Failed to prune a table; retrying at the next pass', { table: task.table, error })
      } finally {
        endTimer()
      }
      if (deleted[task.table] > 0) {
        this.pruned.inc({ table: task.table }, deleted[task.table])
        this.logger.info('Pruned rows past their retention', { table: task.table, rows: deleted[task.table] })
      }
    }
    return deleted
  }

  private schedule(delayMs: number): void {
    if (this.isStopped) return
    this.timer = setTimeout(() => {
      void this.pruneOnce().finally(() => this.schedule(this.options.intervalMs))
    }, delayMs)
    this.timer.unref()
  }
}
