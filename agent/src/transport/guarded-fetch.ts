import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

import { InvalidInputError } from '@idplane/common'

import { boundedRequest, HttpGetError, type HttpAnswer } from './http-get'
import type { OutboundTargetGuard } from './outbound-target-guard'

export interface GuardedFetchLimits {
  /** Longest wait for a whole fetch, redirects included. */
  readonly timeoutMs: number
  /** Largest answer read (after which the fetch fails). */
  readonly maxBytes: number
  /** Redirects followed, each to a checked target. */
  readonly maxRedirects: number
}

/**
 * @default 15 s, 8 MiB, 5 redirects: an OpenID4VC issuer's metadata, a status list token of 131,072 entries or a
 *   type metadata document is far smaller and faster; the bound is for what a hostile URL could answer.
 */
export const GUARDED_FETCH_LIMITS: GuardedFetchLimits = {
  timeoutMs: 15_000,
  maxBytes: 8 * 1024 * 1024,
  maxRedirects: 5,
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * The `fetch` the agent hands Credo (its AgentDependencies): Credo fetches URLs that others chose with it (an SD-JWT
 * VC's status list `uri` and `vct` type metadata on verification, an OpenID4VC offer's issuer metadata and
 * endpoints in the holder, a `request_uri`). Each hop is checked by the agent's OutboundTargetGuard and the
 * connection pinned to the checked addresses, as for DIDComm sends and invitation URLs, and the whole fetch is
 * bounded in time and size, so a presented credential cannot make the verifier reach an internal address, nor hold
 * it with an answer that never ends. Fails as `fetch` does, with a TypeError whose cause says why.
 */
export function guardedFetch(guard: OutboundTargetGuard, limits: GuardedFetchLimits = GUARDED_FETCH_LIMITS) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const deadline = Date.now() + limits.timeoutMs
    const headers: Record<string, string> = { accept: '*/*' }
    // Answers come uncompressed unless asked otherwise (no accept-encoding of our own).
    request.headers.forEach((value, name) => (headers[name] = value))
    let method = request.method
    let body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer())
    let url = request.url
    for (let hop = 0; ; hop++) {
      const target = await guard.check(url, 'url').catch((error: unknown) => {
        throw failed(url, error instanceof InvalidInputError ? (error.fields[0]?.message ?? error.message) : error)
      })
      let answer: HttpAnswer
      try {
        answer = await boundedRequest(target.url, {
          method,
          headers,
          body,
          lookup: target.lookup,
          deadline,
          timeoutMs: limits.timeoutMs,
          maxBytes: limits.maxBytes,
          signal: request.signal,
        })
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason
        throw failed(url, error instanceof HttpGetError ? error.message : error)
      }
      const location = answer.headers.location
      if (!REDIRECT_STATUSES.has(answer.status) || !location || request.redirect === 'manual') {
        return asResponse(answer, url, hop > 0, limits.maxBytes)
      }
      if (request.redirect === 'error') throw failed(url, 'redirects, and the caller asked for no redirect')
      if (hop >= limits.maxRedirects) throw failed(url, `redirects more than ${limits.maxRedirects} times`)
      const next = new URL(location, url)
      // As fetch: credentials are not handed to another origin (an access token sent to the issuer stays there).
      if (next.origin !== new URL(url).origin) delete headers.authorization
      url = next.href
      // As fetch: 303 (but for HEAD), and 301/302 after a POST, continue as a GET without the body.
      if (
        (answer.status === 303 && method !== 'HEAD') ||
        ((answer.status === 301 || answer.status === 302) && method === 'POST')
      ) {
        method = 'GET'
        body = undefined
        delete headers['content-type']
      }
    }
  }
}

function asResponse(answer: HttpAnswer, url: string, redirected: boolean, maxBytes: number): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  let body = answer.body
  const encoding = headers.get('content-encoding')?.toLowerCase()
  if (encoding && body.length > 0) {
    body = decompress(body, encoding, url, maxBytes)
    headers.delete('content-encoding')
    headers.delete('content-length')
  }
  const response = new Response(NULL_BODY_STATUSES.has(answer.status) ? null : new Uint8Array(body), {
    status: answer.status,
    headers,
  })
  // A constructed Response has neither (fetch sets them); callers read `url` for relative links.
  Object.defineProperty(response, 'url', { value: url })
  Object.defineProperty(response, 'redirected', { value: redirected })
  return response
}

/** The limit holds for what the body expands to as well (a small compressed answer can expand without end). */
function decompress(body: Buffer, encoding: string, url: string, maxBytes: number): Buffer {
  const options = { maxOutputLength: maxBytes }
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body, options)
    if (encoding === 'br') return brotliDecompressSync(body, options)
    if (encoding === 'deflate') return inflateSync(body, options)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw failed(url, `answers a body that expands to more than ${maxBytes} bytes`)
    }
    throw failed(url, `answers a body that is not valid ${encoding} (${(error as Error).message})`)
  }
  return body
}

function failed(url: string, reason: unknown): TypeError {
  const because = typeof reason === 'string' ? reason : (reason as Error).message
  return new TypeError(`fetch failed: ${url} ${because}`, { cause: reason })
}
