import type { Logger } from '@idplane/common'
import { type MaintenanceQuery, reportMaintenanceRun, timedVacuumAndAnalyze } from '@idplane/common/pglite-maintenance'
import { Histogram, type Registry } from 'prom-client'

/** Between two runs. A run takes about 0.1 s per 10,000 rows; retention keeps the API's tables from growing. */
export const EMBEDDED_MAINTENANCE_INTERVAL_MS = 10 * 60_000

/**
 * Vacuum and analyze of the API's embedded database (PGlite runs no autovacuum), at start and then on a clock: the
 * API cannot count the writes that reach PGlite through its socket as the agent's client does. Statements go through
 * the ORM's single connection, so a run waits for a transaction in progress and requests wait for a run.
 */
export class EmbeddedMaintenance {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = false
  private readonly duration: Histogram | undefined

  public constructor(
    private readonly query: MaintenanceQuery,
    private readonly logger: Logger,
    registry: Registry | undefined,
    private readonly intervalMs = EMBEDDED_MAINTENANCE_INTERVAL_MS,
  ) {
    this.duration =
      registry &&
      new Histogram({
        name: 'idplane_api_embedded_database_maintenance_duration_seconds',
        help: 'Vacuum-and-analyze runs of the embedded database (PGlite has no autovacuum), by outcome',
        labelNames: ['outcome'],
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
        registers: [registry],
      })
  }

  /** The first run now (resolves when it ends; it never rejects), the next ones every interval. */
  public start(): Promise<void> {
    this.running = this.run()
    return this.running
  }

  public async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.running
  }

  private async run(): Promise<void> {
    reportMaintenanceRun(await timedVacuumAndAnalyze(this.query), this.duration, this.logger)
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.running = this.run()
    }, this.intervalMs).unref()
  }
}
