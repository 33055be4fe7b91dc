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

/**
 * One GET of a URL someone else chose (an invitation, a status list), bounded in time and size; no redirect is
 * followed (the caller checks each hop).
 * @throws HttpGetError when it took too long, answered too much, broke off or could not be reached
 */
export function boundedGet(url: URL, options: BoundedGetOptions): Promise<HttpAnswer> {
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      headers: { accept: options.accept },
      ...(options.lookup ? { lookup: options.lookup } : {}),
      agent: false,
    })
    const timer = setTimeout(
      () => request.destroy(new HttpGetError(`no answer within ${options.timeoutMs} ms`)),
      Math.max(0, options.deadline - Date.now()),
    )
    const fail = (error: Error, reason: string) => {
      clearTimeout(timer)
      reject(error instanceof HttpGetError ? error : new HttpGetError(reason, { cause: error }))
    }
    request.once('response', (response) => {
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > options.maxBytes) request.destroy(new HttpGetError(`answers more than ${options.maxBytes} bytes`))
        else chunks.push(chunk)
      })
      response.once('end', () => {
        clearTimeout(timer)
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) })
      })
      response.once('error', (error) => fail(error, 'the answer broke off'))
    })
    request.once('error', (error) => fail(error, `cannot be reached (${error.message})`))
    request.end()
  })
}
