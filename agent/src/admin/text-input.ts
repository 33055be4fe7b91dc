import { InvalidInputError } from '@idplane/common'
import type { NextFunction, Request, Response } from 'express'

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * The path (`label`, `messages[0].content`) of the first string or key holding a lone surrogate: text that is no
 * Unicode, which the agent's storage cannot keep (PostgreSQL's jsonb refuses the escape; the save failed as a 500,
 * issue 23 item 8). Walks with its own stack, like findUnsafeJson.
 */
export function findLoneSurrogate(value: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }]
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item.value === 'string') {
      if (LONE_SURROGATE.test(item.value)) return item.path || 'body'
      continue
    }
    if (item.value === null || typeof item.value !== 'object') continue
    const isArray = Array.isArray(item.value)
    for (const [key, child] of Object.entries(item.value)) {
      const path = isArray ? `${item.path}[${key}]` : item.path ? `${item.path}.${key}` : key
      // A key's own text stays out of the answer.
      if (LONE_SURROGATE.test(key)) return `${item.path || 'body'} (a key)`
      pending.push({ value: child, path })
    }
  }
  return undefined
}

/** Express middleware after the JSON parser: a body holding a lone surrogate is a 400 naming the field. */
export function rejectLoneSurrogates(req: Request, _res: Response, next: NextFunction): void {
  const field = req.body === undefined ? undefined : findLoneSurrogate(req.body)
  if (field === undefined) return next()
  next(
    new InvalidInputError(`${field} is not valid Unicode text (it holds a lone surrogate)`, [
      { field, message: 'must be valid Unicode text (no lone surrogate)' },
    ]),
  )
}
