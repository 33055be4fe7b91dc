import { HttpError } from 'routing-controllers'
import {
  ConflictError,
  type FieldError,
  ForbiddenError,
  IdplaneError,
  InProgressError,
  InvalidInputError,
  InvalidStateError,
  NotFoundError,
  NotImplementedError,
  RateLimitedError,
  RequestMismatchError,
  UnauthenticatedError,
  UnavailableError,
  UpstreamError,
  UpstreamUnavailableError,
} from './errors'

/**
 * The HTTP face of the error vocabulary, shared by the API and the agent's admin API (both Express +
 * routing-controllers). Each program's error-handler adds the errors only it knows (MikroORM's, Credo's).
 * Imported as '@idplane/common/http-errors' so the operator never loads routing-controllers.
 */
export interface ErrorBody {
  statusCode: number
  message: string
  error: string
  errors?: FieldError[]
}

export interface ErrorResponse {
  body: ErrorBody
  headers: Record<string, string>
}

export const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

/**
 * Decisions where the spec is silent (docs/decisions.md): InvalidStateError → 409, UpstreamError → 502,
 * RequestMismatchError → 422, NotImplementedError → 501, RateLimitedError → 429, UnavailableError and
 * UpstreamUnavailableError (an agent refusing connections while it restarts) → 503, each with Retry-After;
 * InProgressError (a ConflictError) → 409 with Retry-After.
 */
const STATUS_BY_ERROR: [new (...args: never[]) => IdplaneError, number][] = [
  [InvalidInputError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [InvalidStateError, 409],
  [RequestMismatchError, 422],
  [RateLimitedError, 429],
  [NotImplementedError, 501],
  // Before its parent: the first match wins.
  [UpstreamUnavailableError, 503],
  [UpstreamError, 502],
  [UnavailableError, 503],
]

/** The error body for a status; never a stack trace, never the request echoed. */
export function errorBody(statusCode: number, message: string, errors?: FieldError[]): ErrorBody {
  return {
    statusCode,
    message,
    error: REASON_PHRASES[statusCode] ?? 'Error',
    ...(errors && errors.length > 0 ? { errors } : {}),
  }
}

export const INTERNAL_ERROR: ErrorResponse = { body: errorBody(500, 'Internal server error'), headers: {} }

/**
 * Platform errors, class-validator failures, routing-controllers' client errors and body-parser errors;
 * undefined for anything else (the program's own mappings, then a fixed 500).
 */
export function toKnownErrorResponse(error: unknown): ErrorResponse | undefined {
  if (error instanceof IdplaneError) {
    const match = STATUS_BY_ERROR.find(([type]) => error instanceof type)
    if (!match) return undefined
    const headers: Record<string, string> =
      error instanceof RateLimitedError ||
      error instanceof UnavailableError ||
      error instanceof UpstreamUnavailableError ||
      error instanceof InProgressError
        ? { 'Retry-After': String(error.retryAfterSeconds) }
        : {}
    const fields = error instanceof InvalidInputError ? error.fields : undefined
    return { body: errorBody(match[1], error.message, fields), headers }
  }
  if (isValidationFailure(error)) {
    return { body: errorBody(400, 'Validation failed', flattenValidationErrors(error.errors)), headers: {} }
  }
  if (error instanceof HttpError && error.httpCode >= 400 && error.httpCode < 500) {
    return { body: errorBody(error.httpCode, safeHttpMessage(error)), headers: {} }
  }
  const bodyParserError = error as { type?: string; status?: number } | undefined
  if (bodyParserError?.type === 'entity.parse.failed') return clientError(400, 'Malformed JSON in request body')
  if (bodyParserError?.type === 'entity.too.large') return clientError(413, 'Request body is too large')
  if (bodyParserError?.type === 'charset.unsupported' || bodyParserError?.type === 'encoding.unsupported') {
    return clientError(415, 'Unsupported request encoding')
  }
  const status = bodyParserError?.status
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return clientError(status, REASON_PHRASES[status] ?? 'Bad request')
  }
  return undefined
}

/** The shape of class-validator's ValidationError that matters here. */
export interface ValidationErrorLike {
  property: string
  constraints?: Record<string, string>
  children?: ValidationErrorLike[]
}

/** Nested class-validator errors as `{ field: 'a.b', message }`, without the rejected values. */
export function flattenValidationErrors(errors: ValidationErrorLike[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }))
    return [...own, ...flattenValidationErrors(error.children ?? [], field)]
  })
}

function clientError(statusCode: number, message: string): ErrorResponse {
  return { body: errorBody(statusCode, message), headers: {} }
}

function isValidationFailure(error: unknown): error is { errors: ValidationErrorLike[] } {
  const candidate = error as { errors?: unknown }
  return (
    error instanceof HttpError &&
    Array.isArray(candidate.errors) &&
    candidate.errors.every((item) => typeof item === 'object' && item !== null && 'property' in item)
  )
}

/** routing-controllers' messages can quote raw parameter values; keep only our own wording for parse errors. */
function safeHttpMessage(error: HttpError): string {
  if (['ParamRequiredError', 'ParameterParseJsonError', 'ParamNormalizationError'].includes(error.name)) {
    return 'Invalid or missing request parameter'
  }
  if (error.name === 'AuthorizationRequiredError') return 'Authentication required'
  if (error.name === 'AccessDeniedError') return 'Access denied'
  return error.message.length > 0 && error.message.length < 300
    ? error.message
    : (REASON_PHRASES[error.httpCode] ?? 'Request failed')
}
