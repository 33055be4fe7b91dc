import { createHash } from 'node:crypto'
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { ConflictError, InvalidInputError, type Logger, RequestMismatchError } from '@idplane/common'
import { bearerToken } from '../../auth/authorization'
import type { SessionCheck } from '../../auth/session-check'
import type { Principal, TokenService } from '../../auth/token.service'
import { holdAnswer } from '../held-answer'
import type { IdempotencyKeysRepository } from './idempotency-keys.repository'

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
/** Printable ASCII without spaces, as Stripe and the IETF draft use them (a UUID fits). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/
/** The organization of a route: `/orgs/<uuid>` anywhere in the path (`/v1/orgs/:orgId/...`, `/v1/webhooks/orgs/:orgId/...`). */
const ORG_IN_PATH = /\/orgs\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i
const POLL_MS = 50

export interface IdempotencyOptions {
  /** How long an answer is kept for retries (IDEMPOTENCY_KEY_TTL_SECONDS). */
  ttlSeconds: number
  /** After this, a key whose request never answered (its process died) may be claimed again. */
  pendingTimeoutSeconds: number
  /** How long a retry waits for a concurrent request with its key to answer before a 409. */
  waitMs: number
  /** How often expired keys are deleted. */
  pruneIntervalSeconds: number
}

/**
 * `Idempotency-Key` on creating POSTs (issue 23 item 9; docs/api-usage.md, "Retrying safely"): the first request with
 * a key acts and its answer is kept for a day, per organization (the route's `orgId`; the caller on routes without
 * one); a retry with the same key and the same request gets that answer again (status and body, with
 * `Idempotent-Replayed: true`) and acts no more. The same key with another request (caller, path, query or body) is a
 * 422; a retry while the first is still running waits up to `waitMs`, then gets 409. Server errors (5xx) and answers
 * that are not JSON are not kept: a retry acts again. Requests without a valid bearer token pass through untouched
 * (the route answers them as always), as do multipart uploads, whose body is not read here.
 */
export function idempotency(
  store: IdempotencyKeysRepository,
  tokens: TokenService,
  sessions: SessionCheck,
  logger: Logger,
  options: IdempotencyOptions,
): RequestHandler {
  let lastPrune = 0
  const pruneIfDue = (now: number): void => {
    if (now - lastPrune < options.pruneIntervalSeconds * 1000) return
    lastPrune = now
    // A failed prune only leaves expired rows behind (claims overwrite them); the next interval tries again.
    store.deleteExpired(new Date(now)).catch((error: unknown) => logger.warn('Idempotency key prune failed', { error }))
  }

  return (req: Request, res: Response, next: NextFunction) => {
    const key = req.header(IDEMPOTENCY_HEADER)
    if (req.method !== 'POST' || key === undefined || req.is('multipart/form-data')) return next()
    handle(req, res, key).then(
      (proceed) => (proceed ? next() : undefined),
      (error: unknown) => next(error),
    )
  }

  /** Resolves true when the route should run (the key is ours, or idempotency does not apply). */
  async function handle(req: Request, res: Response, key: string): Promise<boolean> {
    const principal = await authenticated(req)
    if (!principal) return true
    if (!KEY_PATTERN.test(key)) {
      throw new InvalidInputError('Invalid Idempotency-Key', [
        { field: IDEMPOTENCY_HEADER, message: 'must be 1 to 255 printable ASCII characters without spaces' },
      ])
    }
    const now = Date.now()
    pruneIfDue(now)
    const caller = principal.kind === 'client' ? `client:${principal.clientId}` : `user:${principal.userId}`
    const orgId = ORG_IN_PATH.exec(req.path)?.[1]?.toLowerCase()
    const scope = orgId ? `org:${orgId}` : caller
    const fingerprint = fingerprintOf(caller, req)
    const expiresAt = new Date(now + options.ttlSeconds * 1000)
    const staleBefore = new Date(now - options.pendingTimeoutSeconds * 1000)

    const deadline = now + options.waitMs
    for (;;) {
      const claim = await store.claim(scope, key, fingerprint, expiresAt, staleBefore)
      if (claim.kind === 'claimed') {
        recordAnswer(res, claim.id)
        return true
      }
      if (claim.fingerprint !== fingerprint) {
        throw new RequestMismatchError(
          'This Idempotency-Key was used for another request; use a new key for a new request',
        )
      }
      if (claim.state === 'done' && claim.responseStatus !== null) {
        res.status(claim.responseStatus).set('Idempotent-Replayed', 'true').json(claim.responseBody)
        return false
      }
      if (Date.now() >= deadline) {
        throw new ConflictError('A request with this Idempotency-Key is still in progress; retry it later')
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  }

  /**
   * Keeps the route's JSON answer under the claim before it is sent, so a client that retries the moment it has the
   * answer gets it replayed; gives the key up for a 5xx, a non-JSON answer or a request that ended without one.
   */
  function recordAnswer(res: Response, id: string): void {
    let answered = false
    const warn = (error: unknown) => logger.warn('Idempotency key could not be settled', { error })
    const json = res.json.bind(res)
    res.json = (value: unknown) => {
      if (answered) return json(value)
      answered = true
      if (res.statusCode >= 500) {
        store.release(id).catch(warn)
        return json(value)
      }
      holdAnswer(res)
      // Not recorded (the database failed): the key stays pending until its timeout, as for a process that died.
      store
        .complete(id, res.statusCode, value)
        .catch(warn)
        .then(() => json(value))
        .catch((error: unknown) => logger.warn('Idempotent answer could not be sent', { error }))
      return res
    }
    res.on('close', () => {
      if (!answered) store.release(id).catch(warn)
    })
  }

  async function authenticated(req: Request): Promise<Principal | undefined> {
    try {
      const principal = tokens.verify(bearerToken(req))
      await sessions.assertActive(principal.sessionId)
      return principal
    } catch {
      // The route's own authorization answers (401); nothing is claimed for a caller we cannot name.
      return undefined
    }
  }
}

/** SHA-256 of who sent what where: caller, method, path with query, and the JSON body with its keys sorted. */
function fingerprintOf(caller: string, req: Request): string {
  return createHash('sha256')
    .update(JSON.stringify([caller, req.method, req.url, canonical(req.body)]))
    .digest('hex')
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value === null || typeof value !== 'object') return value ?? null
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, canonical((value as Record<string, unknown>)[name])]),
  )
}
