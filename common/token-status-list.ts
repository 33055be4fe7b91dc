import { constants, deflateSync, inflateSync } from 'node:zlib'

/**
 * IETF Token Status List (draft-ietf-oauth-status-list, section 4), the parts the platform needs: the API keeps one
 * list per organization, signer and purpose and publishes it as a status list token (a JWT the organization's agent
 * signs); tests and verifiers read it back. Each entry is `bits` wide; entry 0 sits in the least significant bits
 * of byte 0 (section 4.1), unlike the W3C Bitstring Status List (common/bitstring-status-list.ts).
 */

/** The widths section 4.1 allows. */
export const TOKEN_STATUS_BITS = [1, 2, 4, 8] as const
export type TokenStatusBits = (typeof TOKEN_STATUS_BITS)[number]

/** Status values of section 7.1 (the registry's first entries). */
export const TOKEN_STATUS = { VALID: 0x00, INVALID: 0x01, SUSPENDED: 0x02 } as const

/** The JWT `typ` of a status list token (section 5.1) and the media type it is served with (section 8.1). */
export const STATUS_LIST_JWT_TYPE = 'statuslist+jwt'
export const STATUS_LIST_JWT_MEDIA_TYPE = 'application/statuslist+jwt'

/** The `status_list` claim of a status list token. */
export interface TokenStatusListClaim {
  bits: TokenStatusBits
  /** base64url (no padding) of the zlib-compressed status bytes. */
  lst: string
}

/** The `status` claim a referenced token (an SD-JWT VC) carries (section 6.1). */
export interface TokenStatusReference {
  status_list: { idx: number; uri: string }
}

export class TokenStatusListError extends Error {
  public constructor(message: string) {
    super(message)
    this.name = 'TokenStatusListError'
  }
}

/** Room for `entries` statuses of `bits` each, all VALID. */
export function emptyTokenStatusList(entries: number, bits: TokenStatusBits): Uint8Array {
  checkBits(bits)
  if (!Number.isInteger(entries) || entries <= 0)
    throw new TokenStatusListError(`A status list has a positive number of entries, not ${entries}`)
  return new Uint8Array(Math.ceil((entries * bits) / 8))
}

/** The number of entries `bytes` hold at `bits` each. */
export function tokenStatusCapacity(bytes: Uint8Array, bits: TokenStatusBits): number {
  return (bytes.length * 8) / bits
}

export function getTokenStatus(bytes: Uint8Array, bits: TokenStatusBits, index: number): number {
  checkIndex(bytes, bits, index)
  const bit = index * bits
  return (bytes[bit >> 3] >> (bit & 7)) & ((1 << bits) - 1)
}

export function setTokenStatus(bytes: Uint8Array, bits: TokenStatusBits, index: number, status: number): void {
  checkIndex(bytes, bits, index)
  const mask = (1 << bits) - 1
  if (!Number.isInteger(status) || status < 0 || status > mask)
    throw new TokenStatusListError(`Status ${status} does not fit in ${bits} bit(s)`)
  const bit = index * bits
  const shift = bit & 7
  bytes[bit >> 3] = (bytes[bit >> 3] & ~(mask << shift) & 0xff) | (status << shift)
}

/** The `status_list` claim of the bytes: zlib (DEFLATE with the zlib header, best compression), then base64url. */
export function encodeTokenStatusList(bytes: Uint8Array, bits: TokenStatusBits): TokenStatusListClaim {
  checkBits(bits)
  return { bits, lst: deflateSync(bytes, { level: constants.Z_BEST_COMPRESSION }).toString('base64url') }
}

/**
 * The status bytes of a `status_list` claim.
 * @throws TokenStatusListError for a width section 4.1 does not allow, or an `lst` that is not base64url zlib data
 *   of at most `maxBytes` bytes
 */
export function decodeTokenStatusList(
  claim: unknown,
  maxBytes = 1 << 20,
): { bits: TokenStatusBits; bytes: Uint8Array } {
  if (typeof claim !== 'object' || claim === null) throw new TokenStatusListError('The status_list is not an object')
  const { bits, lst } = claim as Record<string, unknown>
  checkBits(bits)
  if (typeof lst !== 'string' || !/^[A-Za-z0-9_-]+$/.test(lst))
    throw new TokenStatusListError('The status_list lst is not base64url')
  try {
    return { bits, bytes: new Uint8Array(inflateSync(Buffer.from(lst, 'base64url'), { maxOutputLength: maxBytes })) }
  } catch (error) {
    throw new TokenStatusListError(`The status_list lst is not zlib data: ${(error as Error).message}`)
  }
}

/** The claims of a status list token (section 5.1); `ttl` tells relying parties how long they may cache it. */
export function statusListTokenPayload(options: {
  uri: string
  bytes: Uint8Array
  bits: TokenStatusBits
  issuedAt: Date
  ttlSeconds: number
}): Record<string, unknown> {
  return {
    sub: options.uri,
    iat: Math.floor(options.issuedAt.getTime() / 1000),
    ttl: options.ttlSeconds,
    status_list: encodeTokenStatusList(options.bytes, options.bits),
  }
}

function checkBits(bits: unknown): asserts bits is TokenStatusBits {
  if (!TOKEN_STATUS_BITS.includes(bits as TokenStatusBits))
    throw new TokenStatusListError(`A status list entry is 1, 2, 4 or 8 bits wide, not ${String(bits)}`)
}

function checkIndex(bytes: Uint8Array, bits: TokenStatusBits, index: number): void {
  checkBits(bits)
  const capacity = tokenStatusCapacity(bytes, bits)
  if (!Number.isInteger(index) || index < 0 || index >= capacity)
    throw new TokenStatusListError(`Index ${index} is outside the status list (0 to ${capacity - 1})`)
}
