import { randomUUID } from 'node:crypto'

import type { Logger } from '@idplane/common'
import { ADMIN_OPERATION_KINDS, type AdminOperationKinds } from '@idplane/common/agent-contract/operations'
import { measureRequestDurations } from '@idplane/common/http-metrics'
import { lazily } from '@idplane/common/lazily'
import { rejectNulInUrl, rejectUnsafeJsonBody } from '@idplane/common/request-input'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'

import type { AgentMetrics } from '../metrics/agent-metrics'
import { ApiKeyCheck } from './admin-auth'
import { adminOpenApi } from './admin-openapi'
import { type AdminControllers, registerAdminRoutes } from './admin-routes'
import { agentController } from './agent.controller'
import type { AgentRuntime } from './agent-runtime'
import { agentScope, scopeOf } from './agent-scope'
import { anonCredsController } from './anoncreds.controller'
import { AnonCredsRevocationService } from './anoncreds-revocation.service'
import { AnonCredsService } from './anoncreds.service'
import { connectionsController } from './connections.controller'
import { ConnectionsService } from './connections.service'
import { credentialsController } from './credentials.controller'
import { CredentialsService } from './credentials.service'
import { didsController } from './dids.controller'
import { DidsService } from './dids.service'
import { errorHandler, toErrorBody } from './error-handler'
import { messagesController } from './messages.controller'
import { MessagesService } from './messages.service'
import { openId4VcController } from './openid4vc.controller'
import { OpenId4VcAdminService } from './openid4vc.service'
import { proofsController } from './proofs.controller'
import { ProofsService } from './proofs.service'
import { tenantsController } from './tenants.controller'
import { rejectLoneSurrogates } from './text-input'

export interface AdminAppDeps {
  runtime: AgentRuntime
  apiKey: string
  metrics: AgentMetrics
  logger: Logger
}

/**
 * A controller for every kind of operation the contract declares (common/agent-contract/operations/): a kind
 * without one fails to type-check here, and an operation without a handler stops the app at start.
 */
export function adminControllers(runtime: AgentRuntime): AdminControllers<AdminOperationKinds> {
  return {
    agent: agentController(runtime),
    dids: didsController(new DidsService(runtime)),
    connections: connectionsController(new ConnectionsService(runtime)),
    messages: messagesController(new MessagesService()),
    credentials: credentialsController(new CredentialsService(runtime)),
    proofs: proofsController(new ProofsService(runtime)),
    anoncreds: anonCredsController(new AnonCredsService(), new AnonCredsRevocationService()),
    tenants: tenantsController(runtime),
    openid4vc: openId4VcController(new OpenId4VcAdminService()),
  }
}

/**
 * The agent's admin REST API: Express 5 with the routes of the declared operations (admin-routes.ts: API key,
 * class-validator DTOs, envelopes), its own OpenAPI document at /api-json, Prometheus at /metrics.
 */
export function createAdminApp(deps: AdminAppDeps): Express {
  const app = express()
  const apiKey = new ApiKeyCheck(deps.apiKey)

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
  // The same input checks as the API's pipeline (issue 8): NUL in URLs or bodies, deep nesting, `__proto__`; and
  // text that is no Unicode, which the agent's storage cannot keep (issue 23). express.json's default limit
  // (100 kB) is the one the admin API always had.
  app.use(rejectNulInUrl, express.json(), rejectUnsafeJsonBody(), rejectLoneSurrogates)

  const operations = registerAdminRoutes(app, ADMIN_OPERATION_KINDS, adminControllers(deps.runtime), {
    isAuthorized: (req) => apiKey.isAuthorized(req.header('authorization')),
    scopeOf,
    statusOf: (error) => toErrorBody(error).statusCode,
    logger: deps.logger,
  })
  const spec = lazily(() => adminOpenApi(operations))
  app.get('/api-json', (_req: Request, res: Response) => {
    res.json(spec())
  })
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next()
    res.status(404).json({ statusCode: 404, message: 'Route not found', error: 'Not Found' })
  })
  app.use(errorHandler(deps.logger))
  return app
}
