import { Counter, Gauge, Histogram, type Registry, type RegistryContentType } from 'prom-client'

/**
 * Bulk issuance metrics: rows by status (`idplane_api_bulk_issuance_rows_total{status}`: each row counted once
 * per status it reaches; `rate(...{status="sent"}[1m])` is rows per second), the time one row's job takes
 * (`idplane_api_bulk_issuance_row_duration_seconds{result}`) and the rows waiting on the queue
 * (`idplane_api_bulk_issuance_queue_depth`, read from the database when scraped).
 */
export class BulkMetrics {
  public readonly rows: Counter<'status'>
  public readonly rowDuration: Histogram<'result'>

  public constructor(registry: Registry<RegistryContentType>, queueDepth: () => Promise<number>) {
    this.rows = new Counter({
      name: 'idplane_api_bulk_issuance_rows_total',
      help: 'Bulk issuance rows by the status they reached (invalid, pending, queued, sent, failed)',
      labelNames: ['status'],
      registers: [registry],
    })
    this.rowDuration = new Histogram({
      name: 'idplane_api_bulk_issuance_row_duration_seconds',
      help: 'Time one bulk issuance row job took (agent offer, short link, mail into the outbox), by result',
      labelNames: ['result'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    })
    new Gauge({
      name: 'idplane_api_bulk_issuance_queue_depth',
      help: 'Bulk issuance rows queued and not yet done (all organizations)',
      registers: [registry],
      async collect() {
        try {
          this.set(await queueDepth())
        } catch {
          // A scrape during shutdown or a database outage keeps the last value rather than failing /metrics.
        }
      },
    })
  }
}
