/**
 * How one admin operation of the agent is declared: as data the API's client and the agent's route registration
 * both read (api/src/agent-client/agent-request.ts, agent/src/admin/admin-routes.ts), so neither side spells a
 * path, a method or a status of its own. The request and answer types ride along as `Shape<T>` markers, which
 * carry a type to the compiler and nothing at run time.
 */

export type AgentHttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * Statuses an operation may answer besides its success and the ones every operation may answer (400 malformed or
 * invalid input, 401 wrong key, 413/415 body, 503 starting): declared per operation with when.
 */
export type AgentErrorStatus = 400 | 404 | 409 | 501 | 502

/** The statuses any operation may answer, whatever it declares (the admin pipeline's own refusals). */
export const PIPELINE_ERROR_STATUSES: readonly number[] = [400, 401, 413, 415, 503]

declare const shapeMarker: unique symbol

/** A type carried by a declaration for the compiler; an empty object at run time. */
export interface Shape<T> {
  readonly [shapeMarker]?: T
}

/** The marker for `T` in a declaration: `body: shape<CreateDidRequest>()`. */
export function shape<T>(): Shape<T> {
  return {}
}

/** One operation of the agent's admin API. Build it with `defineOperation`. */
export interface AdminOperation<
  Name extends string = string,
  Path extends string = string,
  Body = unknown,
  Query = unknown,
  Result = unknown,
> {
  /** Names the operation in metrics, logs and messages; unique across the contract. */
  readonly name: Name
  readonly method: AgentHttpMethod
  /** Express-style template: `/connections/:connectionId`. */
  readonly path: Path
  /** 201 for POST, 200 otherwise (the envelope's `statusCode` too). */
  readonly status: 200 | 201
  /** The envelope's `message` on success. */
  readonly message: string
  /** `public`: no API key needed (only the readiness probe). */
  readonly access: 'api-key' | 'public'
  /** Whether the operation takes a JSON body (then `body` types it). */
  readonly hasBody: boolean
  /** Whether the operation reads the query string (then `query` types it). */
  readonly hasQuery: boolean
  readonly body: Shape<Body>
  readonly query: Shape<Query>
  readonly result: Shape<Result>
  /** What the operation is for, one line (the agent's OpenAPI summary). */
  readonly summary: string
  /** The operation's own error statuses and when each is answered. */
  readonly errors: Readonly<Partial<Record<AgentErrorStatus, string>>>
}

/** Any operation, whatever its types (for collections of them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the type parameters are invariant through Shape
export type AnyAdminOperation = AdminOperation<string, string, any, any, any>

/** What `defineOperation` takes: the operation without what follows from the rest. */
export interface OperationSpec<Name extends string, Path extends string, Body, Query, Result> {
  name: Name
  method: AgentHttpMethod
  path: Path
  /** @default 'OK' */
  message?: string
  /** @default 'api-key' */
  access?: 'api-key' | 'public'
  body?: Shape<Body>
  query?: Shape<Query>
  result: Shape<Result>
  summary: string
  errors?: Partial<Record<AgentErrorStatus, string>>
}

/** An operation from its spec; an absent body or query is typed `undefined`. */
export function defineOperation<
  const Name extends string,
  const Path extends string,
  Body = undefined,
  Query = undefined,
  Result = undefined,
>(spec: OperationSpec<Name, Path, Body, Query, Result>): AdminOperation<Name, Path, Body, Query, Result> {
  return {
    name: spec.name,
    method: spec.method,
    path: spec.path,
    status: spec.method === 'POST' ? 201 : 200,
    message: spec.message ?? 'OK',
    access: spec.access ?? 'api-key',
    hasBody: spec.body !== undefined,
    hasQuery: spec.query !== undefined,
    body: spec.body ?? shape<Body>(),
    query: spec.query ?? shape<Query>(),
    result: spec.result,
    summary: spec.summary,
    errors: spec.errors ?? {},
  }
}

/** The parameter names of a path template: `'/a/:b/c/:d'` → `'b' | 'd'`. */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never

export type PathParams<Path extends string> = { [Name in PathParamNames<Path>]: string }

export type OperationBody<O> = O extends AdminOperation<string, string, infer Body, unknown, unknown> ? Body : never
export type OperationQuery<O> = O extends AdminOperation<string, string, unknown, infer Query, unknown> ? Query : never
export type OperationResult<O> =
  O extends AdminOperation<string, string, unknown, unknown, infer Result> ? Result : never
export type OperationPath<O> = O extends AdminOperation<string, infer Path, unknown, unknown, unknown> ? Path : never

/** The part of an input present only when the operation has it (`unknown` is the identity of `&`). */
type Part<Absent extends boolean, Present> = Absent extends true ? unknown : Present

/**
 * What a caller gives an operation: `params` when its path has any, `body` when it takes one, `query` (optional)
 * when it reads one.
 */
export type OperationInput<O> = Part<
  [PathParamNames<OperationPath<O>>] extends [never] ? true : false,
  { params: PathParams<OperationPath<O>> }
> &
  Part<[OperationBody<O>] extends [undefined] ? true : false, { body: OperationBody<O> }> &
  Part<[OperationQuery<O>] extends [undefined] ? true : false, { query?: OperationQuery<O> }>

/** The parameter names of a path template at run time, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string)
}

/**
 * The path of one call: each parameter percent-encoded as one segment, so a record id never changes the route.
 * @throws {Error} when a parameter the template names is missing (a programming error: the types require it)
 */
export function operationPath(operation: Pick<AdminOperation, 'path' | 'name'>, params: object = {}): string {
  const values = params as Record<string, unknown>
  return operation.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = values[name]
    if (typeof value !== 'string') throw new Error(`${operation.name} needs the path parameter ${name}`)
    return encodeURIComponent(value)
  })
}

/** The operations of a collection keyed by name, checked: each key is its operation's name. */
export function operationsByName<const Operations extends Record<string, AnyAdminOperation>>(
  operations: Operations & { [Name in keyof Operations]: { name: Name } },
): Operations {
  return operations
}
