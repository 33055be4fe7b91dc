import { gunzipSync, gzipSync } from 'node:zlib'

/**
 * W3C Bitstring Status List v1.0 (https://www.w3.org/TR/vc-bitstring-status-list/), the parts the platform needs on
 * both sides: the API publishes lists (encode, set bits, the credential it signs) and the agents check them (decode,
 * read a bit). One bit per credential (statusSize 1); index 0 is the left-most bit of the first byte.
 */

/** The purposes the platform issues: revocation is permanent, suspension can be undone (reinstated). */
export const STATUS_PURPOSES = ['revocation', 'suspension'] as const
export type StatusPurpose = (typeof STATUS_PURPOSES)[number]

/** The specification's minimum list length (16 KiB uncompressed), for group privacy. */
export const MIN_STATUS_LIST_SIZE = 131_072

/** The vocabulary of the Bitstring Status List terms (the same IRIs as the VC 2.0 context defines). */
const STATUS_VOCABULARY = 'https://www.w3.org/ns/credentials/status#'

/**
 * The JSON-LD context our credentials carry for the status terms, inline after the VC 1.1 context: Credo 0.6.3 signs
 * VC 1.1 credentials only, and the VC 2.0 context (where the specification defines these terms) cannot be combined
 * with 1.1 (both protect `VerifiableCredential`). The term IRIs are the specification's, so the signed statements are
 * the same as a VC 2.0 issuer's.
 */
export const STATUS_LIST_CONTEXT: Record<string, unknown> = {
  BitstringStatusListEntry: {
    '@id': `${STATUS_VOCABULARY}BitstringStatusListEntry`,
    '@context': {
      '@protected': true,
      id: '@id',
      type: '@type',
      statusPurpose: `${STATUS_VOCABULARY}statusPurpose`,
      statusListIndex: `${STATUS_VOCABULARY}statusListIndex`,
      statusListCredential: { '@id': `${STATUS_VOCABULARY}statusListCredential`, '@type': '@id' },
    },
  },
  BitstringStatusListCredential: `${STATUS_VOCABULARY}BitstringStatusListCredential`,
  BitstringStatusList: {
    '@id': `${STATUS_VOCABULARY}BitstringStatusList`,
    '@context': {
      '@protected': true,
      id: '@id',
      type: '@type',
      statusPurpose: `${STATUS_VOCABULARY}statusPurpose`,
      encodedList: { '@id': `${STATUS_VOCABULARY}encodedList`, '@type': 'https://w3id.org/security#multibase' },
    },
  },
}

export class StatusListError extends Error {
  public constructor(message: string) {
    super(message)
    this.name = 'StatusListError'
  }
}

/** An all-zero bitstring of `size` bits (a multiple of 8). */
export function emptyBitstring(size: number): Uint8Array {
  if (!Number.isInteger(size) || size <= 0 || size % 8 !== 0)
    throw new StatusListError(`A status list has a positive multiple of 8 entries, not ${size}`)
  return new Uint8Array(size / 8)
}

export function getBit(bits: Uint8Array, index: number): boolean {
  checkIndex(bits, index)
  return (bits[index >> 3] & (0x80 >> (index & 7))) !== 0
}

export function setBit(bits: Uint8Array, index: number, value: boolean): void {
  checkIndex(bits, index)
  if (value) bits[index >> 3] |= 0x80 >> (index & 7)
  else bits[index >> 3] &= ~(0x80 >> (index & 7)) & 0xff
}

/** The `encodedList` of a bitstring: GZIP, then base64url without padding, with the multibase prefix `u`. */
export function encodeBitstring(bits: Uint8Array): string {
  return `u${Buffer.from(gzipSync(bits)).toString('base64url')}`
}

/**
 * The bitstring of an `encodedList`, as the specification's verification algorithm reads it.
 * @throws StatusListError for anything that is not multibase base64url GZIP of at most `maxBytes` bytes
 */
export function decodeBitstring(encodedList: string, maxBytes = 16 * MIN_STATUS_LIST_SIZE): Uint8Array {
  if (typeof encodedList !== 'string' || !encodedList.startsWith('u') || !/^u[A-Za-z0-9_-]+$/.test(encodedList))
    throw new StatusListError('The encodedList is not multibase base64url (prefix u)')
  let bytes: Buffer
  try {
    bytes = gunzipSync(Buffer.from(encodedList.slice(1), 'base64url'), { maxOutputLength: maxBytes })
  } catch (error) {
    throw new StatusListError(`The encodedList is not a GZIP bitstring: ${(error as Error).message}`)
  }
  if (bytes.length * 8 < MIN_STATUS_LIST_SIZE)
    throw new StatusListError(`The status list has ${bytes.length * 8} entries, fewer than ${MIN_STATUS_LIST_SIZE}`)
  return new Uint8Array(bytes)
}

/**
 * A `credentialStatus` entry's `statusListIndex`: a decimal string of digits (the specification's form) or a whole
 * number; anything else is undefined (`Number('')` would read an empty index as 0 and `Number('0x10')` as 16).
 */
export function statusListIndexOf(value: unknown): number | undefined {
  const index = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
  return typeof index === 'number' && Number.isSafeInteger(index) && index >= 0 ? index : undefined
}

/** A `credentialStatus` entry pointing at one index of a status list credential. */
export interface StatusListEntry {
  id: string
  type: 'BitstringStatusListEntry'
  statusPurpose: StatusPurpose
  statusListIndex: string
  statusListCredential: string
}

export function statusListEntry(statusListCredential: string, purpose: StatusPurpose, index: number): StatusListEntry {
  return {
    id: `${statusListCredential}#${index}`,
    type: 'BitstringStatusListEntry',
    statusPurpose: purpose,
    statusListIndex: String(index),
    statusListCredential,
  }
}

/** The unsigned status list credential (VC 1.1 with the inline status context), to be signed by `issuer`. */
export function statusListCredential(options: {
  url: string
  issuer: string
  purpose: StatusPurpose
  encodedList: string
  issuanceDate: string
}): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/2018/credentials/v1', STATUS_LIST_CONTEXT],
    id: options.url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: options.issuer,
    issuanceDate: options.issuanceDate,
    credentialSubject: {
      id: `${options.url}#list`,
      type: 'BitstringStatusList',
      statusPurpose: options.purpose,
      encodedList: options.encodedList,
    },
  }
}

function checkIndex(bits: Uint8Array, index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= bits.length * 8)
    throw new StatusListError(`Index ${index} is outside the status list (0 to ${bits.length * 8 - 1})`)
}
