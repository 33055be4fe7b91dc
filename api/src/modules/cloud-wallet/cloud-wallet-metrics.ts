import { Gauge, Histogram, type Registry, type RegistryContentType } from 'prom-client'

export const CLOUD_WALLET_METRICS = Symbol.for('idplane.CloudWalletMetrics')

/**
 * Cloud-wallet metrics (STYLE.md naming): the managed base agent's start, the wallets it holds, and the holders'
 * requests waiting for their turn (wallet-admission.ts).
 */
export class CloudWalletMetrics {
  public readonly baseAgentStartDuration: Histogram<'runtime' | 'result'>
  public readonly admissionWait: Histogram<'result'>
  private admission: () => { running: number; queued: number } = () => ({ running: 0, queued: 0 })

  public constructor(registry: Registry<RegistryContentType>, countWallets: () => Promise<number>) {
    this.baseAgentStartDuration = new Histogram({
      name: 'idplane_api_cloud_wallet_base_agent_start_duration_seconds',
      help: 'Time for the managed base-wallet agent to answer GET /agent (result=success) or fail (result=failure)',
      labelNames: ['runtime', 'result'] as const,
      buckets: [0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300],
      registers: [registry],
    })
    this.admissionWait = new Histogram({
      name: 'idplane_api_cloud_wallet_admission_wait_seconds',
      help:
        "A holder's wallet request's wait for its turn: result=admitted (then run), abandoned (the client left while " +
        'it waited), refused (the queue was full: 429)',
      labelNames: ['result'] as const,
      buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    })
    const admission = () => this.admission()
    new Gauge({
      name: 'idplane_api_cloud_wallet_requests',
      help: "Holders' wallet requests in this process: state=running (holding a turn) or waiting (queued for one)",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const { running, queued } = admission()
        this.set({ state: 'running' }, running)
        this.set({ state: 'waiting' }, queued)
      },
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

  /** Where the admission gauge reads its figures (the one WalletAdmission of the process). */
  public observeAdmission(stats: () => { running: number; queued: number }): void {
    this.admission = stats
  }
}
