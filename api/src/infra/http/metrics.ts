import { measureRequestDurations } from '@idplane/common/http-metrics'
import type { RequestHandler } from 'express'
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
