import { ClassValidationError, RecordDuplicateError, RecordNotFoundError } from '@credo-ts/core'
import type { Logger } from '@idplane/common'
import {
  INTERNAL_ERROR,
  errorBody,
  flattenValidationErrors,
  toKnownErrorResponse,
  type ErrorBody,
} from '@idplane/common/http-errors'
import type { NextFunction, Request, Response } from 'express'

import { toCredoRefusal } from './credo-errors'

export type { ErrorBody }

/**
 * The admin API's only table from errors to HTTP statuses: Credo's record and validation errors, the Credo errors
 * whose meaning is fixed (credo-errors.ts: a step in the wrong state 409, a protocol problem 409, an undeliverable
 * message 502), then the platform mappings shared with the API (common/http-errors.ts). Unknown errors are a 500
 * with a fixed message, logged with the request id: DESIGN.md allows no 500 for any input, so each one is a bug to
 * fix (protocol steps turn format services' exceptions into 4xx themselves: credo-errors.ts, protocolStep).
 */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof RecordNotFoundError) return errorBody(404, 'Record not found')
  if (error instanceof RecordDuplicateError) return errorBody(409, 'Record already exists')
  if (error instanceof ClassValidationError) {
    return errorBody(400, 'Invalid input', flattenValidationErrors(error.validationErrors))
  }
  return (toKnownErrorResponse(toCredoRefusal(error) ?? error) ?? INTERNAL_ERROR).body
}

export function errorHandler(logger: Logger) {
  // Express recognises error middleware by its four parameters.
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) return
    const body = toErrorBody(error)
    const requestId = req.headers['x-request-id']
    // 503 only says the agent is starting; a refusal of the caller's input needs nobody (the API logs it at info).
    if (body.statusCode >= 500 && body.statusCode !== 503) logger.error('Request failed', { requestId, error })
    else logger.debug('Request refused', { requestId, status: body.statusCode, reason: body.message })
    res.status(body.statusCode).json(body)
  }
}
