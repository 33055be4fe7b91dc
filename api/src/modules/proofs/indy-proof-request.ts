import { InvalidInputError, type FieldError } from '@idplane/common'
import { credDefIdForms, schemaIdForms, type LedgerIdForms } from '@idplane/common/ledger-ids'
import type {
  AnonCredsNonRevokedInterval,
  AnonCredsProofRequestInput,
  AnonCredsRestriction,
} from '@idplane/common/agent-contract/admin-api'
import {
  PREDICATE_CONDITIONS,
  type IndyOobProofDto,
  type IndyProofAttributeDto,
  type PredicateCondition,
} from './dto/request-proof.dto'

/** The name and version of requests built from `proofFormats.indy.attributes` (the spec gives none there). */
export const DEFAULT_PROOF_REQUEST_NAME = 'Proof request'
export const DEFAULT_PROOF_REQUEST_VERSION = '1.0'

/** AnonCreds predicates compare signed 32-bit integers. */
const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

/** Restriction keys AnonCreds knows, besides `attr::<name>::value` and `attr::<name>::marker`. */
const RESTRICTION_KEYS = new Set([
  'schema_id',
  'schema_issuer_did',
  'schema_issuer_id',
  'schema_name',
  'schema_version',
  'issuer_did',
  'issuer_id',
  'cred_def_id',
  'rev_reg_id',
])
const ATTRIBUTE_RESTRICTION = /^attr::[^:]+::(value|marker)$/
const MAX_REFERENTS = 125
const MAX_REFERENT_LENGTH = 100

/**
 * The AnonCreds proof request of the connection routes' `proofFormats.indy.attributes` (spec: Verification): an
 * element with `condition` and `value` is a predicate over `attributeName`; one with `attributeNames` a group
 * revealed from one credential; otherwise one revealed attribute. `schemaId` and `credDefId` become one restriction
 * (both must hold).
 * @throws InvalidInputError naming each element at fault
 */
export function indyRequestFromAttributes(
  attributes: readonly IndyProofAttributeDto[],
  nonRevokedInput?: unknown,
): AnonCredsProofRequestInput {
  const problems: FieldError[] = []
  const nonRevoked = nonRevokedOf('proofFormats.indy.non_revoked', nonRevokedInput, problems)
  const requestedAttributes: NonNullable<AnonCredsProofRequestInput['requested_attributes']> = {}
  const requestedPredicates: NonNullable<AnonCredsProofRequestInput['requested_predicates']> = {}
  attributes.forEach((attribute, index) => {
    const field = `proofFormats.indy.attributes[${index}]`
    const hasName = attribute.attributeName !== undefined
    const hasNames = attribute.attributeNames !== undefined
    if (hasName && hasNames)
      problems.push({ field, message: 'attributeName and attributeNames are mutually exclusive; give one' })
    else if (!hasName && !hasNames) problems.push({ field, message: 'needs attributeName or attributeNames' })
    const hasCondition = attribute.condition !== undefined
    const hasValue = attribute.value !== undefined
    if (hasCondition && !hasValue)
      problems.push({ field: `${field}.value`, message: 'is required with condition (a whole number as a string)' })
    if (hasValue && !hasCondition)
      problems.push({
        field: `${field}.condition`,
        message: `is required with value (${PREDICATE_CONDITIONS.join(', ')})`,
      })
    if (hasCondition && hasNames)
      problems.push({
        field: `${field}.attributeNames`,
        message: 'a predicate is over one attribute: use attributeName',
      })
    const value = hasValue ? Number(attribute.value) : undefined
    if (value !== undefined && (value < INT32_MIN || value > INT32_MAX))
      problems.push({ field: `${field}.value`, message: `must be between ${INT32_MIN} and ${INT32_MAX}` })
    if (problems.length > 0) return
    const restriction: AnonCredsRestriction = {}
    if (attribute.schemaId) restriction.schema_id = attribute.schemaId
    if (attribute.credDefId) restriction.cred_def_id = attribute.credDefId
    const restrictions = Object.keys(restriction).length > 0 ? [restriction] : undefined
    if (attribute.condition !== undefined && value !== undefined && attribute.attributeName) {
      requestedPredicates[`predicate_${index}`] = {
        name: attribute.attributeName,
        p_type: attribute.condition,
        p_value: value,
        ...(restrictions ? { restrictions } : {}),
      }
    } else if (attribute.attributeNames) {
      requestedAttributes[`attribute_group_${index}`] = {
        names: attribute.attributeNames,
        ...(restrictions ? { restrictions } : {}),
      }
    } else {
      requestedAttributes[`attribute_${index}`] = {
        name: attribute.attributeName,
        ...(restrictions ? { restrictions } : {}),
      }
    }
  })
  if (problems.length > 0) throw new InvalidInputError('Invalid proofFormats.indy.attributes', problems)
  return {
    name: DEFAULT_PROOF_REQUEST_NAME,
    version: DEFAULT_PROOF_REQUEST_VERSION,
    requested_attributes: requestedAttributes,
    requested_predicates: requestedPredicates,
    ...(nonRevoked ? { non_revoked: nonRevoked } : {}),
  }
}

/**
 * The out-of-band route's `proofFormats.indy`, checked entry by entry so that a malformed request is a 400 naming
 * the entry here rather than an exchange the holder cannot answer.
 * @throws InvalidInputError naming each entry at fault
 */
export function indyRequestFromJson(input: IndyOobProofDto): AnonCredsProofRequestInput {
  const problems: FieldError[] = []
  const base = 'proofFormats.indy'
  const nonRevoked = nonRevokedOf(`${base}.non_revoked`, input.non_revoked, problems)
  const attributes = input.requested_attributes ?? {}
  const predicates = input.requested_predicates ?? {}
  const count = Object.keys(attributes).length + Object.keys(predicates).length
  if (count === 0)
    problems.push({ field: base, message: 'needs at least one entry in requested_attributes or requested_predicates' })
  if (count > MAX_REFERENTS) problems.push({ field: base, message: `holds at most ${MAX_REFERENTS} entries` })
  const requestedAttributes: NonNullable<AnonCredsProofRequestInput['requested_attributes']> = {}
  for (const [referent, entry] of Object.entries(attributes)) {
    const field = `${base}.requested_attributes.${referent}`
    const checked = checkEntry(field, referent, entry, ['name', 'names', 'restrictions', 'non_revoked'], problems)
    if (!checked) continue
    const { name, names } = checked
    const validName = typeof name === 'string' && name.length > 0 && name.length <= 256
    const validNames =
      Array.isArray(names) &&
      names.length > 0 &&
      names.length <= MAX_REFERENTS &&
      names.every((item) => typeof item === 'string' && item.length > 0 && item.length <= 256)
    if (name !== undefined && names !== undefined)
      problems.push({ field, message: 'name and names are mutually exclusive; give one' })
    else if (name === undefined && names === undefined) problems.push({ field, message: 'needs name or names' })
    else if (name !== undefined && !validName)
      problems.push({ field: `${field}.name`, message: 'must be a non-empty string' })
    else if (names !== undefined && !validNames)
      problems.push({ field: `${field}.names`, message: 'must be a non-empty array of non-empty strings' })
    const restrictions = restrictionsOf(`${field}.restrictions`, checked.restrictions, problems)
    const entryInterval = nonRevokedOf(`${field}.non_revoked`, checked.non_revoked, problems)
    requestedAttributes[referent] = {
      ...(validName ? { name: name as string } : {}),
      ...(validNames ? { names: names as string[] } : {}),
      ...(restrictions ? { restrictions } : {}),
      ...(entryInterval ? { non_revoked: entryInterval } : {}),
    }
  }
  const requestedPredicates: NonNullable<AnonCredsProofRequestInput['requested_predicates']> = {}
  for (const [referent, entry] of Object.entries(predicates)) {
    const field = `${base}.requested_predicates.${referent}`
    const checked = checkEntry(
      field,
      referent,
      entry,
      ['name', 'p_type', 'p_value', 'restrictions', 'non_revoked'],
      problems,
    )
    if (!checked) continue
    const { name, p_type: type, p_value: value } = checked
    if (typeof name !== 'string' || name.length === 0 || name.length > 256)
      problems.push({ field: `${field}.name`, message: 'must be a non-empty string' })
    if (!PREDICATE_CONDITIONS.includes(type as PredicateCondition))
      problems.push({ field: `${field}.p_type`, message: `must be one of ${PREDICATE_CONDITIONS.join(', ')}` })
    if (typeof value !== 'number' || !Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX)
      problems.push({ field: `${field}.p_value`, message: 'must be a whole number (32-bit)' })
    const restrictions = restrictionsOf(`${field}.restrictions`, checked.restrictions, problems)
    const entryInterval = nonRevokedOf(`${field}.non_revoked`, checked.non_revoked, problems)
    requestedPredicates[referent] = {
      name: name as string,
      p_type: type as PredicateCondition,
      p_value: value as number,
      ...(restrictions ? { restrictions } : {}),
      ...(entryInterval ? { non_revoked: entryInterval } : {}),
    }
  }
  if (problems.length > 0) throw new InvalidInputError('Invalid proofFormats.indy', problems)
  return {
    name: input.name ?? DEFAULT_PROOF_REQUEST_NAME,
    version: input.version ?? DEFAULT_PROOF_REQUEST_VERSION,
    requested_attributes: requestedAttributes,
    requested_predicates: requestedPredicates,
    ...(nonRevoked ? { non_revoked: nonRevoked } : {}),
  }
}

/** Seconds since the epoch a `non_revoked` bound may take (unsigned 32 bits, as AnonCreds timestamps). */
const MAX_TIMESTAMP = 2 ** 32 - 1

/**
 * A `non_revoked` interval (issue 25): `{ to }` or `{ from, to }` in seconds since the epoch, `from` not after `to`
 * (Credo holders prove at `to`; Aries RFC 0441). Undefined when absent.
 */
export function nonRevokedOf(
  field: string,
  value: unknown,
  problems: FieldError[],
): AnonCredsNonRevokedInterval | undefined {
  if (value === undefined) return undefined
  const isTimestamp = (item: unknown): item is number =>
    typeof item === 'number' && Number.isInteger(item) && item >= 0 && item <= MAX_TIMESTAMP
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({ field, message: 'must be an object { from?, to } of seconds since the epoch' })
    return undefined
  }
  const { from, to, ...rest } = value as Record<string, unknown>
  if (Object.keys(rest).length > 0) {
    problems.push({ field, message: `unknown member ${Object.keys(rest).join(', ')}; allowed: from, to` })
    return undefined
  }
  if (!isTimestamp(to) || (from !== undefined && !isTimestamp(from))) {
    problems.push({ field, message: 'needs to (and optionally from): whole seconds since the epoch' })
    return undefined
  }
  if (from !== undefined && from > to) {
    problems.push({ field, message: 'from must not be after to' })
    return undefined
  }
  return from === undefined ? { to } : { from, to }
}

function checkEntry(
  field: string,
  referent: string,
  entry: unknown,
  allowed: readonly string[],
  problems: FieldError[],
): Record<string, unknown> | undefined {
  if (referent.length === 0 || referent.length > MAX_REFERENT_LENGTH) {
    problems.push({ field, message: `a referent has 1 to ${MAX_REFERENT_LENGTH} characters` })
    return undefined
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    problems.push({ field, message: 'must be an object' })
    return undefined
  }
  const unknown = Object.keys(entry).filter((key) => !allowed.includes(key))
  if (unknown.length > 0) {
    problems.push({ field, message: `unknown member ${unknown.join(', ')}; allowed: ${allowed.join(', ')}` })
    return undefined
  }
  return entry as Record<string, unknown>
}

function restrictionsOf(field: string, value: unknown, problems: FieldError[]): AnonCredsRestriction[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value) || value.length > 20) {
    problems.push({ field, message: 'must be an array of at most 20 restriction objects' })
    return undefined
  }
  const restrictions: AnonCredsRestriction[] = []
  value.forEach((restriction: unknown, index) => {
    const at = `${field}[${index}]`
    if (typeof restriction !== 'object' || restriction === null || Array.isArray(restriction)) {
      problems.push({ field: at, message: 'must be an object' })
      return
    }
    const entries = Object.entries(restriction)
    for (const [key, item] of entries) {
      if (!RESTRICTION_KEYS.has(key) && !ATTRIBUTE_RESTRICTION.test(key))
        problems.push({
          field: `${at}.${key}`,
          message: `is not an AnonCreds restriction (${[...RESTRICTION_KEYS].join(', ')}, attr::<name>::value|marker)`,
        })
      else if (typeof item !== 'string' || item.length === 0 || item.length > 500)
        problems.push({ field: `${at}.${key}`, message: 'must be a non-empty string' })
    }
    restrictions.push(Object.fromEntries(entries) as AnonCredsRestriction)
  })
  return restrictions
}

/**
 * Restrictions that name a schema or credential definition by an Indy id match it in both id forms (issue 22 item 1):
 * a holder's credential carries the form its issuer offered it with, so each restriction becomes one per combination
 * of forms (restrictions are alternatives). `namespace` (the platform ledger's) gives a legacy id its did:indy form.
 * v1 (the `indy` format) carries legacy ids only: there every Indy id becomes legacy. Other ids stay as given.
 */
export function withBothLedgerIdForms(
  request: AnonCredsProofRequestInput,
  namespace: string,
  protocolVersion: 'v1' | 'v2',
): AnonCredsProofRequestInput {
  const formsOf = (id: string | undefined, parse: (id: string, ns: string) => LedgerIdForms | undefined) => {
    const forms = id === undefined ? undefined : parse(id, namespace)
    if (!forms) return [id]
    return protocolVersion === 'v1' || !forms.didIndy ? [forms.legacy] : [forms.legacy, forms.didIndy]
  }
  const expand = (restrictions: AnonCredsRestriction[] | undefined) => {
    if (!restrictions) return undefined
    const expanded = new Map<string, AnonCredsRestriction>()
    for (const restriction of restrictions) {
      for (const schemaId of formsOf(restriction.schema_id, schemaIdForms)) {
        for (const credDefId of formsOf(restriction.cred_def_id, credDefIdForms)) {
          const next: AnonCredsRestriction = { ...restriction }
          if (schemaId !== undefined) next.schema_id = schemaId
          if (credDefId !== undefined) next.cred_def_id = credDefId
          expanded.set(JSON.stringify(next), next)
        }
      }
    }
    return [...expanded.values()]
  }
  const mapEntries = <T extends { restrictions?: AnonCredsRestriction[] }>(entries: Record<string, T> | undefined) =>
    entries &&
    Object.fromEntries(
      Object.entries(entries).map(([referent, entry]) => [
        referent,
        entry.restrictions ? { ...entry, restrictions: expand(entry.restrictions) } : entry,
      ]),
    )
  return {
    ...request,
    requested_attributes: mapEntries(request.requested_attributes),
    requested_predicates: mapEntries(request.requested_predicates),
  }
}
