import { Counter, Histogram, type Registry, type RegistryContentType } from 'prom-client'

/**
 * How a call to an agent ended: `success` (2xx), `rejected` (the agent refused the input: 4xx), `failed` (5xx or
 * an answer that breaks the contract), `timeout`, `unreachable` (no connection).
 */
export type AgentCallOutcome = 'success' | 'rejected' | 'failed' | 'timeout' | 'unreachable'

/** Metrics of the API's calls to agents (STYLE.md naming). */
export class AgentClientMetrics {
  public readonly requestDuration: Histogram<'method' | 'operation' | 'outcome'>
  public readonly repeatedCalls: Counter<'operation'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.requestDuration = new Histogram({
      name: 'idplane_api_agent_request_duration_seconds',
      help: "Duration of the API's calls to agents' admin APIs by HTTP method, operation and outcome",
      labelNames: ['method', 'operation', 'outcome'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    })
    this.repeatedCalls = new Counter({
      name: 'idplane_api_agent_requests_repeated_total',
      help: 'Calls to agents sent again on a new connection because a kept one closed before any answer, by operation',
      labelNames: ['operation'] as const,
      registers: [registry],
    })
  }
}
