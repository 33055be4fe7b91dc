import { Counter, Histogram, type Registry, type RegistryContentType } from 'prom-client'

/** Holder records of cloud wallets (STYLE.md naming): what the base agent's reports did, and how long applying took. */
export class WalletRecordMetrics {
  public readonly applied: Counter<'kind' | 'outcome'>
  public readonly applySeconds: Histogram<'source'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.applied = new Counter({
      name: 'idplane_api_wallet_record_reports_total',
      help: 'Base-agent reports of wallet records (events and answers), by kind and outcome (insert, advance, refresh, ignore, no-wallet)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    })
    this.applySeconds = new Histogram({
      name: 'idplane_api_wallet_record_apply_seconds',
      help: 'Time to apply one base-agent report to a wallet record (its transaction included), by source',
      labelNames: ['source'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    })
  }
}
