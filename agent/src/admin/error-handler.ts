import { ClassValidationError, RecordDuplicateError, RecordNotFoundError } from '@credo-ts/core'
import {
  ConflictError,
  type FieldError,
  InvalidInputError,
  InvalidStateError,
  type Logger,
  NotFoundError,
  NotImplementedError,
  UnauthenticatedError,
  UpstreamError,
} from '@idplane/common'
import type { NextFunction, Request, Response } from 'express'
import { HttpError } from 'routing-controllers'

export interface ErrorBody {
  statusCode: number
  message: string
  error: string
  errors?: FieldError[]
}

interface ValidationErrorLike {
  property: string
  constraints?: Record<string, string>
  children?: ValidationErrorLike[]
}

/**
 * The only place that knows HTTP statuses. Unknown errors become a 500 with a fixed message and are logged
 * with the request id; DESIGN.md allows no 500 for any input, so each one is a bug to fix.
 * Decision (spec silent): UpstreamError → 502; Credo's CredoError for a move the protocol state forbids
 * stays a 500 only if not recognised; InvalidStateError → 409.
 */
export function toErrorBody(error: unknown): ErrorBody {
  if (isMalformedJson(error)) return body(400, 'Malformed JSON body', 'Bad Request')
  if (error instanceof RecordNotFoundError || error instanceof NotFoundError)
    return body(404, 'Record not found', 'Not Found')
  if (error instanceof RecordDuplicateError || error instanceof ConflictError)
    return body(409, 'Record already exists', 'Conflict')
  if (error instanceof ClassValidationError)
    return body(400, 'Invalid input', 'Bad Request', fieldsOf(error.validationErrors))
  if (error instanceof InvalidInputError) return body(400, error.message, 'Bad Request', error.fields)
  if (error instanceof InvalidStateError) return body(409, error.message, 'Conflict')
  if (error instanceof UnauthenticatedError) return body(401, 'Unauthorized', 'Unauthorized')
  if (error instanceof NotImplementedError) return body(501, error.message, 'Not Implemented')
  if (error instanceof UpstreamError) return body(502, error.message, 'Bad Gateway')
  if (error instanceof HttpError) {
    const errors = (error as HttpError & { errors?: ValidationErrorLike[] }).errors
    if (error.httpCode === 400 && Array.isArray(errors))
      return body(400, 'Invalid input', 'Bad Request', fieldsOf(errors))
    if (error.httpCode === 401 || error.httpCode === 403) return body(401, 'Unauthorized', 'Unauthorized')
    if (error.httpCode < 500) return body(error.httpCode, error.message || 'Bad Request', error.name)
  }
  return body(500, 'Internal server error', 'Internal Server Error')
}

export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next === undefined ? undefined : undefined
    const errorBody = toErrorBody(error)
    if (errorBody.statusCode >= 500) logger.error('Request failed', { requestId: req.headers['x-request-id'], error })
    res.status(errorBody.statusCode).json(errorBody)
  }
}

function body(statusCode: number, message: string, error: string, errors?: FieldError[]): ErrorBody {
  return errors && errors.length > 0 ? { statusCode, message, error, errors } : { statusCode, message, error }
}

function fieldsOf(errors: ValidationErrorLike[], prefix = ''): FieldError[] {
  return errors.flatMap((item) => {
    const field = prefix ? `${prefix}.${item.property}` : item.property
    const own = Object.values(item.constraints ?? {}).map((message) => ({ field, message }))
    return [...own, ...fieldsOf(item.children ?? [], field)]
  })
}

function isMalformedJson(error: unknown): boolean {
  return error instanceof SyntaxError && (error as SyntaxError & { type?: string }).type === 'entity.parse.failed'
}
