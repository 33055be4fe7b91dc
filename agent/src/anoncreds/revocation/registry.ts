/**
 * Revocation registries (CL_ACCUM, the CKS accumulator) as anoncreds-rs makes them: the definition with its public
 * accumulator key z = e(g, g')^(gamma^(L+1)), the private gamma, the tails file, and the revocation status list with
 * its accumulator. The credential's index i (`r_credential.i`) is bit i of `revocationList`, as anoncreds-rs has it:
 * the list has L = maxCredNum entries, bit 0 is no credential (clsignatures refuses index 0) and index L has no bit,
 * so a registry of L holds the indices 1 to L-1. The accumulator holds g'^(gamma^(L+1-i)) for every issued i.
 */
import { AnonCredsError, malformed } from '../errors'
import { Fr, G2, pairing, R, type G2Point, type Gt } from './bn254'
import { EncodingError, formatG2, formatGt, formatScalar, parseG2, parseGt, parseScalar } from './encoding'
import { randomScalar, readRevocationPublicKey } from './keys'
import { g1Mul, g2Mul } from './multiply'
import { buildTailsFile, buildTailsFileInWorkers, TailsReader, tailsHash } from './tails'
import type { RevocationRegistryDefinition, RevocationRegistryDefinitionPrivate, RevocationStatusList } from './types'

/** The lowest credential index (clsignatures refuses 0). */
export const FIRST_REVOCATION_INDEX = 1

/** The highest index a registry of maxCredNum can issue and revoke: its status list has bits 0..maxCredNum-1. */
export function lastRevocationIndex(maxCredNum: number): number {
  return maxCredNum - 1
}

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

export interface CreateRevocationRegistryDefinitionOptions {
  credentialDefinition: unknown
  credentialDefinitionId: string
  issuerId: string
  tag: string
  revocationRegistryType?: 'CL_ACCUM'
  maximumCredentialNumber: number
  /** Where the tails file will be served; the platform stores the file under its hash. */
  tailsLocation: string
  /**
   * Worker threads that compute the tails file (default: one per core, at most 4); 0 computes it in the calling
   * thread, which then blocks for the whole computation (about 0.35 ms of CPU per credential: docs/benchmarks.md).
   */
  tailsThreads?: number
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

/**
 * anoncreds-rs create_revocation_registry_def, the tails file returned rather than written to a directory. A registry
 * of maxCredNum L holds the credential indices 1 to L-1 (see the top of this file).
 */
export async function createRevocationRegistryDefinition(
  options: CreateRevocationRegistryDefinitionOptions,
): Promise<CreateRevocationRegistryDefinitionResult> {
  const key = revocationKeyOf(options.credentialDefinition)
  if ((options.revocationRegistryType ?? 'CL_ACCUM') !== 'CL_ACCUM') {
    throw malformed('revocationRegistryType', 'must be "CL_ACCUM"')
  }
  const maxCredNum = count(options.maximumCredentialNumber, 'maximumCredentialNumber')
  const threads = options.tailsThreads
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 0 || threads > 64))
    throw malformed('tailsThreads', 'must be an integer from 0 to 64')
  const issuerId = nonEmpty(options.issuerId, 'issuerId')
  const tag = nonEmpty(options.tag, 'tag')
  const credDefId = nonEmpty(options.credentialDefinitionId, 'credentialDefinitionId')
  const tailsLocation = nonEmpty(options.tailsLocation, 'tailsLocation')
  const gamma = randomScalar()
  const z = pairing(g1Mul(key.g, gammaPow(gamma, maxCredNum + 1)), key.gDash)
  const tailsFile =
    threads === 0
      ? buildTailsFile(key.gDash, gamma, maxCredNum)
      : await buildTailsFileInWorkers(key.gDash, gamma, maxCredNum, threads)
  return {
    revocationRegistryDefinition: {
      issuerId,
      revocDefType: 'CL_ACCUM',
      tag,
      credDefId,
      value: {
        maxCredNum,
        publicKeys: { accumKey: { z: formatGt(z) } },
        tailsHash: tailsHash(tailsFile),
        tailsLocation,
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

/**
 * Checks a downloaded tails file against its registry definition (size, version and `tailsHash`): AnonCredsError
 * `invalid` when it is another file or was altered, `malformed` when it is not bytes.
 */
export function checkTailsFile(tailsFile: unknown, revocationRegistryDefinition: unknown): TailsReader {
  const definition = revocationRegistryDefinitionOf(revocationRegistryDefinition, 'revocationRegistryDefinition')
  if (!(tailsFile instanceof Uint8Array)) throw malformed('tailsFile', 'must be bytes (a Uint8Array)')
  try {
    return new TailsReader(tailsFile, definition.maxCredNum, definition.tailsHash)
  } catch (error) {
    throw new AnonCredsError('invalid', (error as Error).message, 'tailsFile', { cause: error })
  }
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
    accumulator = g2Mul(key.gDash, sum)
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
  /** Indices (1 to maxCredNum-1) to mark issued (un-revoke, or issue on demand). */
  issued?: readonly number[]
  /** Indices (1 to maxCredNum-1) to revoke. */
  revoked?: readonly number[]
  timestamp?: number
}

/**
 * anoncreds-rs update_revocation_status_list: indices already in the wanted state are ignored; the accumulator
 * moves by g'^(sum of the changed exponents) in one G2 multiplication. Index 0 is refused (anoncreds-rs would move
 * the accumulator by the registry's secret power gamma^(L+1) for it).
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
      if (!Number.isInteger(i) || i < FIRST_REVOCATION_INDEX || i > lastRevocationIndex(L))
        throw malformed(`${path}[${k}]`, `must be an index from ${FIRST_REVOCATION_INDEX} to ${lastRevocationIndex(L)}`)
      return i
    })
  const issued = new Set(indices(options.issued, 'issued'))
  const revokedNow = new Set(indices(options.revoked, 'revoked'))
  for (const i of issued) if (revokedNow.has(i)) throw malformed('revoked', `index ${i} is also in issued`)
  for (const i of issued) {
    if (!revoked[i]) continue
    revoked[i] = false
    delta = (delta + tailExponent(gamma, L, i)) % R
  }
  for (const i of revokedNow) {
    if (revoked[i]) continue
    revoked[i] = true
    delta = (delta - tailExponent(gamma, L, i) + R) % R
  }
  const accumulator = delta === 0n ? current.accumulator : current.accumulator.add(g2Mul(key.gDash, delta))
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
