import type { Response } from 'express'

const HELD = 'answerHeld'

/**
 * Marks an answer the route already gave that is sent once something it depends on is written (the idempotency
 * record of its key). routing-controllers calls `next()` after every action, so the handlers after the routes must
 * see such an answer as given.
 */
export function holdAnswer(res: Response): void {
  res.locals[HELD] = true
}

/** Whether the request has its answer, sent or held: the 404 and error handlers must not write a second one. */
export function isAnswered(res: Response): boolean {
  return res.headersSent || res.locals[HELD] === true
}
