import { createHash } from 'node:crypto'

import { bigintFromBytes } from './math'

const I32_MIN = -(2 ** 31)
const I32_MAX = 2 ** 31 - 1
// Rust's `str::parse::<i32>`: an optional sign, then ASCII digits only (no spaces, no decimal point).
const RUST_I32_SYNTAX = /^[+-]?[0-9]+$/

/**
 * Encodes a raw attribute value as anoncreds-rs `encode_credential_attribute` does: a value that Rust parses as
 * an i32 is kept as its canonical decimal ("+007" -> "7", "-0" -> "0"); anything else becomes the SHA-256 of
 * its UTF-8 bytes read as a big-endian unsigned integer, in decimal.
 */
export function encodeCredentialAttribute(rawValue: string): string {
  if (RUST_I32_SYNTAX.test(rawValue)) {
    // Number() is exact for every i32 whatever the leading zeros; a longer digit string becomes a float
    // beyond the range (or Infinity), which is rejected just the same.
    const value = Number(rawValue)
    if (value >= I32_MIN && value <= I32_MAX) return String(value === 0 ? 0 : value)
  }
  return bigintFromBytes(createHash('sha256').update(rawValue, 'utf8').digest()).toString(10)
}

/** True when `encoded` is what encodeCredentialAttribute gives for `raw` (credential checks use it). */
export function isEncodingOf(raw: string, encoded: string): boolean {
  return encodeCredentialAttribute(raw) === encoded
}
