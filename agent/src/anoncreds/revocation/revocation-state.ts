/**
 * The holder's revocation state for one credential at one status list (anoncreds-rs
 * create_or_update_revocation_state): the list's accumulator, its timestamp and the witness omega of the credential's
 * index i, the sum of the tails g'^(gamma^(L+1-j+i)) over the other accumulated indices j. From scratch every index
 * 1..L whose bit is not set counts (clsignatures' Witness::new with issuance by default, the only mode anoncreds-rs
 * uses here); from a previous state only the bits that changed between the two lists move the witness.
 */
import { AnonCredsError, malformed } from '../errors'
import { G2, type G2Point } from './bn254'
import { formatG2, parseG2 } from './encoding'
import { g2SumAffine, type AffineG2 } from './multiply'
import {
  checkTailsFile,
  readingRevocation,
  revocationRegistryDefinitionOf,
  statusListOf,
  type ParsedStatusList,
} from './registry'
import type { CredentialRevocationState } from './types'

export interface CreateOrUpdateRevocationStateOptions {
  revocationRegistryDefinition: unknown
  /** The status list to prove against; it must have its accumulator and timestamp. */
  revocationStatusList: unknown
  /** The credential's index (`r_credential.i`). */
  revocationRegistryIndex: number
  /** The registry's tails file; checked against the definition's tailsHash. */
  tailsFile: Uint8Array
  /** A state computed earlier, with the status list it was computed for: only the changes are applied. */
  oldRevocationState?: unknown
  oldRevocationStatusList?: unknown
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null
}

function usable(list: ParsedStatusList, maxCredNum: number, path: string): { accumulator: G2Point; timestamp: number } {
  if (list.accumulator === null) throw new AnonCredsError('invalid', 'the status list has no accumulator', path)
  if (list.timestamp === null) throw new AnonCredsError('invalid', 'the status list has no timestamp', path)
  if (list.revoked.length !== maxCredNum)
    throw new AnonCredsError('invalid', 'the status list does not have maxCredNum entries', `${path}.revocationList`)
  return { accumulator: list.accumulator, timestamp: list.timestamp }
}

/** Reads a CredentialRevocationState (anoncreds-rs JSON: witness.omega, rev_reg.accum, timestamp). */
export function readRevocationState(
  value: unknown,
  path: string,
): { witness: G2Point; accumulator: G2Point; timestamp: number } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(path, 'must be an object')
  const json = value as Record<string, unknown>
  const point = (field: string, name: string) => {
    const holder = json[field]
    if (typeof holder !== 'object' || holder === null) throw malformed(`${path}.${field}`, 'must be an object')
    const at = `${path}.${field}.${name}`
    return readingRevocation(at, () => parseG2((holder as Record<string, unknown>)[name], at, { allowInfinity: true }))
  }
  const timestamp = json.timestamp
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0)
    throw malformed(`${path}.timestamp`, 'must be a non-negative integer')
  return { witness: point('witness', 'omega'), accumulator: point('rev_reg', 'accum'), timestamp }
}

/** anoncreds-rs create_or_update_revocation_state, the tails file given as bytes. */
export function createOrUpdateRevocationState(
  options: CreateOrUpdateRevocationStateOptions,
): CredentialRevocationState {
  const definition = revocationRegistryDefinitionOf(
    options.revocationRegistryDefinition,
    'revocationRegistryDefinition',
  )
  const L = definition.maxCredNum
  const list = statusListOf(options.revocationStatusList, 'revocationStatusList')
  const { accumulator, timestamp } = usable(list, L, 'revocationStatusList')
  const i = options.revocationRegistryIndex
  if (typeof i !== 'number' || !Number.isInteger(i) || i < 1 || i > L)
    throw malformed('revocationRegistryIndex', `must be an index from 1 to ${L}`)
  const tails = checkTailsFile(options.tailsFile, options.revocationRegistryDefinition)
  const hasOldState = !isAbsent(options.oldRevocationState)
  if (hasOldState !== !isAbsent(options.oldRevocationStatusList))
    throw malformed('oldRevocationState', 'comes with oldRevocationStatusList')
  // Tail L+1-j+i accumulates index j into i's witness.
  const tailFor = (j: number) => tails.tail(L + 1 - j + i)
  let witness: G2Point
  if (hasOldState) {
    const old = readRevocationState(options.oldRevocationState, 'oldRevocationState')
    const oldList = statusListOf(options.oldRevocationStatusList, 'oldRevocationStatusList')
    usable(oldList, L, 'oldRevocationStatusList')
    const added: AffineG2[] = []
    const removed: AffineG2[] = []
    readingRevocation('tailsFile', () => {
      // Bit 0 is no credential (the from-scratch sum ignores it too).
      for (let j = 1; j < L; j++) {
        if (j === i || list.revoked[j] === oldList.revoked[j]) continue
        ;(list.revoked[j] ? removed : added).push(tailFor(j))
      }
    })
    witness = g2SumAffine(old.witness, added, removed)
  } else {
    const issued: AffineG2[] = []
    readingRevocation('tailsFile', () => {
      // Index L has no bit: it stays accumulated (issuance by default).
      for (let j = 1; j <= L; j++) if (j !== i && !(j < L && list.revoked[j])) issued.push(tailFor(j))
    })
    witness = g2SumAffine(G2.ZERO, issued)
  }
  return { witness: { omega: formatG2(witness) }, rev_reg: { accum: formatG2(accumulator) }, timestamp }
}
