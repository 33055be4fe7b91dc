import type { NextFunction, Request, Response } from 'express'
import {
  NotFoundError as OrmNotFoundError,
  UniqueConstraintViolationException,
  ForeignKeyConstraintViolationException,
  InvalidFieldNameException,
} from '@mikro-orm/core'
import type { Logger } from '@idplane/common'
import { INTERNAL_ERROR, errorBody, toKnownErrorResponse, type ErrorResponse } from '@idplane/common/http-errors'
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/database-unavailable'
import { isAnswered } from './held-answer'

export type { ErrorBody } from '@idplane/common/http-errors'

/**
 * The API's only table from errors to HTTP statuses: the shared platform mappings (common/http-errors.ts),
 * then the ORM's. Anything unknown is a 500 with a fixed message, logged with the request id: DESIGN.md
 * allows no 500 for any input, so each one is a bug to fix.
 */
export function toErrorBody(error: unknown): ErrorResponse {
  return toKnownErrorResponse(error) ?? ormErrorResponse(error) ?? INTERNAL_ERROR
}

function ormErrorResponse(error: unknown): ErrorResponse | undefined {
  if (error instanceof OrmNotFoundError) return { body: errorBody(404, 'Record not found'), headers: {} }
  if (error instanceof UniqueConstraintViolationException)
    return { body: errorBody(409, 'Record already exists'), headers: {} }
  if (error instanceof ForeignKeyConstraintViolationException) {
    return { body: errorBody(409, 'Record is referenced by other records'), headers: {} }
  }
  if (error instanceof InvalidFieldNameException) return { body: errorBody(400, 'Invalid field'), headers: {} }
  if (isDatabaseUnavailable(error)) {
    return {
      body: errorBody(503, 'The database is unavailable; retry shortly'),
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    }
  }
  return undefined
}

/** Final Express error middleware: after routing-controllers and body parsing. */
export function errorHandler(logger: Logger) {
  // Express recognises error middleware by its four parameters.
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    // routing-controllers passes errors on after it has already answered; never write twice.
    if (isAnswered(res)) return
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
  if (isAnswered(res)) return
  res.status(404).json(errorBody(404, `Cannot ${req.method} ${req.path}`))
}
