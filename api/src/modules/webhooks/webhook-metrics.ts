import { Counter, Histogram, Registry } from 'prom-client'
import { reuse } from '../../infra/queue/queue-metrics'

/** Results counted by `idplane_api_webhook_deliveries_total{result}`: one per attempt. */
export type DeliveryResult = 'delivered' | 'failed' | 'dead'

const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600]

/** The webhook module's metrics on one registry (reused when a second instance shares it). */
export class WebhookMetrics {
  private readonly deliveries: Counter<'result'>
  private readonly duration: Histogram<'result'>
  private readonly deliveryLag: Histogram
  private readonly agentEventLag: Histogram<'kind'>

  public constructor(registry: Registry) {
    this.deliveries = reuse(
      registry,
      'idplane_api_webhook_deliveries_total',
      (registers) =>
        new Counter({
          name: 'idplane_api_webhook_deliveries_total',
          help: 'Webhook delivery attempts by result: delivered, failed (retried later) or dead (last attempt failed)',
          labelNames: ['result'],
          registers,
        }),
    )
    this.duration = reuse(
      registry,
      'idplane_api_webhook_delivery_duration_seconds',
      (registers) =>
        new Histogram({
          name: 'idplane_api_webhook_delivery_duration_seconds',
          help: 'Time one webhook POST took, by result (ok, error)',
          labelNames: ['result'],
          buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
          registers,
        }),
    )
    this.deliveryLag = reuse(
      registry,
      'idplane_api_webhook_delivery_lag_seconds',
      (registers) =>
        new Histogram({
          name: 'idplane_api_webhook_delivery_lag_seconds',
          help: "Time from an event's occurredAt to its successful delivery to a webhook",
          buckets: LAG_BUCKETS,
          registers,
        }),
    )
    this.agentEventLag = reuse(
      registry,
      'idplane_api_agent_event_lag_seconds',
      (registers) =>
        new Histogram({
          name: 'idplane_api_agent_event_lag_seconds',
          help: "Time from an agent event's occurredAt to the API storing it, by kind",
          labelNames: ['kind'],
          buckets: LAG_BUCKETS,
          registers,
        }),
    )
  }

  /** Counts one attempt and its duration. */
  public attempt(result: DeliveryResult, seconds: number): void {
    this.deliveries.inc({ result })
    this.duration.observe({ result: result === 'delivered' ? 'ok' : 'error' }, seconds)
  }

  public delivered(occurredAt: Date, now = new Date()): void {
    this.deliveryLag.observe(Math.max(0, (now.getTime() - occurredAt.getTime()) / 1000))
  }

  public agentEventStored(kind: string, occurredAt: Date, now = new Date()): void {
    const seconds = (now.getTime() - occurredAt.getTime()) / 1000
    // A clock ahead of ours gives a negative lag: counted as zero rather than dropped.
    if (Number.isFinite(seconds)) this.agentEventLag.observe({ kind }, Math.max(0, seconds))
  }
}
