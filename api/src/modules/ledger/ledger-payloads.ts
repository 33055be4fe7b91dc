import { InvalidInputError, type FieldError } from '@idplane/common'
import { decodeBase58 } from '@idplane/common/base58'
import {
  CRED_DEF_TAG_PATTERN,
  REV_REG_TAG_PATTERN,
  SCHEMA_NAME_PATTERN,
  SCHEMA_VERSION_PATTERN,
  parseCredDefId,
  parseRevRegId,
} from '@idplane/common/ledger-ids'

/**
 * The payload of each transaction type, checked field by field: a write the ledger keeps forever must be exactly
 * what readers (Credo's AnonCreds and DID resolvers) can use. Every problem is a FieldError under `payload.`.
 */

export const MAX_SCHEMA_ATTRIBUTES = 125
/** The attribute AnonCreds adds to every credential definition for the holder's link secret. */
export const LINK_SECRET_ATTRIBUTE = 'master_secret'
export const NYM_ROLES = ['TRUSTEE', 'STEWARD', 'ENDORSER', 'NETWORK_MONITOR'] as const
const DECIMAL = /^[0-9]{1,4096}$/
/** Members of `value.revocation` that are G1 points (3 coordinates in Milagro's text) and G2 points (6). */
export const REVOCATION_KEY_G1 = ['g', 'h', 'h0', 'h1', 'h2', 'htilde', 'pk'] as const
export const REVOCATION_KEY_G2 = ['g_dash', 'h_cap', 'u', 'y'] as const
/** The largest registry the agents make (agent/src/anoncreds/revocation MAX_CRED_NUM, anoncreds-rs' u32 limit). */
export const MAX_CRED_NUM = 1 << 20
const G2_COORDINATES = 6
const GT_COORDINATES = 12
/**
 * One coordinate of a pairing-group value in Milagro's text is `<excess> <hex>`: a small positive count, then at most
 * 70 hex digits (agent/src/anoncreds/revocation/encoding.ts).
 */
const EXCESS = /^[1-9][0-9]{0,9}$/
const HEX = /^[0-9a-fA-F]{1,70}$/
const MAX_STRING = 2048
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export interface SchemaPayload {
  name: string
  version: string
  attrNames: string[]
}

export interface CredDefPayload {
  schemaId: string
  type: 'CL'
  tag: string
  value: {
    primary: { n: string; s: string; r: Record<string, string>; rctxt: string; z: string }
    revocation?: unknown
  }
}

/** The public revocation key of a revocable credential definition (anoncreds-rs `value.revocation`). */
export type CredentialRevocationKey = Record<(typeof REVOCATION_KEY_G1 | typeof REVOCATION_KEY_G2)[number], string>

/** A revocation registry definition as anoncreds-rs has it, less `issuerId` (the author). */
export interface RevRegDefPayload {
  credDefId: string
  revocDefType: 'CL_ACCUM'
  tag: string
  value: {
    maxCredNum: number
    publicKeys: { accumKey: { z: string } }
    tailsHash: string
    tailsLocation: string
  }
}

/**
 * A revocation registry entry, Indy's delta form: the indices issued and revoked since the previous entry (before
 * the first: every index issued, anoncreds-rs' issuance by default), the accumulator after them and, from the
 * second entry on, the accumulator they move from, which must be the registry's current one.
 */
export interface RevRegEntryPayload {
  revRegDefId: string
  revocDefType: 'CL_ACCUM'
  value: { accum: string; prevAccum?: string; issued?: number[]; revoked?: number[] }
}

export interface AttribPayload {
  dest: string
  raw: { endpoint: { endpoint: string; routingKeys?: string[]; types?: string[] } }
}

export interface NymPayload {
  dest: string
  verkey: string
  role?: (typeof NYM_ROLES)[number]
  alias?: string
}

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

class Checker {
  public readonly errors: FieldError[] = []

  public fail(field: string, message: string): undefined {
    this.errors.push({ field, message })
    return undefined
  }

  public object(value: unknown, field: string, allowed: readonly string[]): Json | undefined {
    if (!isObject(value)) return this.fail(field, `${field} must be an object`)
    const extra = Object.keys(value).filter((key) => !allowed.includes(key))
    if (extra.length > 0) return this.fail(field, `${field} has unknown members: ${extra.slice(0, 5).join(', ')}`)
    return value
  }

  public string(value: unknown, field: string, pattern?: RegExp, hint?: string): string | undefined {
    if (typeof value !== 'string' || value.length === 0) return this.fail(field, `${field} must be a non-empty string`)
    // PostgreSQL's jsonb cannot hold NUL or a lone surrogate: refused here rather than failing the insert.
    if (value.length > MAX_STRING || value.includes('\u0000') || LONE_SURROGATE.test(value)) {
      return this.fail(field, `${field} must be at most ${MAX_STRING} characters of well-formed text without NUL`)
    }
    if (pattern && !pattern.test(value)) return this.fail(field, `${field} ${hint ?? 'is malformed'}`)
    return value
  }

  /** A pairing-group value in Milagro's text form of `coordinates` coordinates (its shape only). */
  public point(value: unknown, field: string, coordinates: number): string | undefined {
    const text = this.string(value, field)
    if (text === undefined) return undefined
    const parts = text.split(' ')
    const isWellFormed =
      parts.length === coordinates * 2 && parts.every((part, index) => (index % 2 === 0 ? EXCESS : HEX).test(part))
    return isWellFormed
      ? text
      : this.fail(field, `${field} must be ${coordinates} coordinates "<excess> <hex>" separated by single spaces`)
  }

  /** A list of distinct credential indices from 1 to MAX_CRED_NUM - 1 (the definition's bound is checked later). */
  public indices(value: unknown, field: string): number[] | undefined {
    if (value === undefined) return []
    const isIndex = (item: unknown) =>
      typeof item === 'number' && Number.isSafeInteger(item) && item >= 1 && item < MAX_CRED_NUM
    if (!Array.isArray(value) || value.length >= MAX_CRED_NUM || !value.every(isIndex)) {
      return this.fail(field, `${field} must be an array of credential indices (whole numbers from 1)`)
    }
    if (new Set(value).size !== value.length) return this.fail(field, `${field} must not repeat an index`)
    return value as number[]
  }

  /** The payload's top-level object; anything else is refused at once (nothing else can be checked). */
  public root(value: unknown, allowed: readonly string[]): Json {
    const body = this.object(value, 'payload', allowed)
    if (!body) this.throwIfAny()
    return body as Json
  }

  public throwIfAny(): void {
    if (this.errors.length > 0) throw new InvalidInputError('Invalid ledger transaction payload', this.errors)
  }
}

/** anoncreds-rs's attr_common_view: attribute names compare without spaces and case-insensitively. */
export function attributeCommonView(name: string): string {
  return name.replaceAll(' ', '').toLowerCase()
}

/** @throws InvalidInputError naming each bad field */
export function readSchemaPayload(payload: unknown): SchemaPayload {
  const check = new Checker()
  const body = check.root(payload, ['name', 'version', 'attrNames'])
  const name = check.string(body.name, 'payload.name', SCHEMA_NAME_PATTERN, 'must not contain ":" or "/"')
  const version = check.string(body.version, 'payload.version', SCHEMA_VERSION_PATTERN, 'must be dotted numbers')
  const attrNames = body.attrNames
  if (!Array.isArray(attrNames) || attrNames.length === 0 || attrNames.length > MAX_SCHEMA_ATTRIBUTES) {
    check.fail('payload.attrNames', `payload.attrNames must be an array of 1 to ${MAX_SCHEMA_ATTRIBUTES} names`)
  } else {
    attrNames.forEach((item, index) => check.string(item, `payload.attrNames[${index}]`))
    const views = attrNames.filter((item) => typeof item === 'string').map(attributeCommonView)
    if (new Set(views).size !== views.length) {
      check.fail('payload.attrNames', 'payload.attrNames must be unique (without spaces and case)')
    }
    if (views.includes(LINK_SECRET_ATTRIBUTE)) {
      check.fail('payload.attrNames', `payload.attrNames must not contain ${LINK_SECRET_ATTRIBUTE}`)
    }
  }
  check.throwIfAny()
  return { name: name as string, version: version as string, attrNames: attrNames as string[] }
}

/**
 * The cred-def's shape only; that `r` names exactly the schema's attributes is checked against the schema
 * (checkCredDefAgainstSchema) once it has been read from the ledger.
 * @throws InvalidInputError naming each bad field
 */
export function readCredDefPayload(payload: unknown): CredDefPayload {
  const check = new Checker()
  const body = check.root(payload, ['schemaId', 'type', 'tag', 'value'])
  const schemaId = check.string(body.schemaId, 'payload.schemaId')
  if (body.type !== 'CL') check.fail('payload.type', 'payload.type must be CL')
  const tag = check.string(body.tag, 'payload.tag', CRED_DEF_TAG_PATTERN, 'must not contain ":" or "/"')
  const value = check.object(body.value, 'payload.value', ['primary', 'revocation'])
  if (value) {
    if (value.revocation !== undefined && value.revocation !== null) {
      const revocation = check.object(value.revocation, 'payload.value.revocation', [
        ...REVOCATION_KEY_G1,
        ...REVOCATION_KEY_G2,
      ])
      if (revocation) {
        for (const key of REVOCATION_KEY_G1) check.point(revocation[key], `payload.value.revocation.${key}`, 3)
        for (const key of REVOCATION_KEY_G2) check.point(revocation[key], `payload.value.revocation.${key}`, 6)
      }
    }
    const primary = check.object(value.primary, 'payload.value.primary', ['n', 's', 'r', 'rctxt', 'z'])
    if (primary) {
      for (const key of ['n', 's', 'rctxt', 'z']) {
        check.string(primary[key], `payload.value.primary.${key}`, DECIMAL, 'must be a decimal integer string')
      }
      if (!isObject(primary.r) || Object.keys(primary.r).length === 0) {
        check.fail('payload.value.primary.r', 'payload.value.primary.r must be an object of decimal strings')
      } else {
        for (const [name, item] of Object.entries(primary.r)) {
          check.string(item, `payload.value.primary.r.${name}`, DECIMAL, 'must be a decimal integer string')
        }
      }
    }
  }
  check.throwIfAny()
  return { schemaId: schemaId as string, type: 'CL', tag: tag as string, value: body.value as CredDefPayload['value'] }
}

/** `r` must hold one key per schema attribute (common view) plus the link secret's, and nothing else. */
export function checkCredDefAgainstSchema(payload: CredDefPayload, attrNames: readonly string[]): void {
  const expected = new Set([...attrNames.map(attributeCommonView), LINK_SECRET_ATTRIBUTE])
  const actual = Object.keys(payload.value.primary.r)
  const missing = [...expected].filter((name) => !actual.includes(name))
  const extra = actual.filter((name) => !expected.has(name))
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 ? `missing ${missing.join(', ')}` : '',
      extra.length > 0 ? `not in the schema: ${extra.join(', ')}` : '',
    ].filter(Boolean)
    throw new InvalidInputError('Invalid ledger transaction payload', [
      {
        field: 'payload.value.primary.r',
        message: `payload.value.primary.r must name the schema's attributes and ${LINK_SECRET_ATTRIBUTE} (${parts.join('; ')})`,
      },
    ])
  }
}

/**
 * The definition's shape; that its credential definition is on the ledger, is its author's and supports revocation
 * is checked against the ledger (LedgerService).
 * @throws InvalidInputError naming each bad field
 */
export function readRevRegDefPayload(payload: unknown): RevRegDefPayload {
  const check = new Checker()
  const body = check.root(payload, ['credDefId', 'revocDefType', 'tag', 'value'])
  const credDefId = check.string(body.credDefId, 'payload.credDefId')
  const credDef = credDefId === undefined ? undefined : parseCredDefId(credDefId)
  if (credDefId !== undefined && (!credDef || credDef.namespace !== undefined)) {
    check.fail('payload.credDefId', 'payload.credDefId must be the legacy id of a credential definition')
  }
  if (body.revocDefType !== 'CL_ACCUM') check.fail('payload.revocDefType', 'payload.revocDefType must be CL_ACCUM')
  check.string(body.tag, 'payload.tag', REV_REG_TAG_PATTERN, 'must not contain ":" or "/"')
  const value = check.object(body.value, 'payload.value', ['maxCredNum', 'publicKeys', 'tailsHash', 'tailsLocation'])
  if (value) {
    const max = value.maxCredNum
    if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 2 || max > MAX_CRED_NUM) {
      check.fail(
        'payload.value.maxCredNum',
        `payload.value.maxCredNum must be a whole number from 2 to ${MAX_CRED_NUM}`,
      )
    }
    const keys = check.object(value.publicKeys, 'payload.value.publicKeys', ['accumKey'])
    const accumKey = keys && check.object(keys.accumKey, 'payload.value.publicKeys.accumKey', ['z'])
    if (accumKey) check.point(accumKey.z, 'payload.value.publicKeys.accumKey.z', GT_COORDINATES)
    const hash = check.string(value.tailsHash, 'payload.value.tailsHash')
    if (hash !== undefined && decodeBase58(hash)?.length !== 32) {
      check.fail('payload.value.tailsHash', 'payload.value.tailsHash must be base58 of a SHA-256 digest')
    }
    const location = check.string(value.tailsLocation, 'payload.value.tailsLocation')
    if (location !== undefined && !isHttpUrl(location)) {
      check.fail('payload.value.tailsLocation', 'payload.value.tailsLocation must be an http(s) URL')
    }
  }
  check.throwIfAny()
  return body as unknown as RevRegDefPayload
}

/**
 * The entry's shape: a legacy registry id, the accumulators, indices without repeats and never both issued and
 * revoked. The indices' bound (the definition's maxCredNum) and prevAccum (the registry's current accumulator) are
 * checked against the ledger (LedgerService).
 * @throws InvalidInputError naming each bad field
 */
export function readRevRegEntryPayload(payload: unknown): RevRegEntryPayload {
  const check = new Checker()
  const body = check.root(payload, ['revRegDefId', 'revocDefType', 'value'])
  const revRegDefId = check.string(body.revRegDefId, 'payload.revRegDefId')
  const ref = revRegDefId === undefined ? undefined : parseRevRegId(revRegDefId)
  if (revRegDefId !== undefined && (!ref || ref.namespace !== undefined)) {
    check.fail('payload.revRegDefId', 'payload.revRegDefId must be the legacy id of a revocation registry definition')
  }
  if (body.revocDefType !== 'CL_ACCUM') check.fail('payload.revocDefType', 'payload.revocDefType must be CL_ACCUM')
  const value = check.object(body.value, 'payload.value', ['accum', 'prevAccum', 'issued', 'revoked'])
  if (value) {
    check.point(value.accum, 'payload.value.accum', G2_COORDINATES)
    if (value.prevAccum !== undefined) check.point(value.prevAccum, 'payload.value.prevAccum', G2_COORDINATES)
    const issued = check.indices(value.issued, 'payload.value.issued')
    const revoked = check.indices(value.revoked, 'payload.value.revoked')
    if (issued && revoked) {
      const both = new Set(issued)
      const shared = revoked.filter((index) => both.has(index))
      if (shared.length > 0) {
        check.fail(
          'payload.value.revoked',
          `payload.value.revoked names indices also issued: ${shared.slice(0, 5).join(', ')}`,
        )
      }
    }
  }
  check.throwIfAny()
  return body as unknown as RevRegEntryPayload
}

/** @throws InvalidInputError naming each bad field */
export function readAttribPayload(payload: unknown): AttribPayload {
  const check = new Checker()
  const body = check.root(payload, ['dest', 'raw'])
  check.string(body.dest, 'payload.dest')
  const raw = check.object(body.raw, 'payload.raw', ['endpoint'])
  const endpoint = raw && check.object(raw.endpoint, 'payload.raw.endpoint', ['endpoint', 'routingKeys', 'types'])
  if (endpoint) {
    const url = check.string(endpoint.endpoint, 'payload.raw.endpoint.endpoint')
    if (url !== undefined && !isEndpointUrl(url)) {
      check.fail('payload.raw.endpoint.endpoint', 'payload.raw.endpoint.endpoint must be an http(s) or ws(s) URL')
    }
    for (const list of ['routingKeys', 'types'] as const) {
      const items = endpoint[list]
      if (items === undefined) continue
      if (!Array.isArray(items) || items.length > 20) {
        check.fail(
          `payload.raw.endpoint.${list}`,
          `payload.raw.endpoint.${list} must be an array of at most 20 strings`,
        )
      } else {
        items.forEach((item, index) => check.string(item, `payload.raw.endpoint.${list}[${index}]`))
      }
    }
  }
  check.throwIfAny()
  return body as unknown as AttribPayload
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

function isEndpointUrl(value: string): boolean {
  try {
    return ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}
