import { ConnectionException } from '@mikro-orm/core'

/**
 * SQLSTATE classes and socket codes of a database that cannot be reached or is shutting down (class 08: connection
 * exception; 57P01-57P03: admin or crash shutdown, cannot connect now), as opposed to a query it refused.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
])

/** Seconds a client is asked to wait before retrying while the database is away (PostgreSQL restarts take seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5

/**
 * Whether an error (or one in its cause chain) says the database is unreachable for now: the request may succeed
 * when it is back, so the answer is 503 with Retry-After rather than a 5xx that reads as the platform's fault.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof ConnectionException) return true
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true
    if (/^Connection terminated|^terminating connection/.test(current.message)) return true
    current = current.cause
  }
  return false
}
