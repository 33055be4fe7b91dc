import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { InvalidInputError } from '@idplane/common'
import { checkDeliveryTarget, pinnedLookup, type Resolver } from '@idplane/common/net/delivery-target'

/**
 * Connections to receivers are kept open between deliveries (a TCP and TLS handshake per event was a large part of
 * a delivery's cost). Sockets are pooled by host name and port; a pooled socket was opened to an address checked
 * then, and every delivery checks the name again before it may use one.
 */
const KEEP_ALIVE = { keepAlive: true, keepAliveMsecs: 1_000, maxFreeSockets: 16, scheduling: 'lifo' as const }
const httpAgent = new http.Agent(KEEP_ALIVE)
const httpsAgent = new https.Agent(KEEP_ALIVE)

/** What one POST came to. `status` is absent when no answer came (refused target, network error, timeout). */
export interface AttemptResult {
  isSuccess: boolean
  status?: number
  /** For a failure: a status line or the error's class and message, one line. */
  error?: string
}

export interface SendOptions {
  timeoutMs: number
  allowPrivateTargets: boolean
  /** A test's DNS. */
  resolve?: Resolver
}

/**
 * POSTs one body. The target is checked (checkDeliveryTarget) right before the call and the connection goes to
 * the checked address, not to the name again, so DNS cannot point the call elsewhere in between. Any 2xx is a
 * success; redirects are not followed (a 3xx is a failure). The answer's body is read and dropped. A kept-alive
 * connection the receiver closed as we reused it is retried once on a new one (receivers deduplicate by event id).
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<AttemptResult> {
  let target
  try {
    target = await checkDeliveryTarget(url, {
      allowPrivateTargets: options.allowPrivateTargets,
      field: 'webhookUrl',
      resolve: options.resolve,
    })
  } catch (error) {
    return { isSuccess: false, error: describe(error) }
  }
  // Hands the checked address to the socket instead of resolving the name again.
  const lookup = pinnedLookup(target)
  const isHttps = target.url.protocol === 'https:'
  const attempt = (agent: http.Agent | false) =>
    send(isHttps ? https : http, target.url, body, headers, lookup, agent, options.timeoutMs)
  const first = await attempt(isHttps ? httpsAgent : httpAgent)
  return first.isStaleSocket ? (await attempt(false)).result : first.result
}

/** One request; `isStaleSocket` when a reused connection failed before any answer (closed by the receiver). */
function send(
  client: typeof http | typeof https,
  url: URL,
  body: string,
  headers: Record<string, string>,
  lookup: LookupFunction,
  agent: http.Agent | false,
  timeoutMs: number,
): Promise<{ result: AttemptResult; isStaleSocket: boolean }> {
  return new Promise((resolve) => {
    let isSettled = false
    const settle = (result: AttemptResult, isStaleSocket = false) => {
      if (isSettled) return
      isSettled = true
      clearTimeout(timer)
      resolve({ result, isStaleSocket })
    }
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup,
        agent,
      },
      (response) => {
        const status = response.statusCode ?? 0
        response.resume()
        response.once('end', () => {
          settle(
            status >= 200 && status < 300
              ? { isSuccess: true, status }
              : { isSuccess: false, status, error: `HTTP ${status}` },
          )
        })
        response.once('error', (error) => settle({ isSuccess: false, status, error: describe(error) }))
      },
    )
    const timer = setTimeout(() => {
      settle({ isSuccess: false, error: `Timeout: no answer within ${timeoutMs} ms` })
      request.destroy()
    }, timeoutMs)
    request.once('error', (error) =>
      settle({ isSuccess: false, error: describe(error) }, request.reusedSocket && isConnectionReset(error)),
    )
    request.end(body)
  })
}

function isConnectionReset(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ECONNRESET' || code === 'EPIPE'
}

function describe(error: unknown): string {
  const detail = error instanceof InvalidInputError ? error.fields.map((field) => `: ${field.message}`).join('') : ''
  const text = error instanceof Error ? `${error.name}: ${error.message}${detail}` : String(error)
  return text.replace(/\s+/g, ' ').slice(0, 500)
}
