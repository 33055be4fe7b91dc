import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { Waiters } from './agent-harness'

/** The `data` of an organization webhook delivery (docs/api-usage.md, Webhooks). */
export interface WebhookEvent {
  id: string
  type: string
  orgId: string | null
  occurredAt: string
  record: Record<string, unknown> & { id: string; state?: string }
}

/**
 * A registered organization webhook for benchmarks: checks every signature against `secret`, counts each event id
 * once (a second copy is counted as a duplicate), notes when each event arrived and the lag from its time to then.
 */
export class WebhookReceiver extends Waiters<WebhookEvent> {
  public readonly events = new Map<string, WebhookEvent>()
  /** Arrival time (Date.now()) of each event id's first copy. */
  public readonly receivedAt = new Map<string, number>()
  public duplicates = 0
  public badSignatures = 0
  public readonly lagsMs: number[] = []

  public constructor(private readonly secret: string) {
    super()
  }

  public receive(raw: string, timestamp: string | undefined, signature: string | undefined): void {
    const expected = createHmac('sha256', this.secret).update(`${timestamp}.${raw}`).digest('hex')
    if (signature !== expected) this.badSignatures++
    const { data } = JSON.parse(raw) as { webhookUrl: string; data: WebhookEvent }
    if (this.events.has(data.id)) {
      this.duplicates++
      return
    }
    const now = Date.now()
    this.events.set(data.id, data)
    this.receivedAt.set(data.id, now)
    this.lagsMs.push(now - Date.parse(data.occurredAt))
    this.add(data)
  }

  /** Listens on a free port of 127.0.0.1; the webhook URL is `http://127.0.0.1:<port>/hook`. */
  public listen(): Promise<Server> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        try {
          this.receive(
            Buffer.concat(chunks).toString('utf8'),
            req.headers['x-timestamp'] as string | undefined,
            req.headers['x-signature'] as string | undefined,
          )
          res.statusCode = 204
        } catch {
          res.statusCode = 400
        }
        res.end()
      })
    })
    server.keepAliveTimeout = 60_000
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
  }
}

/** Matches a webhook event of `type` whose record is in `state` and has `value` in `field`. */
export const isWebhookEvent =
  (type: string, state: string, field: string, value: unknown) =>
  (event: WebhookEvent): boolean =>
    event.type === type && event.record.state === state && event.record[field] === value
