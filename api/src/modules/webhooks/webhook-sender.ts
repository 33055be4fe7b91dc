import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { InvalidInputError } from '@idplane/common'
import { checkDeliveryTarget, type Resolver } from '../../infra/net/delivery-target'

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
 * success; redirects are not followed (a 3xx is a failure). The answer's body is read and dropped.
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
  const address = target.addresses[0] ?? ''
  const family = isIP(address) === 6 ? 6 : 4
  // Hands the checked address to the socket instead of resolving the name again.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all)
      (callback as (error: null, all: { address: string; family: number }[]) => void)(null, [{ address, family }])
    else callback(null, address, family)
  }
  const client = target.url.protocol === 'https:' ? https : http
  return new Promise<AttemptResult>((resolve) => {
    let isSettled = false
    const settle = (result: AttemptResult) => {
      if (isSettled) return
      isSettled = true
      clearTimeout(timer)
      resolve(result)
    }
    const request = client.request(
      target.url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup,
        agent: false,
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
      settle({ isSuccess: false, error: `Timeout: no answer within ${options.timeoutMs} ms` })
      request.destroy()
    }, options.timeoutMs)
    request.once('error', (error) => settle({ isSuccess: false, error: describe(error) }))
    request.end(body)
  })
}

function describe(error: unknown): string {
  const detail = error instanceof InvalidInputError ? error.fields.map((field) => `: ${field.message}`).join('') : ''
  const text = error instanceof Error ? `${error.name}: ${error.message}${detail}` : String(error)
  return text.replace(/\s+/g, ' ').slice(0, 500)
}
