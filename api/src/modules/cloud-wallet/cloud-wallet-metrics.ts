import { Gauge, Histogram, type Registry, type RegistryContentType } from 'prom-client'

export const CLOUD_WALLET_METRICS = Symbol.for('idplane.CloudWalletMetrics')

/** Cloud-wallet metrics (STYLE.md naming): the managed base agent's start, and the wallets it holds. */
export class CloudWalletMetrics {
  public readonly baseAgentStartDuration: Histogram<'runtime' | 'result'>

  public constructor(registry: Registry<RegistryContentType>, countWallets: () => Promise<number>) {
    this.baseAgentStartDuration = new Histogram({
      name: 'idplane_api_cloud_wallet_base_agent_start_duration_seconds',
      help: 'Time for the managed base-wallet agent to answer GET /agent (result=success) or fail (result=failure)',
      labelNames: ['runtime', 'result'] as const,
      buckets: [0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300],
      registers: [registry],
    })
    new Gauge({
      name: 'idplane_api_cloud_wallets',
      help: 'Cloud wallets (tenants of the base-wallet agent)',
      registers: [registry],
      async collect() {
        const count = await countWallets().catch(() => undefined)
        if (count !== undefined) this.set(count)
      },
    })
  }
}
