import type { NextFunction, Request, RequestHandler, Response } from 'express'

/** An unversioned path prefix a module still answers, and the documented prefix it stands for. */
export interface DeprecatedAlias {
  /** e.g. `/webhooks/`: matched at the start of the path, segment-wise. */
  prefix: string
  /** e.g. `/v1/webhooks/`: the path the request is served as. */
  successor: string
}

/**
 * Serves requests on a deprecated prefix as the successor path (one route, one handler, one entry in the OpenAPI
 * document), answering with `Deprecation: true` and a `Link` to the successor (rel="successor-version") so clients
 * see that they should move. Installed before the routes; `req.originalUrl` keeps what the client sent.
 */
export function deprecatedAliases(aliases: readonly DeprecatedAlias[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const alias = aliases.find((candidate) => req.path.startsWith(candidate.prefix))
    if (!alias) return next()
    const successorPath = alias.successor + req.path.slice(alias.prefix.length)
    req.url = alias.successor + req.url.slice(alias.prefix.length)
    res.setHeader('Deprecation', 'true')
    res.setHeader('Link', `<${successorPath}>; rel="successor-version"`)
    next()
  }
}
