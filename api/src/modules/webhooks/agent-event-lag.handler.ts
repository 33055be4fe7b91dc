import { injectable } from 'inversify'
import type { AgentEventHandler, AppliedAgentEvent } from '../../infra/api-module'
import { WebhookMetrics } from './webhook-metrics'

/**
 * Measures `idplane_api_agent_event_lag_seconds`: declared for every agent-event kind, it sees each new event once,
 * in the transaction that stores it. Changes nothing (a rolled-back event is measured again when it comes back).
 */
@injectable()
export class AgentEventLagProbe implements AgentEventHandler {
  public constructor(private readonly metrics: WebhookMetrics) {}

  public async handle(_orgId: string, event: AppliedAgentEvent): Promise<void> {
    this.metrics.agentEventStored(event.kind, new Date(event.occurredAt))
  }
}
