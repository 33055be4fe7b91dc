import { getMetadataArgsStorage, type RoutingControllersOptions } from 'routing-controllers'
import type { MetadataArgsStorage } from 'routing-controllers/types/metadata-builder/MetadataArgsStorage'
import { routingControllersToSpec, parseRoutes, getFullPath, type IRoute } from 'routing-controllers-openapi'
import { validationMetadatasToSchemas } from 'class-validator-jsonschema'
import { defaultConverters } from 'class-validator-jsonschema/build/defaultConverters'
import { getMetadataStorage, IS_NOT_EMPTY, ValidationTypes } from 'class-validator'
// class-transformer keeps its @Type() metadata here; without it nested DTO arrays render as `Array`.
import { defaultMetadataStorage } from 'class-transformer/cjs/storage'
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts'
import type { SchemaComponents } from './data-schema'
import { responseDocOf, type DocumentedErrorStatus } from './response-doc'

/** Path prefix of routes that are not part of the public contract (agents posting events). */
const INTERNAL_PATH_PREFIX = '/v1/internal/'

/** Parameter kinds whose values the request pipeline validates: a route taking any of them can answer 400. */
const VALIDATED_PARAMS = new Set(['body', 'body-param', 'query', 'queries', 'param', 'params', 'header', 'headers'])

type ErrorStatus = DocumentedErrorStatus | 422 | 500

const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Malformed input; `errors` names each invalid field' },
  401: { name: 'Unauthenticated', description: 'Missing, malformed or expired token or credentials' },
  403: { name: 'Forbidden', description: 'Valid token without the role or the organization' },
  404: { name: 'NotFound', description: 'No such record, or one of another organization' },
  409: { name: 'Conflict', description: 'Duplicate, or a change the current state does not allow' },
  422: {
    name: 'UnprocessableContent',
    description: 'The Idempotency-Key was used before for another request (caller, path, query or body)',
  },
  429: { name: 'TooManyRequests', description: 'Rate limit reached; retry after `Retry-After` seconds' },
  500: { name: 'InternalError', description: 'Unexpected failure (a bug; the body never carries details)' },
  501: { name: 'NotImplemented', description: 'A value the contract names that this build does not serve yet' },
  502: { name: 'BadGateway', description: 'An upstream service (agent, mail) did not answer as expected' },
  503: {
    name: 'ServiceUnavailable',
    description: 'A service the platform runs itself is starting; retry after `Retry-After` seconds',
  },
}

/** The error body every failure answers (spec: Conventions; common/http-errors.ts). */
const ERROR_BODY_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['statusCode', 'message', 'error'],
  properties: {
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    error: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
}

/**
 * The OpenAPI 3 document behind /api-json and the explorer at /api. Operations are grouped by resource
 * (their controller). Each operation's success envelope carries the `data` its route declares with
 * `@ResponseData` (infra/http/response-doc.ts); its error responses are derived from the route (inputs: 400,
 * `@Authorized`: 401 and 403, path parameters: 404, always 500) plus the ones the route declares. Path ids
 * are uuids. Internal routes, and schemas only they use, are left out.
 */
export function buildOpenApiDocument(options: RoutingControllersOptions, publicUrl: string): OpenAPIObject {
  const storage = servedRoutes(options)
  const schemas = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: {
      [ValidationTypes.CUSTOM_VALIDATION]: customValidationSchema,
      [IS_NOT_EMPTY]: notEmptySchema,
    },
  }) as SchemaComponents
  const spec = routingControllersToSpec(storage, options, {
    info: {
      title: 'idplane platform API',
      version: '1.0.0',
      description:
        'Multi-tenant decentralized identity: organizations, DIDs, schemas, connections, credentials and proofs.',
    },
    servers: [{ url: publicUrl }],
    components: {
      schemas: { ...schemas, ErrorBody: ERROR_BODY_SCHEMA },
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(({ name, description }) => [
          name,
          { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } },
        ]),
      ),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  })
  for (const route of parseRoutes(storage, options)) {
    const path = getFullPath(route).replace(/:(\w+)/g, '{$1}')
    const method = (route.action.type ?? 'get').toLowerCase()
    const operation = spec.paths[path]?.[method] as OperationObject | undefined
    if (!operation || path.startsWith(INTERNAL_PATH_PREFIX)) continue
    const authorized = route.responseHandlers.find((handler) => handler.type === 'authorized')
    if (authorized) operation.security = [{ bearer: [] }]
    describeUuidPathIds(operation)
    const isIdempotent = authorized !== undefined && method === 'post' && !route.params.some(isFileParam)
    if (isIdempotent) describeIdempotencyKey(operation)
    describeResponses(operation, route, spec.components?.schemas ?? {}, authorized, path, isIdempotent)
  }
  for (const path of Object.keys(spec.paths)) if (path.startsWith(INTERNAL_PATH_PREFIX)) delete spec.paths[path]
  dropUnusedSchemas(spec)
  return spec
}

/**
 * The routes of the controllers the app serves (`options.controllers`). routing-controllers keeps every decorated
 * controller of the process in one storage, so without this a module that is not mounted (a feature flag, say
 * HIDE_EXPERIMENTAL_OIDC_CONTROLLERS) would be documented though it answers 404. A view over the storage: its
 * lookups (parameters, response handlers) stay the storage's own.
 */
function servedRoutes(options: RoutingControllersOptions): MetadataArgsStorage {
  const storage = getMetadataArgsStorage()
  const controllers = options.controllers
  if (!Array.isArray(controllers) || controllers.some((controller) => typeof controller !== 'function')) return storage
  const served = new Set<unknown>(controllers)
  const view = Object.create(storage) as MetadataArgsStorage
  view.controllers = storage.controllers.filter((controller) => served.has(controller.target))
  view.actions = storage.actions.filter((action) => served.has(action.target))
  return view
}

/**
 * A custom validator on a free-form object (a PE filter, say) adds nothing to the schema: the library's default
 * would point at a component named `Object` that does not exist.
 */
const customValidationSchema: (typeof defaultConverters)[string] = (meta, options) => {
  const target = meta.target
  const type: unknown =
    typeof target === 'function' ? Reflect.getMetadata('design:type', target.prototype, meta.propertyName) : undefined
  if (type === Object) return {}
  const convert = defaultConverters[ValidationTypes.CUSTOM_VALIDATION]
  return typeof convert === 'function' ? convert(meta, options) : convert
}

/** Validators that give a string a lower length bound of their own. */
const LENGTH_LOWER_BOUNDS: ReadonlySet<string> = new Set(['isLength', 'minLength'])

/**
 * `@IsNotEmpty()` documents `minLength: 1`, and the library merges a property's validators in declaration order, so
 * beside `@Length(2, 200)` it documented 1 where the server enforces 2 (issue 22 item 7). It adds no bound where
 * another validator of the property sets one.
 */
const notEmptySchema: (typeof defaultConverters)[string] = (meta) => {
  const target = meta.target
  const hasLengthBound =
    typeof target === 'function' &&
    getMetadataStorage()
      .getTargetValidationMetadatas(target, '', true, false)
      .some(
        (other) =>
          other.propertyName === meta.propertyName && !other.each && LENGTH_LOWER_BOUNDS.has(other.name ?? other.type),
      )
  return hasLengthBound ? { type: 'string' } : { type: 'string', minLength: 1 }
}

/**
 * Path parameters that take a ledger id (issue 22 items 1 and 7): either Indy form or a record id, URL-encoded; a
 * schema's public URL too. Not uuids.
 */
const LEDGER_ID_PATH_PARAMS: Record<string, string> = {
  schemaId:
    'Ledger schema id, URL-encoded: <did>:2:<name>:<version> or did:indy:<ns>:<did>/anoncreds/v0/SCHEMA/<name>/<version>; ' +
    "or the schema's record id (UUID) or public URL",
  credDefId:
    'Ledger credential definition id, URL-encoded: <did>:3:CL:<schemaSeqNo>:<tag> or ' +
    'did:indy:<ns>:<did>/anoncreds/v0/CLAIM_DEF/<schemaSeqNo>/<tag>; or the record id (UUID)',
}

/**
 * Public ids an organization chooses for its OpenID4VC issuers and verifiers: part of their URLs, not uuids (a uuid
 * when the organization names none).
 */
const PUBLIC_ID_PATH_PARAMS: Record<string, string> = {
  issuerId: "The issuer's public id (1 to 100 of letters, digits, . _ ~ -)",
  verifierId: "The verifier's public id (1 to 100 of letters, digits, . _ ~ -)",
}

/**
 * Path parameters named `...Id` are uuids in this API (organizations, invitations, users, client ids), but ledger ids
 * and public ids.
 */
function describeUuidPathIds(operation: OperationObject): void {
  for (const parameter of operation.parameters ?? []) {
    if ('$ref' in parameter) continue
    const param = parameter as ParameterObject
    if (param.in !== 'path' || !/Id$/.test(param.name)) continue
    const ledgerId = LEDGER_ID_PATH_PARAMS[param.name]
    const publicId = PUBLIC_ID_PATH_PARAMS[param.name]
    if (publicId !== undefined) {
      param.schema = { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,100}$' }
      param.description = publicId
    } else if (ledgerId !== undefined) {
      param.schema = { type: 'string', minLength: 1, maxLength: 2048 }
      param.description = ledgerId
    } else param.schema = { type: 'string', format: 'uuid' }
  }
}

const isFileParam = (param: { type: string }): boolean => param.type === 'file' || param.type === 'files'

/** The `Idempotency-Key` header every authenticated JSON POST takes (infra/http/idempotency/idempotency.ts). */
function describeIdempotencyKey(operation: OperationObject): void {
  operation.parameters = [
    ...(operation.parameters ?? []),
    {
      in: 'header',
      name: 'Idempotency-Key',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      description:
        'Optional, e.g. a UUID. A retry with the same key and request within a day gets the first answer again ' +
        '(header Idempotent-Replayed: true) and does not act twice; the same key with another request is a 422; ' +
        'while the first is still running, 409.',
    },
  ]
}

function describeResponses(
  operation: OperationObject,
  route: IRoute,
  components: SchemaComponents,
  authorized: { value?: unknown } | undefined,
  path: string,
  isIdempotent: boolean,
): void {
  const doc = responseDocOf(route.action.target, route.action.method)
  const successStatus = Object.keys(operation.responses).find((status) => status.startsWith('2')) ?? '200'
  const envelope: SchemaObject = {
    type: 'object',
    required: ['statusCode', 'message', ...(doc?.hasData === false ? [] : ['data'])],
    properties: {
      statusCode: { type: 'integer' },
      message: { type: 'string' },
      ...(doc?.hasData === false ? {} : { data: doc ? doc.renderData(components) : {} }),
    },
  }
  const success: ResponseObject = {
    description: doc ? 'Success' : 'Success (data not documented yet)',
    content: { 'application/json': { schema: envelope } },
  }
  const responses: Record<string, ResponseObject | ReferenceObject> = { [successStatus]: success }
  for (const status of doc?.alsoAnswers ?? []) responses[String(status)] = { ...success, description: 'Same envelope' }
  const isProtected = authorized !== undefined
  const hasRoles = Array.isArray(authorized?.value) && authorized.value.length > 0
  const derived: ErrorStatus[] = [
    ...(route.params.some((param) => VALIDATED_PARAMS.has(param.type)) ? [400 as const] : []),
    ...(isProtected ? [401 as const] : []),
    ...(isProtected && (hasRoles || path.includes('{orgId}')) ? [403 as const] : []),
    ...(/\{\w+\}/.test(path) ? [404 as const] : []),
    ...(isIdempotent ? [409 as const, 422 as const] : []),
    500,
  ]
  const statuses = [...new Set<ErrorStatus>([...derived, ...(doc?.errors ?? [])])].sort((a, b) => a - b)
  for (const status of statuses) {
    if (String(status) === successStatus) continue
    responses[String(status)] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` }
  }
  operation.responses = responses
}

/** Removes component schemas no remaining operation reaches (an internal route's DTO, query classes). */
function dropUnusedSchemas(spec: OpenAPIObject): void {
  const schemas = spec.components?.schemas
  if (!schemas) return
  const used = new Set<string>()
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (value === null || typeof value !== 'object') return
    for (const [key, child] of Object.entries(value)) {
      const match = key === '$ref' && typeof child === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(child) : null
      if (match?.[1] && !used.has(match[1])) {
        used.add(match[1])
        visit(schemas[match[1]])
      } else visit(child)
    }
  }
  visit(spec.paths)
  visit(spec.components?.responses)
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name]
}
