import { randomUUID } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import { RequestContext, type EntityManager, type MikroORM } from '@mikro-orm/core'
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

/**
 * One entity manager per request (MikroORM's identity map must never be shared between requests), forked when the
 * request first uses it. `RequestContext.create` forks at once; a request that reads through a prepared statement or
 * a remembered row (the organization read, a caller's roles) never uses it, and the fork (a unit of work, an entity
 * factory, two configuration writes) was about a sixteenth of such a read's CPU (docs/benchmarks.md, "The relays'
 * statements prepared").
 */
export function ormRequestContext(orm: Pick<MikroORM, 'em'>) {
  return (_req: Request, _res: Response, next: NextFunction): void =>
    requestContexts.run(new RequestContext(new ForkOnFirstUse(orm.em)), next)
}

/**
 * MikroORM's store of request contexts, the one `RequestContext.getEntityManager` reads (private in its types: its
 * `create` offers no lazy fork). request-context.test.ts checks that the context entered here is the one found.
 */
const requestContexts = (
  RequestContext as unknown as { storage: { run<T>(context: RequestContext, next: () => T): T } }
).storage

/** A request context's entity managers: the ORM's own is forked at the first lookup by its name. */
class ForkOnFirstUse extends Map<string, EntityManager> {
  /**
   * While the fork is made, lookups find nothing, as they did before RequestContext.create entered its context: the
   * fork and the parts it builds resolve their context as they are constructed, which would fork again.
   */
  private isForking = false

  public constructor(private readonly root: EntityManager) {
    super()
  }

  public override get(name: string): EntityManager | undefined {
    let em = super.get(name)
    if (em === undefined && name === this.root.name && !this.isForking) {
      this.isForking = true
      try {
        em = this.root.fork({ useContext: true })
      } finally {
        this.isForking = false
      }
      this.set(name, em)
    }
    return em
  }
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
