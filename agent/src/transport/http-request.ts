import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { requestOverKeptConnection } from '@idplane/common/net/kept-connection'

/**
 * Keep-alive connection pools for the agent's outgoing requests (DIDComm messages, platform events, the ledger).
 * node:http costs far less CPU per request than fetch (no web streams), which matters at hundreds of messages a
 * second, and a request that runs out of time is closed with its connection (fetch keeps an aborted request's socket
 * open until its own timers end).
 */
const POOLS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
}

export interface HttpAnswer {
  status: number
  body: string
}

export class HttpTimeoutError extends Error {
  public constructor(url: string, timeoutMs: number) {
    super(`No answer from ${url} within ${timeoutMs} ms`)
    this.name = 'HttpTimeoutError'
  }
}

export interface HttpRequestOptions {
  method: string
  headers: Record<string, string>
  body?: string | Uint8Array
  timeoutMs: number
  /** Connects to these addresses instead of resolving the name (a checked target: OutboundTargetGuard). */
  lookup?: LookupFunction
  /** false: never sent twice, for a write whose caller keeps track of whether it may have landed. Default true. */
  mayRepeat?: boolean
}

/**
 * Sends one request and reads the whole answer. Unless `mayRepeat` is false, a request whose kept connection the
 * server closed as it was reused is sent once more on a new one (requestOverKeptConnection).
 * @throws {HttpTimeoutError} when no complete answer arrived within `timeoutMs`
 * @throws {Error} on network errors (their `code`) and URLs that are neither http nor https
 */
export async function httpRequest(url: string, options: HttpRequestOptions): Promise<HttpAnswer> {
  const target = new URL(url)
  const pool = POOLS[target.protocol as keyof typeof POOLS]
  if (!pool) throw new Error(`Unsupported URL scheme: ${target.protocol}`)
  const payload =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? Buffer.from(options.body, 'utf8')
        : Buffer.from(options.body.buffer, options.body.byteOffset, options.body.byteLength)
  const answer = await requestOverKeptConnection({
    url: target,
    method: options.method,
    headers: payload === undefined ? options.headers : { ...options.headers, 'content-length': String(payload.length) },
    body: payload,
    pool,
    timeoutMs: options.timeoutMs,
    timeoutError: () => new HttpTimeoutError(target.href, options.timeoutMs),
    lookup: options.lookup,
    mayRepeat: options.mayRepeat,
  })
  return { status: answer.status, body: answer.body.toString('utf8') }
}

/** POSTs `body` (UTF-8) and reads the whole answer: httpRequest's most common call. */
export function httpPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  lookup?: LookupFunction,
): Promise<HttpAnswer> {
  return httpRequest(url, { method: 'POST', headers, body, timeoutMs, lookup })
}
