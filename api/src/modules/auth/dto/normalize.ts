import { Transform } from 'class-transformer'

/** Longest e-mail address (RFC 5321 path limits: 64 + 1 + 255). */
export const EMAIL_MAX_LENGTH = 320
export const NAME_MAX_LENGTH = 100
/** No control characters (they would break mail headers and logs); spaces and letters of any script are fine. */
export const NO_CONTROL_CHARACTERS = /^[^\p{Cc}]*$/u

/** Addresses are compared and stored trimmed and lower-cased, so `Alice@Example.com ` and `alice@example.com` are one account. */
export function NormalizeEmail() {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
}

export function Trim() {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
}
