import { Gauge, Histogram, type Registry, type RegistryContentType } from 'prom-client'
import { AGENT_STATUSES, type AgentStatus } from './org-agent.states'

/** Provisioning metrics (STYLE.md naming): duration by runtime and result, agents by status. */
export class AgentMetrics {
  public readonly provisioningDuration: Histogram<'runtime' | 'result'>

  public constructor(
    registry: Registry<RegistryContentType>,
    countByStatus: () => Promise<Partial<Record<AgentStatus, number>>>,
  ) {
    this.provisioningDuration = new Histogram({
      name: 'idplane_api_agent_provisioning_duration_seconds',
      help: 'Time from spin-up to DID_CREATED (result=success) or FAILED (result=failure)',
      labelNames: ['runtime', 'result'] as const,
      buckets: [1, 2.5, 5, 10, 20, 30, 60, 120, 300],
      registers: [registry],
    })
    new Gauge({
      name: 'idplane_api_agent_records',
      help: 'Organization agents by provisioning status',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        const counts = await countByStatus().catch(() => undefined)
        if (!counts) return
        for (const status of AGENT_STATUSES) this.set({ status }, counts[status] ?? 0)
      },
    })
  }
}
