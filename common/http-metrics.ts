import type { Application, NextFunction, Request, RequestHandler, Response } from 'express'
import type { Histogram } from 'prom-client'

/**
 * Request-duration metrics shared by the API and the agent's admin API (both Express 5 + routing-controllers).
 * Imported as '@idplane/common/http-metrics'; it loads neither express nor prom-client itself.
 */

/** The route label of a request whose method and path match no route. */
export const UNMATCHED_ROUTE = 'unmatched'

export type RequestDurationLabel = 'method' | 'route' | 'status'

/**
 * Times every request by method, route template (never the raw path: ids would explode cardinality) and
 * status. Register it on the app itself, where `req.path` is the full path the router matches.
 *
 * The route is looked up when the response finishes rather than read from `req.route`, which is wrong in two
 * cases. An error raised before routing (a body Express could not parse, the agent's tenant scope) makes the
 * router skip every route, so `req.route` is never set. And routing-controllers calls `next()` after it has
 * answered, so a later route that also matches the path (`/v1/orgs/:orgId` after `/v1/orgs/public-profile`)
 * overwrites `req.route` although its guard stops it from running.
 */
export function measureRequestDurations(
  histogram: Pick<Histogram<RequestDurationLabel>, 'startTimer'>,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const { app, method, path } = req
    const end = histogram.startTimer()
    res.on('finish', () => {
      end({ method, route: matchRouteTemplate(app, method, path), status: String(res.statusCode) })
    })
    next()
  }
}

/**
 * The template of the route Express dispatches `method path` to: the first route registered on the app itself
 * whose path and method match (routing-controllers registers every action there; routers mounted with
 * `app.use` are not looked into). `UNMATCHED_ROUTE` when there is none.
 */
export function matchRouteTemplate(app: Pick<Application, 'router'>, method: string, path: string): string {
  const layers: readonly unknown[] = app.router.stack
  for (const layer of layers) {
    if (!isRouteLayer(layer) || !handlesMethod(layer.route.methods, method)) continue
    try {
      if (layer.match(path)) return layer.route.path
    } catch {
      // A parameter that is not valid percent-encoding: the router answers 400 without running any route.
      return UNMATCHED_ROUTE
    }
  }
  return UNMATCHED_ROUTE
}

/**
 * The parts of a router 2 layer read here. `@types/express` does not declare `match` (the router's own
 * matcher, so the label follows Express's path rules and its case and strict settings) nor `route.methods`.
 * Since router 2.3 `match` keeps its result off the layer, so calling it outside routing disturbs no request.
 */
interface RouteLayer {
  route: { path: string; methods: Record<string, unknown> }
  match(path: string): unknown
}

function isRouteLayer(layer: unknown): layer is RouteLayer {
  const candidate = layer as { route?: { path?: unknown; methods?: unknown }; match?: unknown } | null
  return (
    typeof candidate?.match === 'function' &&
    typeof candidate.route?.path === 'string' &&
    typeof candidate.route.methods === 'object' &&
    candidate.route.methods !== null
  )
}

/** As router 2's `Route#_handlesMethod`: `all()` takes any method, and HEAD falls back to GET. */
function handlesMethod(methods: Record<string, unknown>, method: string): boolean {
  const name = method.toLowerCase()
  return Boolean(methods._all) || Boolean(methods[name]) || (name === 'head' && Boolean(methods.get))
}
