import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express'
import { InvalidInputError } from '@idplane/common'
import { markBodyParsed, rejectUnsafeJsonBody } from '@idplane/common/request-input'

/**
 * JSON bodies: parsed once, and always an object. Every body in the contract is a JSON object; a top-level
 * array (which express.json's strict mode lets through) would otherwise reach class-transformer as a list.
 * NUL characters, deep nesting and `__proto__` keys are refused here for every route (common/request-input.ts).
 */
export function jsonBody(limit: string): RequestHandler[] {
  return [express.json({ limit }), rejectUnsafeJsonBody(), markParsedAndRequireObject]
}

function markParsedAndRequireObject(req: Request, _res: Response, next: NextFunction): void {
  if (req.body === undefined) return next()
  if (Array.isArray(req.body)) {
    return next(
      new InvalidInputError('Request body must be a JSON object', [
        { field: 'body', message: 'must be a JSON object' },
      ]),
    )
  }
  markBodyParsed(req)
  next()
}
