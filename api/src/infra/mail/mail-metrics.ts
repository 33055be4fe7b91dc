import { Counter, type Registry } from 'prom-client'
import { reuse } from '../queue/queue-metrics'

/** The mail counters, shared by whatever sends mail in this process (the outbox relay, the queued MailService). */
export interface MailMetrics {
  sent: Counter
  failed: Counter
}

export function mailMetrics(registry: Registry): MailMetrics {
  return {
    sent: reuse(registry, 'idplane_api_mail_sent_total', (registers) => {
      return new Counter({ name: 'idplane_api_mail_sent_total', help: 'Mails handed to the mail transport', registers })
    }),
    failed: reuse(registry, 'idplane_api_mail_send_failures_total', (registers) => {
      return new Counter({
        name: 'idplane_api_mail_send_failures_total',
        help: 'Failed mail send attempts (each is retried)',
        registers,
      })
    }),
  }
}
