import { randomUUID } from 'node:crypto'

import type { Logger } from '@idplane/common'
import { measureRequestDurations } from '@idplane/common/http-metrics'
import { markBodyParsed, rejectNulInUrl, rejectUnsafeJsonBody } from '@idplane/common/request-input'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import {
  getMetadataArgsStorage,
  type RoutingControllersOptions,
  useContainer,
  useExpressServer,
} from 'routing-controllers'
import { routingControllersToSpec } from 'routing-controllers-openapi'
import { validationMetadatasToSchemas } from 'class-validator-jsonschema'

import type { AgentMetrics } from '../metrics/agent-metrics'
import { ApiKeyCheck } from './admin-auth'
import { AgentController } from './agent.controller'
import { AnonCredsController } from './anoncreds.controller'
import type { AgentRuntime } from './agent-runtime'
import { agentScope } from './agent-scope'
import { ConnectionsController } from './connections.controller'
import { CredentialsController } from './credentials.controller'
import { DidsController } from './dids.controller'
import { errorHandler } from './error-handler'
import { MessagesController } from './messages.controller'
import { ProofsController } from './proofs.controller'
import { TenantsController } from './tenants.controller'

export interface AdminAppDeps {
  runtime: AgentRuntime
  apiKey: string
  metrics: AgentMetrics
  logger: Logger
}

const CONTROLLERS = [
  AgentController,
  ConnectionsController,
  MessagesController,
  CredentialsController,
  ProofsController,
  AnonCredsController,
  DidsController,
  TenantsController,
]

/**
 * The agent's admin REST API: the same stack as api/ (Express 5, routing-controllers, class-validator),
 * JSON envelopes, its own OpenAPI document at /api-json, Prometheus at /metrics.
 */
export function createAdminApp(deps: AdminAppDeps): Express {
  const app = express()
  const apiKey = new ApiKeyCheck(deps.apiKey)
  const instances = new Map<unknown, unknown>(CONTROLLERS.map((cls) => [cls, new cls(deps.runtime)]))
  useContainer({ get: (cls) => instances.get(cls) as never })

  app.disable('x-powered-by')
  app.use((req: Request, res: Response, next: NextFunction) => {
    const requestId = req.header('x-request-id') ?? randomUUID()
    req.headers['x-request-id'] = requestId
    res.setHeader('X-Request-Id', requestId)
    next()
  })
  app.use(measureRequestDurations(deps.metrics.requestDuration))
  app.get('/metrics', async (req: Request, res: Response) => {
    if (!apiKey.isAuthorized(req.header('authorization'))) {
      res.status(401).json({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
      return
    }
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics())
  })
  // GET /agent is public; with a key it must be this agent's key, so a supervisor can tell its own agent from
  // another program on the port (the API adopts an agent that survived it only when the key matches).
  app.get('/agent', (req: Request, res: Response, next: NextFunction) => {
    const authorization = req.header('authorization')
    if (authorization === undefined || apiKey.isAuthorized(authorization)) return next()
    res.status(401).json({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' })
  })
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/agent' && !deps.runtime.isInitialized) {
      res.status(503).json({ statusCode: 503, message: 'Agent is starting', error: 'Service Unavailable' })
      return
    }
    next()
  })
  app.use(agentScope(deps.runtime, apiKey))
  // The same input checks as the API's pipeline (issue 8): NUL in URLs or bodies, deep nesting, `__proto__`.
  // express.json's default limit (100 kB) is the one routing-controllers' own parser applied before.
  app.use(
    rejectNulInUrl,
    express.json(),
    rejectUnsafeJsonBody(),
    (req: Request, _res: Response, next: NextFunction) => {
      if (req.body !== undefined) markBodyParsed(req)
      next()
    },
  )

  const options: RoutingControllersOptions = {
    controllers: CONTROLLERS,
    defaultErrorHandler: false,
    classTransformer: true,
    validation: { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } },
    authorizationChecker: (action) => apiKey.isAuthorized((action.request as Request).header('authorization')),
  }
  useExpressServer(app, options)

  const spec = routingControllersToSpec(getMetadataArgsStorage(), options, {
    info: { title: 'idplane agent admin API', version: '1' },
    components: {
      schemas: validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as never,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
  })
  app.get('/api-json', (_req: Request, res: Response) => {
    res.json(spec)
  })
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next()
    res.status(404).json({ statusCode: 404, message: 'Route not found', error: 'Not Found' })
  })
  app.use(errorHandler(deps.logger))
  return app
}
