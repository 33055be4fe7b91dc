import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A random secret for machines (agent API keys, event tokens): 32 bytes, base64url. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** SHA-256 hex of a high-entropy token: enough at rest, since such tokens cannot be guessed from a hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** Compares a presented token with a stored hash in constant time (both sides are fixed-length digests). */
export function tokenMatchesHash(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(token), 'hex')
  const stored = Buffer.from(storedHash, 'hex')
  return stored.length === presented.length && timingSafeEqual(presented, stored)
}
