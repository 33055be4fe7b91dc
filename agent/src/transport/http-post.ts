import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { requestOverKeptConnection } from '@idplane/common/net/kept-connection'

/**
 * Keep-alive connection pools for the agent's outgoing POSTs (DIDComm messages, platform events). node:http costs
 * far less CPU per request than fetch (no web streams), which matters at hundreds of messages a second.
 */
const POOLS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
}

export interface HttpPostResult {
  status: number
  body: string
}

export class HttpPostTimeoutError extends Error {
  public constructor(url: string, timeoutMs: number) {
    super(`No answer from ${url} within ${timeoutMs} ms`)
    this.name = 'HttpPostTimeoutError'
  }
}

/**
 * POSTs `body` and reads the whole answer. A request whose kept connection the server closed as it was reused is sent
 * once more on a new one (requestOverKeptConnection).
 * @throws {HttpPostTimeoutError} when no complete answer arrived within `timeoutMs`
 * @throws {Error} on network errors and URLs that are neither http nor https
 */
export async function httpPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  /** Connects to these addresses instead of resolving the name (a checked target: OutboundTargetGuard). */
  lookup?: LookupFunction,
): Promise<HttpPostResult> {
  const target = new URL(url)
  const pool = POOLS[target.protocol as keyof typeof POOLS]
  if (!pool) throw new Error(`Unsupported URL scheme: ${target.protocol}`)
  const payload = Buffer.from(body, 'utf8')
  const answer = await requestOverKeptConnection({
    url: target,
    method: 'POST',
    headers: { ...headers, 'content-length': String(payload.length) },
    body: payload,
    pool,
    timeoutMs,
    timeoutError: () => new HttpPostTimeoutError(target.href, timeoutMs),
    lookup,
  })
  return { status: answer.status, body: answer.body.toString('utf8') }
}
