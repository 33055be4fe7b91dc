import type { NextFunction, Request, RequestHandler, Response } from 'express'
import helmet, { type HelmetOptions } from 'helmet'

/**
 * Response headers of every answer (issue 8): helmet's set (nosniff, HSTS, referrer and cross-origin policies),
 * frames refused, and a Content-Security-Policy that the JSON answers do not need but the Swagger UI explorer at
 * /api works under (its scripts and styles are files of this origin, plus inline styles; icons are data: URIs).
 * No `upgrade-insecure-requests`: embedded mode serves the explorer over plain http.
 * Every answer is `Cache-Control: no-store`: tokens (sign-in, refresh, machine-to-machine), client secrets and
 * member data must not stay in a browser or proxy cache, and nothing here gains much from caching.
 */
export function securityHeaders(): RequestHandler {
  const headers = [...headersSetBy(helmet(HELMET_OPTIONS)), ['Cache-Control', 'no-store'] as const]
  return (_req: Request, res: Response, next: NextFunction): void => {
    for (const [name, value] of headers) res.setHeader(name, value)
    next()
  }
}

/** helmet's options: the policy above. */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      imgSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
    },
  },
  frameguard: { action: 'deny' },
}

/**
 * The headers a middleware sets, read once at start-up from a recording response: helmet's answers do not depend on
 * the request with the options above (no nonce, no per-request directive), so one loop of `setHeader` replaces its
 * thirteen middlewares on every request (issue 27 item 5; docs/benchmarks.md, "The API read on this machine").
 * @throws Error when the middleware does anything but set headers synchronously (a helmet upgrade that would need a
 *   request), so the start fails instead of sending answers without them
 */
export function headersSetBy(middleware: RequestHandler): Array<readonly [string, string]> {
  const headers: Array<readonly [string, string]> = []
  let done = false
  const recorder = {
    setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
    // helmet removes X-Powered-By, which createApp disables anyway.
    removeHeader: () => undefined,
  }
  void middleware({ headers: {}, secure: false } as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error) throw error
    done = true
  })
  if (!done || headers.length === 0) throw new Error('The security headers could not be read from helmet at start-up')
  return headers
}
