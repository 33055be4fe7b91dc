import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'

/** Network errors of a connection closed under a request. */
const BROKEN_CONNECTION = new Set(['ECONNRESET', 'EPIPE'])

export interface KeptConnectionRequest {
  url: URL
  method: string
  headers: Record<string, string>
  body?: Buffer
  /** The pool of kept connections to take one from (its scheme's). */
  pool: http.Agent
  /** The whole answer, body included, and the one repeat, must come within this time. */
  timeoutMs: number
  /** The error a call that ran out of time fails with. */
  timeoutError: () => Error
  /** Connects to these addresses instead of resolving the name (a checked target). */
  lookup?: LookupFunction
  /** Told when the request is sent once more (for a metric). */
  onRepeat?: () => void
  /**
   * false: never sent a second time, even after a reused connection broke before any answer (a write the caller must
   * know may have landed: the server could have read it before the break). Default true.
   */
  mayRepeat?: boolean
}

export interface KeptConnectionAnswer {
  status: number
  body: Buffer
}

/**
 * One request and its whole answer over a kept-alive connection: the one way our processes call over HTTP where
 * connections are kept (the API calling agents, agents sending DIDComm messages and events).
 *
 * A kept connection the server closes as we reuse it (its keep-alive timer ran out as ours was about to drop it, which
 * on a loaded machine is not rare) breaks before any answer, though the server never read the request. Such a
 * failure, on a reused connection with nothing answered, is sent once more on a new connection of its own (not
 * pooled: another kept one could be closing as well), within the same time, as Node's documentation advises. A server
 * killed during the call breaks the same way; the repeat then finds nothing listening, and the first error stands.
 * A new connection that breaks is not sent again.
 * @throws the network error (its `code`), or `timeoutError()` when no whole answer came in time
 */
export async function requestOverKeptConnection(request: KeptConnectionRequest): Promise<KeptConnectionAnswer> {
  const deadline = Date.now() + request.timeoutMs
  try {
    return await sendOnce(request, request.pool, request.timeoutMs)
  } catch (error) {
    if (request.mayRepeat === false || !closedAsReused.has(error as Error)) throw error
    request.onRepeat?.()
    try {
      return await sendOnce(request, false, Math.max(1, deadline - Date.now()))
    } catch (repeated) {
      throw timedOut.has(repeated as Error) ? repeated : error
    }
  }
}

function transportOf(protocol: string): typeof http | typeof https | undefined {
  if (protocol === 'http:') return http
  if (protocol === 'https:') return https
  return undefined
}

/** Failures of a reused kept connection before any answer came. */
const closedAsReused = new WeakSet<Error>()
/** Errors made by the timeout. */
const timedOut = new WeakSet<Error>()

function sendOnce(
  request: KeptConnectionRequest,
  agent: http.Agent | false,
  timeoutMs: number,
): Promise<KeptConnectionAnswer> {
  const transport = transportOf(request.url.protocol)
  if (!transport) return Promise.reject(new Error(`Unsupported URL scheme: ${request.url.protocol}`))
  return new Promise((resolve, reject) => {
    let isAnswered = false
    let isSettled = false
    const sent = transport.request(request.url, {
      method: request.method,
      agent,
      headers: request.headers,
      ...(request.lookup ? { lookup: request.lookup } : {}),
    })
    const timer = setTimeout(() => {
      const error = request.timeoutError()
      timedOut.add(error)
      fail(error)
    }, timeoutMs)
    function fail(error: Error): void {
      clearTimeout(timer)
      if (isSettled) return
      isSettled = true
      const code = (error as NodeJS.ErrnoException).code ?? ''
      if (sent.reusedSocket && !isAnswered && BROKEN_CONNECTION.has(code)) closedAsReused.add(error)
      sent.destroy()
      reject(error)
    }
    sent.once('response', (response) => {
      isAnswered = true
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', fail)
      response.once('end', () => {
        clearTimeout(timer)
        if (isSettled) return
        isSettled = true
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) })
      })
    })
    // on, not once: a second error (the destroy after a timeout) must not go unhandled; fail settles once.
    sent.on('error', fail)
    sent.end(request.body)
  })
}
