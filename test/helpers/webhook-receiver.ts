import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One request the receiver got. */
export interface ReceivedDelivery {
  path: string
  /** Lower-cased header names. */
  headers: Record<string, string>
  rawBody: string
  /** The parsed body, when it was JSON: `{ webhookUrl, data }`. */
  body?: { webhookUrl?: unknown; data?: { id?: unknown; type?: unknown } & Record<string, unknown> }
  /** `data.id`, when present. */
  eventId?: string
  /** What the signature check found: valid, missing where a secret is set, invalid, or absent and not expected. */
  signature: 'valid' | 'missing' | 'invalid' | 'unsigned'
  /** The status the receiver answered with. */
  answeredWith: number
  receivedAt: Date
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`; append a path per target (`/hooks/org-a`). */
  readonly url: string
  /** Every request, in arrival order (also the refused ones). */
  readonly requests: ReceivedDelivery[]
  /** Requests answered 2xx with a valid body and signature, in arrival order. */
  accepted(path?: string): ReceivedDelivery[]
  /** Distinct event ids accepted on `path` (or anywhere). */
  eventIds(path?: string): string[]
  /** Event ids accepted more than once on one path. */
  duplicates(path?: string): string[]
  /** Requests whose signature was missing or wrong where the path has a secret, or signed where it has none. */
  badSignatures(): ReceivedDelivery[]
  /** Requests on `path` get the secret check (`X-Signature` = hex HMAC-SHA256 of `<X-Timestamp>.<body>`). */
  setSecret(path: string, secret: string | undefined): void
  /** Answers `status` (500 by default) to every request until `recover()`. */
  fail(status?: number): void
  recover(): void
  /** Answers each request only after `ms` (0: at once), to keep deliveries in flight. */
  slow(ms: number): void
  /** Closes the port (connections refused) until `comeBack()`. */
  goDown(): Promise<void>
  comeBack(): Promise<void>
  /** Resolves once `predicate` holds, checked on every request and every 100 ms. */
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>
  stop(): Promise<void>
}

/**
 * An HTTP server that records webhook deliveries and checks every signature against the secret set for its path;
 * it can answer errors or be down for a while. Used by the webhooks tests and the cross-module e2e.
 */
export async function startWebhookReceiver(options: { port?: number } = {}): Promise<WebhookReceiver> {
  const requests: ReceivedDelivery[] = []
  const secrets = new Map<string, string>()
  const sockets = new Set<Socket>()
  let failStatus: number | undefined
  let answerDelayMs = 0
  let server: Server | undefined
  let port = options.port ?? 0

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8')
      const path = (req.url ?? '/').split('?')[0] ?? '/'
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : (value ?? ''),
        ]),
      )
      let body: ReceivedDelivery['body']
      try {
        body = JSON.parse(rawBody) as ReceivedDelivery['body']
      } catch {
        body = undefined
      }
      const signature = checkSignature(secrets.get(path), headers, rawBody)
      const isWellFormed = body !== undefined && req.method === 'POST' && typeof body.data?.id === 'string'
      const answeredWith = failStatus ?? (isWellFormed ? 200 : 400)
      requests.push({
        path,
        headers,
        rawBody,
        body,
        eventId: typeof body?.data?.id === 'string' ? body.data.id : undefined,
        signature,
        answeredWith,
        receivedAt: new Date(),
      })
      const answer = () =>
        res.writeHead(answeredWith, { 'content-type': 'text/plain' }).end(answeredWith < 300 ? 'ok' : 'failed')
      if (answerDelayMs > 0) setTimeout(answer, answerDelayMs)
      else answer()
    })
  }

  const listen = async () => {
    server = createServer(handle)
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject)
      server?.listen(port, '127.0.0.1', () => resolve())
    })
    port = (server.address() as AddressInfo).port
  }
  const close = async () => {
    const closing = server
    server = undefined
    if (!closing) return
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => closing.close(() => resolve()))
  }

  await listen()
  const isAccepted = (request: ReceivedDelivery, path?: string) =>
    request.answeredWith < 300 &&
    request.eventId !== undefined &&
    (request.signature === 'valid' || request.signature === 'unsigned') &&
    (path === undefined || request.path === path)

  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}`,
    requests,
    accepted: (path) => requests.filter((request) => isAccepted(request, path)),
    eventIds: (path) => [...new Set(receiver.accepted(path).map((request) => `${request.eventId}`))],
    duplicates: (path) => {
      const seen = new Set<string>()
      const twice = new Set<string>()
      for (const request of receiver.accepted(path)) {
        const key = `${request.path} ${request.eventId}`
        if (seen.has(key)) twice.add(`${request.eventId}`)
        seen.add(key)
      }
      return [...twice]
    },
    badSignatures: () =>
      requests.filter((request) => request.signature === 'missing' || request.signature === 'invalid'),
    setSecret: (path, secret) => {
      if (secret === undefined) secrets.delete(path)
      else secrets.set(path, secret)
    },
    fail: (status = 500) => {
      failStatus = status
    },
    recover: () => {
      failStatus = undefined
    },
    slow: (ms) => {
      answerDelayMs = ms
    },
    goDown: close,
    comeBack: listen,
    waitFor: async (predicate, timeoutMs = 30_000, what = 'webhook deliveries') => {
      const deadline = Date.now() + timeoutMs
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (${requests.length} requests so far)`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    stop: close,
  }
  return receiver
}

/** Checks `X-Signature` against `<X-Timestamp>.<body>` under the path's secret. */
function checkSignature(
  secret: string | undefined,
  headers: Record<string, string>,
  rawBody: string,
): ReceivedDelivery['signature'] {
  const given = headers['x-signature']
  const timestamp = headers['x-timestamp']
  if (secret === undefined) return given === undefined ? 'unsigned' : 'invalid'
  if (given === undefined || timestamp === undefined) return 'missing'
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest()
  const actual = Buffer.from(given, 'hex')
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? 'valid' : 'invalid'
}
