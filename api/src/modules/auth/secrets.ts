import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

/** Digits in a verification code: with 5 attempts per code, a guess succeeds with odds of 1 in 200,000. */
export const VERIFICATION_CODE_DIGITS = 6

/** Bytes of randomness in a refresh token (256 bits). */
export const REFRESH_TOKEN_BYTES = 32

/** A uniformly random numeric code, zero-padded (`042917`). */
export function generateVerificationCode(digits = VERIFICATION_CODE_DIGITS): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0')
}

/** 32 random bytes, base64url: the refresh token handed to the client once and stored only as a digest. */
export function generateRefreshToken(): string {
  return randomBytes(REFRESH_TOKEN_BYTES).toString('base64url')
}

/**
 * sha256 hex. Enough for codes and tokens (unlike passwords): tokens carry 256 random bits, and a code is
 * only guessable online, where attempts are counted.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/** Compares two hex digests in constant time. */
export function digestsMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}
