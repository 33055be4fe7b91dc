import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { InvalidInputError } from './errors'

/**
 * Deepest nesting of arrays and objects a JSON body may have. Our bodies and the agents' event records stay
 * under 15 levels; a few thousand levels overflowed the stack of recursive code behind the parser (issue 8).
 * @default 64
 */
export const MAX_JSON_DEPTH = 64

/** Whether the text holds a control character (U+0000-U+001F, U+007F): no identifier or name of ours has one. */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/**
 * Why a parsed JSON value may not enter the program, or undefined when it may: a NUL character in a string or
 * key (PostgreSQL text cannot store it, so it failed deep inside a query), nesting past `maxDepth`, or a
 * `__proto__` key (no contract field has that name; merged into an object it would set the prototype).
 * Walks with its own stack, so a deep value cannot overflow the call stack here.
 */
export function findUnsafeJson(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }]
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item.value === 'string') {
      if (item.value.includes('\u0000')) return 'must not contain NUL characters'
      continue
    }
    if (item.value === null || typeof item.value !== 'object') continue
    if (item.depth >= maxDepth) return `must not nest deeper than ${maxDepth} levels`
    for (const [key, child] of Object.entries(item.value)) {
      if (key === '__proto__') return 'must not contain a "__proto__" key'
      if (key.includes('\u0000')) return 'must not contain NUL characters'
      pending.push({ value: child, depth: item.depth + 1 })
    }
  }
  return undefined
}

/** Express middleware after a JSON parser: a parsed body `findUnsafeJson` refuses is a 400. */
export function rejectUnsafeJsonBody(maxDepth = MAX_JSON_DEPTH): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const problem = req.body === undefined ? undefined : findUnsafeJson(req.body, maxDepth)
    if (problem === undefined) return next()
    next(new InvalidInputError(`Request body ${problem}`, [{ field: 'body', message: problem }]))
  }
}

/**
 * Express middleware first in the pipeline: a NUL character anywhere in the path or the query string (raw or
 * percent-encoded) is a 400, before any route, token check or query parser sees it.
 */
export function rejectNulInUrl(req: Request, _res: Response, next: NextFunction): void {
  if (!req.originalUrl.includes('%00') && !req.originalUrl.includes('\u0000')) return next()
  next(new InvalidInputError('URL must not contain NUL characters', [{ field: 'url', message: 'contains NUL' }]))
}

/**
 * routing-controllers puts its own body-parser 1.x in front of every @Body route. That parser skips a request
 * marked `_body`, which express.json (body-parser 2) no longer sets; unmarked, a body express.json consumed is
 * read again and fails with a 500 ("stream is not readable"). Call after express.json has parsed.
 */
export function markBodyParsed(req: Request): void {
  Object.assign(req, { _body: true })
}
