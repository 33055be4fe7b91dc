import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'

/** What a GET answered: status, headers and the whole body. */
export interface HttpAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

/** Why a bounded GET gave up; the message is the reason, ready to follow "the URL ...". */
export class HttpGetError extends Error {}

export interface BoundedGetOptions {
  /** The checked target's pinned lookup (OutboundTargetGuard), so DNS cannot move the connection. */
  lookup?: LookupFunction
  accept: string
  /** When the whole fetch must be over (`Date.now()` scale): a slow drip of bytes cannot hold it open. */
  deadline: number
  /** The limit the deadline stands for, for the reason given when it passes. */
  timeoutMs: number
  maxBytes: number
}

export interface BoundedRequestOptions extends Omit<BoundedGetOptions, 'accept'> {
  method: string
  headers: Record<string, string>
  body?: Uint8Array
  /** Aborts the request (and the reading of its answer) with the signal's reason. */
  signal?: AbortSignal
}

/**
 * One GET of a URL someone else chose (an invitation, a status list), bounded in time and size; no redirect is
 * followed (the caller checks each hop).
 * @throws HttpGetError when it took too long, answered too much, broke off or could not be reached
 */
export function boundedGet(url: URL, options: BoundedGetOptions): Promise<HttpAnswer> {
  return boundedRequest(url, { ...options, method: 'GET', headers: { accept: options.accept } })
}

/**
 * One request to a URL someone else chose, bounded in time and size as boundedGet; no redirect is followed.
 * @throws HttpGetError as boundedGet; the signal's reason when it aborts
 */
export function boundedRequest(url: URL, options: BoundedRequestOptions): Promise<HttpAnswer> {
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason as Error)
      return
    }
    const request = client.request(url, {
      method: options.method,
      headers: {
        ...options.headers,
        ...(options.body ? { 'content-length': String(options.body.byteLength) } : {}),
      },
      ...(options.lookup ? { lookup: options.lookup } : {}),
      agent: false,
    })
    const timer = setTimeout(
      () => request.destroy(new HttpGetError(`no answer within ${options.timeoutMs} ms`)),
      Math.max(0, options.deadline - Date.now()),
    )
    const onAbort = () => request.destroy(options.signal?.reason as Error)
    options.signal?.addEventListener('abort', onAbort, { once: true })
    let settled = false
    const settle = () => {
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
    }
    const fail = (error: Error, reason: string) => {
      if (settled) return
      settle()
      const isOurs = error instanceof HttpGetError || (options.signal?.aborted && error === options.signal.reason)
      reject(isOurs ? error : new HttpGetError(reason, { cause: error }))
    }
    request.once('response', (response) => {
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= options.maxBytes) chunks.push(chunk)
        else {
          // Failed here: an answer that arrived whole would still end normally after a destroy.
          fail(new HttpGetError(`answers more than ${options.maxBytes} bytes`), '')
          request.destroy()
        }
      })
      response.once('end', () => {
        if (settled) return
        settle()
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) })
      })
      response.once('error', (error) => fail(error, 'the answer broke off'))
    })
    request.once('error', (error) => fail(error, `cannot be reached (${error.message})`))
    request.end(options.body)
  })
}
