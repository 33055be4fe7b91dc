/**
 * Revocation registries (CL_ACCUM, the CKS accumulator) as anoncreds-rs makes them: the definition with its public
 * accumulator key z = e(g, g')^(gamma^(L+1)), the private gamma, the tails file, and the revocation status list with
 * its accumulator. Index i (1-based, the credential's `r_credential.i`) is bit i-1 of `revocationList`; its tail is
 * g'^(gamma^(L+1-i)).
 */
import { createHash } from 'node:crypto'

import { encodeBase58 } from '@idplane/common/base58'

import { AnonCredsError, malformed } from '../errors'
import { Fr, G2, g1Mul, pairing, R, type G2Point, type Gt } from './bn254'
import {
  EncodingError,
  formatG2,
  formatGt,
  formatScalar,
  G2_BYTES,
  g2BytesBatch,
  parseG2,
  parseGt,
  parseScalar,
} from './encoding'
import { randomScalar, readRevocationPublicKey } from './keys'
import type { RevocationRegistryDefinition, RevocationRegistryDefinitionPrivate, RevocationStatusList } from './types'

/** anoncreds-rs' tails file version tag. */
const TAILS_VERSION = Uint8Array.of(0, 2)
/** The largest registry anoncreds-rs' u32 indices and our memory allow (a 2^20 registry has a 256 MiB tails file). */
export const MAX_CRED_NUM = 1 << 20

/** Turns a reader's EncodingError/TypeError into the library's `malformed` error. */
export function readingRevocation<T>(path: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof EncodingError || error instanceof TypeError) {
      throw new AnonCredsError('malformed', error.message, path, { cause: error })
    }
    throw error
  }
}

function object(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(path, 'must be an object')
  return value as Record<string, unknown>
}

function nonEmpty(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) throw malformed(path, 'must be a non-empty string')
  return value
}

function count(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CRED_NUM)
    throw malformed(path, `must be an integer from 1 to ${MAX_CRED_NUM}`)
  return value
}

/** gamma^k mod r. */
function gammaPow(gamma: bigint, k: number): bigint {
  return Fr.pow(gamma, BigInt(k))
}

/**
 * The tails file: version tag, then 2L+1 G2 points, tail k = g'^(gamma^k) for k = 1..2L except k = L+1 (the secret
 * one), which like tail 0 is g' itself (clsignatures' RevocationTailsGenerator). Fixed-base multiplication with a
 * precomputed window table, one field inversion per batch for the affine coordinates.
 */
export function buildTailsFile(gDash: G2Point, gamma: bigint, maxCredNum: number): Uint8Array {
  const size = 2 * maxCredNum + 1
  const file = new Uint8Array(TAILS_VERSION.length + size * G2_BYTES)
  file.set(TAILS_VERSION, 0)
  const base = G2.fromAffine(gDash.toAffine())
  base.precompute(8)
  const batch = 256
  let power = 1n
  for (let start = 0; start < size; start += batch) {
    const points: G2Point[] = []
    for (let k = start; k < Math.min(size, start + batch); k++) {
      if (k > 0) power = (power * gamma) % R
      points.push(k === 0 || k === maxCredNum + 1 ? base : base.multiply(power))
    }
    g2BytesBatch(points, file, TAILS_VERSION.length + start * G2_BYTES)
  }
  return file
}

/** base58(SHA-256(tails file)), the definition's `tailsHash`. */
export function tailsHash(file: Uint8Array): string {
  return encodeBase58(createHash('sha256').update(file).digest())
}

export interface CreateRevocationRegistryDefinitionOptions {
  credentialDefinition: unknown
  credentialDefinitionId: string
  issuerId: string
  tag: string
  revocationRegistryType?: 'CL_ACCUM'
  maximumCredentialNumber: number
  /** Where the tails file will be served; the platform stores the file under its hash. */
  tailsLocation: string
}

export interface CreateRevocationRegistryDefinitionResult {
  revocationRegistryDefinition: RevocationRegistryDefinition
  revocationRegistryDefinitionPrivate: RevocationRegistryDefinitionPrivate
  tailsFile: Uint8Array
}

function revocationKeyOf(credentialDefinition: unknown) {
  const value = object(object(credentialDefinition, 'credentialDefinition').value, 'credentialDefinition.value')
  if (value.revocation === undefined || value.revocation === null) {
    throw new AnonCredsError('invalid', 'the credential definition does not support revocation', 'credentialDefinition')
  }
  return readingRevocation('credentialDefinition.value.revocation', () =>
    readRevocationPublicKey(value.revocation, 'credentialDefinition.value.revocation'),
  )
}

/** anoncreds-rs create_revocation_registry_def, the tails file returned rather than written to a directory. */
export function createRevocationRegistryDefinition(
  options: CreateRevocationRegistryDefinitionOptions,
): CreateRevocationRegistryDefinitionResult {
  const key = revocationKeyOf(options.credentialDefinition)
  if ((options.revocationRegistryType ?? 'CL_ACCUM') !== 'CL_ACCUM') {
    throw malformed('revocationRegistryType', 'must be "CL_ACCUM"')
  }
  const maxCredNum = count(options.maximumCredentialNumber, 'maximumCredentialNumber')
  const gamma = randomScalar()
  const z = pairing(g1Mul(key.g, gammaPow(gamma, maxCredNum + 1)), key.gDash)
  const tailsFile = buildTailsFile(key.gDash, gamma, maxCredNum)
  return {
    revocationRegistryDefinition: {
      issuerId: nonEmpty(options.issuerId, 'issuerId'),
      revocDefType: 'CL_ACCUM',
      tag: nonEmpty(options.tag, 'tag'),
      credDefId: nonEmpty(options.credentialDefinitionId, 'credentialDefinitionId'),
      value: {
        maxCredNum,
        publicKeys: { accumKey: { z: formatGt(z) } },
        tailsHash: tailsHash(tailsFile),
        tailsLocation: nonEmpty(options.tailsLocation, 'tailsLocation'),
      },
    },
    revocationRegistryDefinitionPrivate: { value: { gamma: formatScalar(gamma) } },
    tailsFile,
  }
}

export interface ParsedRevocationRegistryDefinition {
  issuerId: string
  credDefId: string
  tag: string
  maxCredNum: number
  accumulatorKey: Gt
  tailsHash: string
  tailsLocation: string
}

const definitions = new WeakMap<object, ParsedRevocationRegistryDefinition>()

/** Reads a revocation registry definition (anoncreds-rs shape); throws AnonCredsError('malformed'). */
export function revocationRegistryDefinitionOf(value: unknown, path: string): ParsedRevocationRegistryDefinition {
  const json = object(value, path)
  const cached = definitions.get(json)
  if (cached) return cached
  if (json.revocDefType !== 'CL_ACCUM') throw malformed(`${path}.revocDefType`, 'must be "CL_ACCUM"')
  const v = object(json.value, `${path}.value`)
  const accumKey = object(
    object(v.publicKeys, `${path}.value.publicKeys`).accumKey,
    `${path}.value.publicKeys.accumKey`,
  )
  const parsed: ParsedRevocationRegistryDefinition = {
    issuerId: nonEmpty(json.issuerId, `${path}.issuerId`),
    credDefId: nonEmpty(json.credDefId, `${path}.credDefId`),
    tag: nonEmpty(json.tag, `${path}.tag`),
    maxCredNum: count(v.maxCredNum, `${path}.value.maxCredNum`),
    accumulatorKey: readingRevocation(`${path}.value.publicKeys.accumKey.z`, () =>
      parseGt(accumKey.z, `${path}.value.publicKeys.accumKey.z`),
    ),
    tailsHash: nonEmpty(v.tailsHash, `${path}.value.tailsHash`),
    tailsLocation: nonEmpty(v.tailsLocation, `${path}.value.tailsLocation`),
  }
  definitions.set(json, parsed)
  return parsed
}

export function readRevocationRegistryDefinition(value: unknown): RevocationRegistryDefinition {
  revocationRegistryDefinitionOf(value, 'revocationRegistryDefinition')
  return value as RevocationRegistryDefinition
}

function gammaOf(value: unknown, path: string): bigint {
  const json = object(object(value, path).value, `${path}.value`)
  return readingRevocation(`${path}.value.gamma`, () => parseScalar(json.gamma, `${path}.value.gamma`))
}

export interface ParsedStatusList {
  revRegDefId: string | null
  issuerId: string
  revoked: boolean[]
  accumulator: G2Point | null
  timestamp: number | null
}

const statusLists = new WeakMap<object, ParsedStatusList>()

export function statusListOf(value: unknown, path: string): ParsedStatusList {
  const json = object(value, path)
  const cached = statusLists.get(json)
  if (cached) return cached
  if (!Array.isArray(json.revocationList)) throw malformed(`${path}.revocationList`, 'must be an array of 0 and 1')
  const revoked = json.revocationList.map((bit, i) => {
    if (bit !== 0 && bit !== 1) throw malformed(`${path}.revocationList[${i}]`, 'must be 0 or 1')
    return bit === 1
  })
  // anoncreds-rs reads `accum` as an alias of currentAccumulator.
  const accumulatorText = json.currentAccumulator ?? json.accum
  const timestamp = json.timestamp
  if (
    timestamp !== undefined &&
    timestamp !== null &&
    (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0)
  )
    throw malformed(`${path}.timestamp`, 'must be a non-negative integer')
  const parsed: ParsedStatusList = {
    revRegDefId:
      json.revRegDefId === undefined || json.revRegDefId === null
        ? null
        : nonEmpty(json.revRegDefId, `${path}.revRegDefId`),
    issuerId: nonEmpty(json.issuerId, `${path}.issuerId`),
    revoked,
    accumulator:
      accumulatorText === undefined || accumulatorText === null
        ? null
        : readingRevocation(`${path}.currentAccumulator`, () =>
            parseG2(accumulatorText, `${path}.currentAccumulator`, { allowInfinity: true }),
          ),
    timestamp: timestamp === undefined || timestamp === null ? null : (timestamp as number),
  }
  statusLists.set(json, parsed)
  return parsed
}

export function readRevocationStatusList(value: unknown): RevocationStatusList {
  statusListOf(value, 'revocationStatusList')
  return value as RevocationStatusList
}

function statusListJson(
  revRegDefId: string | null,
  issuerId: string,
  revoked: readonly boolean[],
  accumulator: G2Point,
  timestamp: number | null,
): RevocationStatusList {
  const list: RevocationStatusList = {
    ...(revRegDefId === null ? {} : { revRegDefId }),
    issuerId,
    revocationList: revoked.map((bit) => (bit ? 1 : 0)),
    currentAccumulator: formatG2(accumulator),
  }
  if (timestamp !== null) list.timestamp = timestamp
  return list
}

/** The accumulator exponent of index i: gamma^(L+1-i). */
function tailExponent(gamma: bigint, maxCredNum: number, index: number): bigint {
  return gammaPow(gamma, maxCredNum + 1 - index)
}

export interface CreateRevocationStatusListOptions {
  credentialDefinition: unknown
  revocationRegistryDefinitionId: string
  revocationRegistryDefinition: unknown
  revocationRegistryDefinitionPrivate: unknown
  /** True (anoncreds-rs' default): every index starts issued, so issuing needs no accumulator update. */
  issuanceByDefault?: boolean
  timestamp?: number
}

/** anoncreds-rs create_revocation_status_list. */
export function createRevocationStatusList(options: CreateRevocationStatusListOptions): RevocationStatusList {
  const key = revocationKeyOf(options.credentialDefinition)
  const definition = revocationRegistryDefinitionOf(
    options.revocationRegistryDefinition,
    'revocationRegistryDefinition',
  )
  const gamma = gammaOf(options.revocationRegistryDefinitionPrivate, 'revocationRegistryDefinitionPrivate')
  const byDefault = options.issuanceByDefault ?? true
  const L = definition.maxCredNum
  let accumulator = G2.ZERO
  if (byDefault) {
    // sum over i = 1..L of gamma^(L+1-i) = sum over k = 1..L of gamma^k
    let power = 1n
    let sum = 0n
    for (let k = 1; k <= L; k++) {
      power = (power * gamma) % R
      sum = (sum + power) % R
    }
    accumulator = sum === 0n ? G2.ZERO : key.gDash.multiply(sum)
  }
  return statusListJson(
    nonEmpty(options.revocationRegistryDefinitionId, 'revocationRegistryDefinitionId'),
    definition.issuerId,
    new Array<boolean>(L).fill(!byDefault),
    accumulator,
    options.timestamp === undefined ? null : options.timestamp,
  )
}

export interface UpdateRevocationStatusListOptions {
  credentialDefinition: unknown
  revocationRegistryDefinition: unknown
  revocationRegistryDefinitionPrivate: unknown
  revocationStatusList: unknown
  /** 1-based indices to mark issued (un-revoke). */
  issued?: readonly number[]
  /** 1-based indices to revoke. */
  revoked?: readonly number[]
  timestamp?: number
}

/**
 * anoncreds-rs update_revocation_status_list: indices already in the wanted state are ignored; the accumulator
 * moves by g'^(sum of the changed exponents) in one G2 multiplication.
 */
export function updateRevocationStatusList(options: UpdateRevocationStatusListOptions): RevocationStatusList {
  const key = revocationKeyOf(options.credentialDefinition)
  const definition = revocationRegistryDefinitionOf(
    options.revocationRegistryDefinition,
    'revocationRegistryDefinition',
  )
  const gamma = gammaOf(options.revocationRegistryDefinitionPrivate, 'revocationRegistryDefinitionPrivate')
  const current = statusListOf(options.revocationStatusList, 'revocationStatusList')
  if (current.accumulator === null)
    throw new AnonCredsError('invalid', 'the status list has no accumulator to update', 'revocationStatusList')
  const L = definition.maxCredNum
  if (current.revoked.length !== L)
    throw new AnonCredsError('invalid', 'the status list does not have maxCredNum entries', 'revocationStatusList')
  const revoked = [...current.revoked]
  let delta = 0n
  const indices = (list: readonly number[] | undefined, path: string) =>
    (list ?? []).map((i, k) => {
      if (!Number.isInteger(i) || i < 1 || i > L) throw malformed(`${path}[${k}]`, `must be an index from 1 to ${L}`)
      return i
    })
  for (const i of new Set(indices(options.issued, 'issued'))) {
    if (!revoked[i - 1]) continue
    revoked[i - 1] = false
    delta = (delta + tailExponent(gamma, L, i)) % R
  }
  for (const i of new Set(indices(options.revoked, 'revoked'))) {
    if (revoked[i - 1]) continue
    revoked[i - 1] = true
    delta = (delta - tailExponent(gamma, L, i) + R) % R
  }
  const accumulator = delta === 0n ? current.accumulator : current.accumulator.add(key.gDash.multiply(delta))
  return statusListJson(
    current.revRegDefId,
    current.issuerId,
    revoked,
    accumulator,
    options.timestamp ?? current.timestamp,
  )
}

/** anoncreds-rs update_revocation_status_list_timestamp_only. */
export function updateRevocationStatusListTimestampOnly(timestamp: number, list: unknown): RevocationStatusList {
  const current = statusListOf(list, 'revocationStatusList')
  if (current.accumulator === null)
    throw new AnonCredsError('invalid', 'the status list has no accumulator', 'revocationStatusList')
  return statusListJson(current.revRegDefId, current.issuerId, current.revoked, current.accumulator, timestamp)
}

// Re-exported for the issuance and holder modules.
export { gammaOf, revocationKeyOf, tailExponent }
