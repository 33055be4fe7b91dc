import { randomUUID } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import { RequestContext, type MikroORM } from '@mikro-orm/core'
import type { Logger } from '@idplane/common'

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string
  }
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,100}$/

/** X-Request-Id (kept when well-formed, else generated), echoed back, and attached to the access log. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id')
  req.requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID()
  res.setHeader('X-Request-Id', req.requestId)
  next()
}

/** One entity manager per request (MikroORM's identity map must never be shared between requests). */
export function ormRequestContext(orm: MikroORM) {
  return (_req: Request, _res: Response, next: NextFunction): void => RequestContext.create(orm.em, next)
}

/** One JSON access-log line per request, at debug for health and metrics probes. */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint()
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6
      const isProbe = req.path.startsWith('/health') || req.path === '/metrics'
      logger.log(isProbe ? 'debug' : 'info', 'Handled request', {
        requestId: req.requestId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
      })
    })
    next()
  }
}
