import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express'
import { InvalidInputError } from '@idplane/common'

/**
 * JSON bodies: parsed once, and always an object. Every body in the contract is a JSON object; a top-level
 * array (which express.json's strict mode lets through) would otherwise reach class-transformer as a list.
 */
export function jsonBody(limit: string): RequestHandler[] {
  return [express.json({ limit }), markParsedAndRequireObject]
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
  // routing-controllers puts its own body-parser 1.x in front of every @Body route. That parser skips a request
  // marked `_body`, which express.json (body-parser 2) no longer sets; unmarked, a body express.json consumed is
  // read again and fails with a 500 ("stream is not readable").
  Object.assign(req, { _body: true })
  next()
}
