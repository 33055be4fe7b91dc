import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'

/**
 * Keep-alive connection pools for the agent's outgoing POSTs (DIDComm messages, platform events). node:http costs
 * far less CPU per request than fetch (no web streams), which matters at hundreds of messages a second.
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
}

/** Network errors of a pooled connection the server had already closed: the request never reached it. */
const STALE_CONNECTION_ERRORS = new Set(['ECONNRESET', 'EPIPE'])

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
 * POSTs `body` and reads the whole answer. A request that failed on a reused pooled connection before any answer
 * (the server closed it while idle) is sent once more on a fresh one, as Node's documentation advises.
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
  const agent = AGENTS[target.protocol as keyof typeof AGENTS]
  if (!agent) throw new Error(`Unsupported URL scheme: ${target.protocol}`)
  try {
    return await send(target, agent, body, headers, timeoutMs, lookup)
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error
    return send(target, agent, body, headers, timeoutMs, lookup)
  }
}

class StaleConnectionError extends Error {}

function send(
  target: URL,
  agent: http.Agent,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  lookup: LookupFunction | undefined,
): Promise<HttpPostResult> {
  const transport = target.protocol === 'https:' ? https : http
  const payload = Buffer.from(body, 'utf8')
  return new Promise((resolve, reject) => {
    let answered = false
    const request = transport.request(target, {
      method: 'POST',
      agent,
      ...(lookup ? { lookup } : {}),
      headers: { ...headers, 'content-length': String(payload.length) },
    })
    const timer = setTimeout(() => request.destroy(new HttpPostTimeoutError(target.href, timeoutMs)), timeoutMs)
    request.once('response', (response) => {
      answered = true
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.once('end', () => {
        clearTimeout(timer)
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })
      })
      response.once('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
    })
    request.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      const stale = request.reusedSocket && !answered && STALE_CONNECTION_ERRORS.has(error.code ?? '')
      reject(stale ? new StaleConnectionError(error.message, { cause: error }) : error)
    })
    request.end(payload)
  })
}
