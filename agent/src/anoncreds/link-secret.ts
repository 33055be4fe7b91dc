import { LARGE_LINK_SECRET } from './cl/constants'
import { malformed } from './errors'
import { parseDecimal, randomBits, toDecimal } from './math'
import type { LinkSecret } from './types'

/** A fresh link secret: 256 random bits in decimal (anoncreds-rs's LinkSecret::new). */
export function createLinkSecret(): LinkSecret {
  return toDecimal(randomBits(LARGE_LINK_SECRET))
}

export function readLinkSecret(value: unknown, path = 'linkSecret'): bigint {
  const secret = parseDecimal(value, 200)
  if (secret === null || secret < 0n) throw malformed(path, 'expected a link secret (a decimal number)')
  return secret
}
