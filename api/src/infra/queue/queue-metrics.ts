import { Counter, Histogram, Registry } from 'prom-client'

/** Outcomes counted by `idplane_api_queue_messages_total{queue,result}`. */
export type QueueResult = 'published' | 'publish_failed' | 'acked' | 'retried' | 'dead_lettered'

/** The queue layer's metrics on one registry; shared by both implementations (and several instances). */
export class QueueMetrics {
  private readonly messages: Counter<'queue' | 'result'>
  private readonly handlerDuration: Histogram<'queue' | 'result'>
  private readonly reconnects: Counter

  public constructor(registry: Registry) {
    this.messages = reuse(registry, 'idplane_api_queue_messages_total', (registers) => {
      return new Counter({
        name: 'idplane_api_queue_messages_total',
        help: 'Queue messages by queue and result (published, publish_failed, acked, retried, dead_lettered)',
        labelNames: ['queue', 'result'],
        registers,
      })
    })
    this.handlerDuration = reuse(registry, 'idplane_api_queue_handler_duration_seconds', (registers) => {
      return new Histogram({
        name: 'idplane_api_queue_handler_duration_seconds',
        help: 'Time a queue handler took, by queue and result (ok, error)',
        labelNames: ['queue', 'result'],
        buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
        registers,
      })
    })
    this.reconnects = reuse(registry, 'idplane_api_queue_reconnects_total', (registers) => {
      return new Counter({
        name: 'idplane_api_queue_reconnects_total',
        help: 'Successful AMQP reconnections',
        registers,
      })
    })
  }

  public count(queue: string, result: QueueResult): void {
    this.messages.inc({ queue, result })
  }

  /** Starts a handler timer; call the result with 'ok' or 'error'. */
  public timeHandler(queue: string): (result: 'ok' | 'error') => void {
    const end = this.handlerDuration.startTimer({ queue })
    return (result) => {
      end({ result })
    }
  }

  public countReconnect(): void {
    this.reconnects.inc()
  }
}

/** prom-client refuses a second registration of a name: reuse the metric when another instance made it. */
export function reuse<M>(registry: Registry, name: string, create: (registers: Registry[]) => M): M {
  const existing = registry.getSingleMetric(name)
  return existing ? (existing as unknown as M) : create([registry])
}
