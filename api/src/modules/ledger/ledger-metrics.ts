import { Counter, Histogram, type Registry, type RegistryContentType } from 'prom-client'

/**
 * `stale`: a signed request bound to an earlier state of its DID (a replay, or two writes of one DID racing);
 * `refused`: the head did not match its signed anchor, so no write was accepted.
 */
export type AppendOutcome = 'appended' | 'existing' | 'conflict' | 'stale' | 'rejected' | 'refused' | 'error'

/** Ledger write metrics (STYLE.md naming): how long an append takes, and appends by type and outcome. */
export class LedgerMetrics {
  public readonly appendDuration: Histogram<'type'>
  public readonly appends: Counter<'type' | 'outcome'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.appendDuration = new Histogram({
      name: 'idplane_api_ledger_append_duration_seconds',
      help: 'Time to validate, serialize and store one ledger write (lock wait included)',
      labelNames: ['type'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    })
    this.appends = new Counter({
      name: 'idplane_api_ledger_appends_total',
      help: 'Ledger writes by transaction type and outcome (appended, existing, conflict, stale, rejected, refused, error)',
      labelNames: ['type', 'outcome'] as const,
      registers: [registry],
    })
  }
}
