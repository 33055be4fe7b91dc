import { measureRequestDurations } from '@idplane/common/http-metrics'
import express, { type Express, type RequestHandler } from 'express'
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client'

/** A registry per app instance (tests build many apps in one process) with the process metrics. */
export function createRegistry(): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'idplane_api_' })
  return registry
}

/** Request duration by method, route template and status (common/http-metrics.ts). */
export function httpMetrics(registry: Registry): RequestHandler {
  const duration = new Histogram({
    name: 'idplane_api_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  return measureRequestDurations(duration)
}

/** Serves the registry at GET /metrics; mounted on the main app, or alone on METRICS_PORT (createMetricsApp). */
export function serveMetrics(registry: Registry): RequestHandler {
  return (_req, res, next) => {
    registry
      .metrics()
      .then((text) => res.set('Content-Type', registry.contentType).send(text))
      .catch(next)
  }
}

/**
 * The app listening on METRICS_PORT: only /metrics, so that the port Prometheus scrapes can stay inside the
 * cluster while the main port is exposed (docs/deployment.md).
 */
export function createMetricsApp(registry: Registry): Express {
  const app = express()
  app.disable('x-powered-by')
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff')
    next()
  })
  app.get('/metrics', serveMetrics(registry))
  app.use((_req, res) => {
    res.status(404).json({ statusCode: 404, message: 'Only /metrics is served here', error: 'Not Found' })
  })
  return app
}
