import { InvalidInputError, type Logger, UnauthenticatedError } from '@idplane/common'
import {
  type AnyAdminOperation,
  type OperationBody,
  type OperationPath,
  type OperationQuery,
  type OperationResult,
  type PathParams,
  PIPELINE_ERROR_STATUSES,
} from '@idplane/common/agent-contract/operation'
import { flattenValidationErrors } from '@idplane/common/http-errors'
import { plainToInstance } from 'class-transformer'
import { validate } from 'class-validator'
import type { Express, NextFunction, Request, Response } from 'express'

import type { AgentScope } from './agent-scope'

/** A DTO class: class-validator decorators on a class constructed without arguments. */
export type DtoClass = new () => object

/** A handler's answer under another success message than the declared one (a failed verification). */
export class Answer<T> {
  public constructor(
    public readonly data: T,
    public readonly message: string,
  ) {}
}

export function withMessage<T>(data: T, message: string): Answer<T> {
  return new Answer(data, message)
}

/** What a handler gets: typed by its operation's declaration. */
export interface AdminRequest<O> {
  params: PathParams<OperationPath<O>>
  /** The validated body (an instance of the route's DTO class, which implements the declared type). */
  body: OperationBody<O>
  /** The validated query (idem). */
  query: OperationQuery<O>
  /** The wallet the call acts on (base agent or tenant). @throws {Error} before the agent is initialized */
  scope: AgentScope
}

type BodyBinding<O> = [OperationBody<O>] extends [undefined] ? { body?: undefined } : { body: DtoClass }
type QueryBinding<O> = [OperationQuery<O>] extends [undefined] ? { query?: undefined } : { query: DtoClass }

/** One operation's handler, with the DTO classes that validate its body and query when it declares them. */
export type AdminRoute<O> = BodyBinding<O> &
  QueryBinding<O> & {
    handle(request: AdminRequest<O>): Promise<OperationResult<O> | Answer<OperationResult<O>>>
  }

/** A handler for every operation of one kind (common/agent-contract/operations/<kind>.ts), nothing else. */
export type AdminController<Operations extends Record<string, AnyAdminOperation>> = {
  [Name in keyof Operations]: AdminRoute<Operations[Name]>
}

/** A controller for every kind. */
export type AdminControllers<Kinds extends Record<string, Record<string, AnyAdminOperation>>> = {
  [Kind in keyof Kinds]: AdminController<Kinds[Kind]>
}

/** An operation with the route that serves it (for the OpenAPI document). */
export interface BoundOperation {
  kind: string
  operation: AnyAdminOperation
  body?: DtoClass
  query?: DtoClass
}

export interface AdminRouteOptions {
  /** Whether the request carries this agent's API key. */
  isAuthorized(req: Request): boolean
  /** The scope the scope middleware resolved. */
  scopeOf(res: Response): AgentScope | undefined
  /** The status the error handler answers for an error (to warn about statuses an operation did not declare). */
  statusOf(error: unknown): number
  logger: Logger
}

/** The validation routing-controllers applied before (the same error bodies): unknown fields are refused. */
const VALIDATION = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
} as const

/**
 * Registers every declared operation on the app itself (so the request metrics find each route's template), each
 * bound to its kind's controller: API key (unless public), body and query validated into the DTO classes, the
 * handler, the envelope with the declared status and message. Errors go to the app's error handler.
 * @throws {Error} listing every operation without a handler (or with a DTO it should not have) and every handler
 * without an operation: the admin app does not start then
 */
export function registerAdminRoutes<Kinds extends Record<string, Record<string, AnyAdminOperation>>>(
  app: Express,
  kinds: Kinds,
  controllers: AdminControllers<Kinds>,
  options: AdminRouteOptions,
): BoundOperation[] {
  const bound = bindOperations(kinds, controllers as Record<string, Record<string, UntypedRoute | undefined>>)
  for (const { operation, route } of bound) {
    const method = operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'
    app[method](operation.path, (req: Request, res: Response, next: NextFunction) => {
      serve(operation, route, req, res, options).catch(next)
    })
  }
  return bound.map(({ kind, operation, route }) => ({ kind, operation, body: route.body, query: route.query }))
}

interface UntypedRoute {
  body?: DtoClass
  query?: DtoClass
  handle(request: AdminRequest<AnyAdminOperation>): Promise<unknown>
}

function bindOperations(
  kinds: Record<string, Record<string, AnyAdminOperation>>,
  controllers: Record<string, Record<string, UntypedRoute | undefined> | undefined>,
): { kind: string; operation: AnyAdminOperation; route: UntypedRoute }[] {
  const problems: string[] = []
  const bound: { kind: string; operation: AnyAdminOperation; route: UntypedRoute }[] = []
  for (const [kind, operations] of Object.entries(kinds)) {
    const controller = controllers[kind] ?? {}
    for (const [name, operation] of Object.entries(operations)) {
      const route = controller[name]
      if (typeof route?.handle !== 'function') {
        problems.push(`${kind}.${name} (${operation.method} ${operation.path}) has no handler`)
        continue
      }
      if (operation.hasBody !== (route.body !== undefined)) {
        problems.push(`${kind}.${name} ${operation.hasBody ? 'needs a' : 'takes no'} body DTO`)
      }
      if (operation.hasQuery !== (route.query !== undefined)) {
        problems.push(`${kind}.${name} ${operation.hasQuery ? 'needs a' : 'takes no'} query DTO`)
      }
      bound.push({ kind, operation, route })
    }
    for (const name of Object.keys(controller)) {
      if (!(name in operations)) problems.push(`${kind}.${name} handles no declared operation`)
    }
  }
  for (const kind of Object.keys(controllers)) {
    if (!(kind in kinds)) problems.push(`controller ${kind} serves no declared kind`)
  }
  if (problems.length > 0) throw new Error(`The admin routes do not match the agent contract: ${problems.join('; ')}`)
  return bound
}

async function serve(
  operation: AnyAdminOperation,
  route: UntypedRoute,
  req: Request,
  res: Response,
  options: AdminRouteOptions,
): Promise<void> {
  try {
    if (operation.access !== 'public' && !options.isAuthorized(req)) {
      throw new UnauthenticatedError('Authentication required')
    }
    const body = route.body ? await validated(route.body, bodyOf(req)) : undefined
    const query = route.query ? await validated(route.query, req.query) : undefined
    const request = {
      params: req.params,
      body,
      query,
      get scope(): AgentScope {
        const scope = options.scopeOf(res)
        if (!scope) throw new Error(`${operation.name} needs the agent's scope, which exists once it is initialized`)
        return scope
      },
    }
    const answer = await route.handle(request as AdminRequest<AnyAdminOperation>)
    const { data, message } = answer instanceof Answer ? answer : { data: answer, message: operation.message }
    res.status(operation.status).json({ statusCode: operation.status, message, data })
  } catch (error) {
    warnIfUndeclared(operation, error, options)
    throw error
  }
}

/** A missing body is an empty one, as routing-controllers' parser made it; anything but an object is refused. */
function bodyOf(req: Request): object {
  const body: unknown = req.body ?? {}
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidInputError('Request body must be a JSON object', [{ field: 'body', message: 'must be an object' }])
  }
  return body
}

async function validated(dto: DtoClass, plain: object): Promise<object> {
  const instance = plainToInstance(dto, plain)
  const errors = await validate(instance, VALIDATION)
  if (errors.length > 0) throw new InvalidInputError('Validation failed', flattenValidationErrors(errors))
  return instance
}

/** Keeps the declarations honest: an operation answering a status it does not declare is worth a look. */
function warnIfUndeclared(operation: AnyAdminOperation, error: unknown, options: AdminRouteOptions): void {
  const status = options.statusOf(error)
  // 500 is a bug and logged as one by the error handler.
  if (status === 500 || PIPELINE_ERROR_STATUSES.includes(status) || status in operation.errors) return
  options.logger.warn('Admin operation answered a status it does not declare', {
    operation: operation.name,
    status,
  })
}
