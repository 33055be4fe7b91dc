import type { NextFunction, Request, Response } from 'express'
import { HttpError } from 'routing-controllers'
import type { ValidationError } from 'class-validator'
import {
  NotFoundError as OrmNotFoundError,
  UniqueConstraintViolationException,
  ForeignKeyConstraintViolationException,
  InvalidFieldNameException,
} from '@mikro-orm/core'
import {
  ConflictError,
  FieldError,
  ForbiddenError,
  IdplaneError,
  InvalidInputError,
  InvalidStateError,
  Logger,
  NotFoundError,
  NotImplementedError,
  RateLimitedError,
  UnauthenticatedError,
  UpstreamError,
} from '@idplane/common'

export interface ErrorBody {
  statusCode: number
  message: string
  error: string
  errors?: FieldError[]
}

/**
 * The one table from error classes to HTTP statuses. Decisions where the spec is silent (docs/decisions.md):
 * InvalidStateError → 409, UpstreamError → 502, NotImplementedError → 501, RateLimitedError → 429 + Retry-After.
 */
const STATUS_BY_ERROR: [new (...args: never[]) => IdplaneError, number][] = [
  [InvalidInputError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [InvalidStateError, 409],
  [RateLimitedError, 429],
  [NotImplementedError, 501],
  [UpstreamError, 502],
]

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

/** Builds the error body for any thrown value; never includes a stack or echoes the request. */
export function toErrorBody(error: unknown): { body: ErrorBody; headers: Record<string, string> } {
  const headers: Record<string, string> = {}
  const body = (statusCode: number, message: string, errors?: FieldError[]): ErrorBody => ({
    statusCode,
    message,
    error: REASON[statusCode] ?? 'Error',
    ...(errors && errors.length > 0 ? { errors } : {}),
  })

  if (error instanceof IdplaneError) {
    const match = STATUS_BY_ERROR.find(([type]) => error instanceof type)
    if (match) {
      if (error instanceof RateLimitedError) headers['Retry-After'] = String(error.retryAfterSeconds)
      return {
        body: body(match[1], error.message, error instanceof InvalidInputError ? error.fields : undefined),
        headers,
      }
    }
  }
  if (isValidationFailure(error)) {
    return { body: body(400, 'Validation failed', flattenValidationErrors(error.errors)), headers }
  }
  if (error instanceof HttpError && error.httpCode >= 400 && error.httpCode < 500) {
    return { body: body(error.httpCode, safeHttpMessage(error)), headers }
  }
  const expressError = error as { type?: string; status?: number }
  if (expressError?.type === 'entity.parse.failed')
    return { body: body(400, 'Malformed JSON in request body'), headers }
  if (expressError?.type === 'entity.too.large') return { body: body(413, 'Request body is too large'), headers }
  if (expressError?.type === 'charset.unsupported' || expressError?.type === 'encoding.unsupported') {
    return { body: body(415, 'Unsupported request encoding'), headers }
  }
  if (typeof expressError?.status === 'number' && expressError.status >= 400 && expressError.status < 500) {
    return { body: body(expressError.status, REASON[expressError.status] ?? 'Bad request'), headers }
  }
  if (error instanceof OrmNotFoundError) return { body: body(404, 'Record not found'), headers }
  if (error instanceof UniqueConstraintViolationException) return { body: body(409, 'Record already exists'), headers }
  if (error instanceof ForeignKeyConstraintViolationException)
    return { body: body(409, 'Record is referenced by other records'), headers }
  if (error instanceof InvalidFieldNameException) return { body: body(400, 'Invalid field'), headers }
  return { body: body(500, 'Internal server error'), headers }
}

/** Final Express error middleware: after routing-controllers and body parsing. */
export function errorHandler(logger: Logger) {
  // Express recognises error middleware by its four parameters.
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    // routing-controllers passes errors on after it has already answered; never write twice.
    if (res.headersSent) return
    const { body, headers } = toErrorBody(error)
    if (body.statusCode >= 500) {
      logger.error('Request failed', {
        requestId: req.requestId,
        method: req.method,
        path: req.path,
        error: error as Error,
      })
    }
    res.status(body.statusCode).set(headers).json(body)
  }
}

/** Unknown routes answer the JSON error body, never an HTML page. */
export function notFoundHandler(req: Request, res: Response): void {
  if (res.headersSent) return
  res.status(404).json({ statusCode: 404, message: `Cannot ${req.method} ${req.path}`, error: 'Not Found' })
}

function isValidationFailure(error: unknown): error is { errors: ValidationError[] } {
  const candidate = error as { errors?: unknown }
  return (
    error instanceof HttpError &&
    Array.isArray(candidate.errors) &&
    candidate.errors.every((item) => typeof item === 'object' && item !== null && 'property' in item)
  )
}

function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }))
    return [...own, ...flattenValidationErrors(error.children ?? [], field)]
  })
}

/** routing-controllers' messages can quote raw parameter values; keep only our own wording for parse errors. */
function safeHttpMessage(error: HttpError): string {
  if (
    error.name === 'ParamRequiredError' ||
    error.name === 'ParameterParseJsonError' ||
    error.name === 'ParamNormalizationError'
  ) {
    return 'Invalid or missing request parameter'
  }
  if (error.name === 'AuthorizationRequiredError') return 'Authentication required'
  if (error.name === 'AccessDeniedError') return 'Access denied'
  return error.message.length > 0 && error.message.length < 300
    ? error.message
    : (REASON[error.httpCode] ?? 'Request failed')
}
