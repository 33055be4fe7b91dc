import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import cookieParser from 'cookie-parser'
import swaggerUi from 'swagger-ui-express'
import { useContainer, useExpressServer, type RoutingControllersOptions } from 'routing-controllers'
import type { Container } from 'inversify'
import { Registry } from 'prom-client'
import { Logger } from '@idplane/common'
import type { Config } from './infra/config'
import { Database } from './infra/db/database'
import { TokenService } from './infra/auth/token.service'
import { createAuthorizationChecker, createCurrentUserChecker } from './infra/auth/authorization'
import { SessionCheck } from './infra/auth/session-check'
import { errorHandler, notFoundHandler } from './infra/http/error-handler'
import { accessLog, ormRequestContext, requestId } from './infra/http/request-context'
import { httpMetrics, serveMetrics } from './infra/http/metrics'
import { securityHeaders } from './infra/http/security-headers'
import { jsonBody } from './infra/http/json-body'
import { rejectNulInUrl } from '@idplane/common/request-input'
import { lazily } from '@idplane/common/lazily'
import { buildOpenApiDocument } from './infra/http/openapi'
import { TOKENS, factoryClassKey } from './infra/tokens'
import { OrgRoleLookup } from './infra/auth/org-role-lookup'
import { controllersOf, deprecatedAliasesOf, mountedModules } from './infra/module-registry'
import { deprecatedAliases } from './infra/http/deprecated-aliases'
import { idempotency } from './infra/http/idempotency/idempotency'
import { IdempotencyKeysRepository } from './infra/http/idempotency/idempotency-keys.repository'
import { API_MODULES } from './modules'

/** Builds the HTTP application from a loaded container; tests use it through supertest without listening. */
export function createApp(container: Container): Express {
  const config = container.get<Config>(TOKENS.Config)
  const logger = container.get(Logger).child({ component: 'http' })
  const database = container.get(factoryClassKey(Database))
  const registry = container.get<Registry>(Registry)
  const tokens = container.get(TokenService)
  const modules = mountedModules(API_MODULES, config)

  useContainer({ get: (someClass) => container.get(someClass) })

  const app = express()
  app.disable('x-powered-by')
  // No ETag on every answer: they are no-store; routes whose answers caches keep tag them (infra/http/entity-tag.ts).
  app.set('etag', false)
  app.set('trust proxy', config.http.trustProxy)
  app.set('query parser', 'extended')
  app.use(requestId)
  app.use(securityHeaders())
  app.use(accessLog(logger))
  app.use(httpMetrics(registry))
  app.use(rejectNulInUrl)
  app.use(jsonBody(config.http.bodyLimit))
  app.use(cookieParser())
  app.use(ormRequestContext(database.orm))
  app.use(deprecatedAliases(deprecatedAliasesOf(modules)))
  app.use(
    idempotency(container.get(IdempotencyKeysRepository), tokens, container.get(SessionCheck), logger, {
      ...config.http.idempotency,
      pruneIntervalSeconds: 600,
    }),
  )

  // With METRICS_PORT set, main.ts serves /metrics on that port only.
  if (config.http.metricsPort === undefined) app.get('/metrics', serveMetrics(registry))

  const options: RoutingControllersOptions = {
    controllers: controllersOf(modules),
    routePrefix: '',
    defaultErrorHandler: false,
    classTransformer: true,
    validation: { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } },
    authorizationChecker: createAuthorizationChecker(tokens, container.get(OrgRoleLookup), container.get(SessionCheck)),
    currentUserChecker: createCurrentUserChecker(),
  }
  useExpressServer(app, options)
  for (const module of modules) if (module.router) app.use(module.router(container))

  // Made at the first request for it: the document takes a tenth of the API's start, which seldom needs it.
  const document = lazily(() => buildOpenApiDocument(options, config.http.publicUrl))
  const documentPage = lazily(() => swaggerUi.setup(document(), { customSiteTitle: 'idplane API' }))
  app.get('/api-json', (_req, res) => {
    res.json(document())
  })
  app.use('/api', swaggerUi.serve, (req: Request, res: Response, next: NextFunction) => documentPage()(req, res, next))

  app.use(notFoundHandler)
  app.use(errorHandler(logger))
  return app
}
