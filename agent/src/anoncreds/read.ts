/**
 * Readers that turn untrusted JSON into typed values or throw AnonCredsError('malformed') naming the path.
 * Every public operation reads its inputs through these, so a malformed object never reaches the arithmetic.
 */
import { malformed } from './errors'
import { parseDecimal } from './math'

export type Json = unknown

export function readObject(value: Json, path: string): Record<string, Json> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(path, 'expected an object')
  return value as Record<string, Json>
}

export function readString(
  value: Json,
  path: string,
  options: { maxLength?: number; nonEmpty?: boolean } = {},
): string {
  if (typeof value !== 'string') throw malformed(path, 'expected a string')
  if (options.nonEmpty !== false && value.length === 0) throw malformed(path, 'must not be empty')
  if (value.length > (options.maxLength ?? 4096)) throw malformed(path, 'is too long')
  return value
}

export function readOptionalString(value: Json, path: string): string | undefined {
  if (value === undefined || value === null) return undefined
  return readString(value, path)
}

/** A non-negative big number written as a decimal string (negative only when `allowNegative`). */
export function readBigint(
  value: Json,
  path: string,
  options: { allowNegative?: boolean; maxBits?: number } = {},
): bigint {
  // 4096-bit values have 1234 decimal digits; no CL value of ours is larger except products in proofs.
  const maxBits = options.maxBits ?? 4096
  const parsed = parseDecimal(value, Math.ceil(maxBits / 3.32) + 1)
  if (parsed === null) throw malformed(path, 'expected a big number as a decimal string')
  if (parsed < 0n && !options.allowNegative) throw malformed(path, 'must not be negative')
  if ((parsed < 0n ? -parsed : parsed) >> BigInt(maxBits) !== 0n) throw malformed(path, `exceeds ${maxBits} bits`)
  return parsed
}

/** anoncreds-rs accepts a nonce as a decimal string or a JSON integer; it always writes a string. */
export function readNonce(value: Json, path: string): bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw malformed(path, 'expected a non-negative integer nonce')
    return BigInt(value)
  }
  return readBigint(value, path, { maxBits: 256 })
}

export function readArray(value: Json, path: string, maxLength = 1000): Json[] {
  if (!Array.isArray(value)) throw malformed(path, 'expected an array')
  if (value.length > maxLength) throw malformed(path, 'has too many entries')
  return value
}

/** Plain-object entries, refusing prototype keys so a crafted `__proto__` cannot slip through. */
export function readEntries(value: Json, path: string, maxEntries = 1000): Array<[string, Json]> {
  const entries = Object.entries(readObject(value, path))
  if (entries.length > maxEntries) throw malformed(path, 'has too many entries')
  for (const [key] of entries) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype')
      throw malformed(`${path}.${key}`, 'forbidden key')
  }
  return entries
}

/** `null` or absent; the revocation fields of this build. */
export function readAbsent(value: Json, path: string): void {
  if (value !== undefined && value !== null) throw malformed(path, 'revocation is not supported yet; expected null')
}
