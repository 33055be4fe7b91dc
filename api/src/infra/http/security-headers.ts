import type { NextFunction, Request, RequestHandler, Response } from 'express'
import helmet from 'helmet'

/**
 * Response headers of every answer (issue 8): helmet's set (nosniff, HSTS, referrer and cross-origin policies),
 * frames refused, and a Content-Security-Policy that the JSON answers do not need but the Swagger UI explorer at
 * /api works under (its scripts and styles are files of this origin, plus inline styles; icons are data: URIs).
 * No `upgrade-insecure-requests`: embedded mode serves the explorer over plain http.
 * Every answer is `Cache-Control: no-store`: tokens (sign-in, refresh, machine-to-machine), client secrets and
 * member data must not stay in a browser or proxy cache, and nothing here gains much from caching.
 */
export function securityHeaders(): RequestHandler[] {
  return [
    helmet({
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
    }),
    noStore,
  ]
}

function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store')
  next()
}
