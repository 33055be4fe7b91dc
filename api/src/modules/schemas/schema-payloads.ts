import { InvalidInputError, NotImplementedError, type FieldError } from '@idplane/common'
import { SCHEMA_LIMITS } from './json-schema-builder'

/**
 * The `schemaType` values of JSON schemas (spec: `POLYGON_W3C` or another supported W3C type; the full set is
 * not shown). `NO_LEDGER`: the platform publishes the schema at its own public URL, which needs no network; the
 * reference platform spells it `no_ledger`, and a bare `W3C` (a W3C credential schema, no ledger named) means the
 * same here, the only place this platform can publish one. Polygon values (`POLYGON_W3C`, the reference platform's
 * `polygon`) name a network this platform does not reach: 501 rather than a schema nobody can resolve.
 * Matching ignores case and takes `-` for `_`.
 */
export const SUPPORTED_JSON_SCHEMA_TYPES = ['NO_LEDGER'] as const
const NO_LEDGER_SPELLINGS: readonly string[] = [...SUPPORTED_JSON_SCHEMA_TYPES, 'W3C']
const LEDGER_JSON_SCHEMA_TYPES = ['POLYGON_W3C', 'POLYGON']
/** The values the OpenAPI document lists (each accepted in any case; the Polygon ones answer 501). */
export const DOCUMENTED_JSON_SCHEMA_TYPES = ['NO_LEDGER', 'no_ledger', 'W3C', 'POLYGON_W3C', 'polygon'] as const
const EXPECTED_SCHEMA_TYPE = 'must be NO_LEDGER (also written no_ledger, or W3C); POLYGON_W3C and polygon answer 501'

/** @default the version of a JSON schema whose payload names none (the spec's JSON payload has no version field). */
export const DEFAULT_JSON_SCHEMA_VERSION = '1.0'
const VERSION = /^[0-9A-Za-z][0-9A-Za-z._+-]{0,63}$/

/** The `schemaPayload` of a `JSON` schema, checked. */
export interface JsonSchemaPayload {
  name: string
  version: string
  description?: string
  schemaType: (typeof SUPPORTED_JSON_SCHEMA_TYPES)[number]
  attributes: unknown
}

/**
 * @throws InvalidInputError naming each bad field as `schemaPayload.<field>`
 * @throws NotImplementedError for a ledger-hosted `schemaType` (Polygon)
 */
export function readJsonSchemaPayload(payload: Record<string, unknown>): JsonSchemaPayload {
  const errors: FieldError[] = []
  const text = (key: string, max: number, required: boolean): string | undefined => {
    const value = payload[key]
    if (value === undefined && !required) return undefined
    if (typeof value !== 'string' || value.trim().length === 0 || value.length > max) {
      errors.push({ field: `schemaPayload.${key}`, message: `must be a non-blank string of at most ${max} characters` })
      return undefined
    }
    return value.trim()
  }
  const name = text('schemaName', SCHEMA_LIMITS.nameLength, true)
  const description = text('description', SCHEMA_LIMITS.textLength, false)
  const version = text('schemaVersion', 64, false) ?? DEFAULT_JSON_SCHEMA_VERSION
  if (!VERSION.test(version))
    errors.push({ field: 'schemaPayload.schemaVersion', message: 'must be letters, digits and . _ + - (at most 64)' })
  const schemaType = payload.schemaType
  const canonicalType = typeof schemaType === 'string' ? schemaType.toUpperCase().replace(/-/g, '_') : undefined
  if (canonicalType !== undefined && LEDGER_JSON_SCHEMA_TYPES.includes(canonicalType)) {
    throw new NotImplementedError(
      `schemaType ${String(schemaType)} needs a Polygon network, which this platform does not have; ` +
        `use schemaType ${SUPPORTED_JSON_SCHEMA_TYPES.join(' or ')} (the platform publishes the schema at a public URL)`,
    )
  }
  const isNoLedger = canonicalType !== undefined && NO_LEDGER_SPELLINGS.includes(canonicalType)
  if (!isNoLedger) errors.push({ field: 'schemaPayload.schemaType', message: EXPECTED_SCHEMA_TYPE })
  if (payload.attributes === undefined) errors.push({ field: 'schemaPayload.attributes', message: 'is required' })
  if (errors.length > 0 || name === undefined) {
    throw new InvalidInputError(
      `The schema payload is invalid: ${errors.map((error) => `${error.field} ${error.message}`).join('; ')}`,
      errors,
    )
  }
  return { name, version, description, schemaType: 'NO_LEDGER', attributes: payload.attributes }
}

/** Data types of INDY attribute definitions (spec: Schema attribute definition, type INDY). */
export const INDY_SCHEMA_DATA_TYPES = ['string', 'number', 'date', 'datetime'] as const
/** Most attributes of one INDY schema (what the agent accepts; Indy ledgers allow 125). */
export const MAX_INDY_ATTRIBUTES = 125
/** Indy versions are digits and dots (`1.0`, `2.1.3`); a ledger id carries them. */
const INDY_VERSION = /^[0-9]+(?:\.[0-9]+)*$/

/** One INDY attribute definition, as the platform keeps it (the ledger keeps only the name). */
export interface IndyAttributeDefinition {
  attributeName: string
  schemaDataType: (typeof INDY_SCHEMA_DATA_TYPES)[number]
  displayName: string
  isRequired: boolean
}

/** The `schemaPayload` of an `INDY` schema, checked. */
export interface IndySchemaPayload {
  name: string
  version: string
  attributes: IndyAttributeDefinition[]
  orgDid?: string
}

/**
 * AnonCreds compares attribute names without case and spaces (credentials and proofs match them so): two names
 * equal under that are one attribute.
 */
function canonicalAttributeName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '')
}

/**
 * @throws InvalidInputError naming each bad field as `schemaPayload.<field>` (`schemaPayload.attributes[i].<field>`)
 */
export function readIndySchemaPayload(payload: Record<string, unknown>): IndySchemaPayload {
  const errors: FieldError[] = []
  const text = (value: unknown, field: string, max: number): string | undefined => {
    if (typeof value !== 'string' || value.trim().length === 0 || value.length > max || value.includes('\u0000')) {
      errors.push({ field, message: `must be a non-blank string of at most ${max} characters` })
      return undefined
    }
    return value.trim()
  }
  const name = text(payload.schemaName, 'schemaPayload.schemaName', SCHEMA_LIMITS.nameLength)
  // The name is a part of the ledger id, whose parts ':' and '/' separate.
  if (name !== undefined && /[:/]/.test(name))
    errors.push({
      field: 'schemaPayload.schemaName',
      message: 'must not contain ":" or "/" (ledger ids separate parts so)',
    })
  const version = text(payload.schemaVersion, 'schemaPayload.schemaVersion', 64)
  if (version !== undefined && !INDY_VERSION.test(version))
    errors.push({ field: 'schemaPayload.schemaVersion', message: 'must be digits and dots, such as 1.0' })
  let orgDid: string | undefined
  if (payload.orgDid !== undefined) orgDid = text(payload.orgDid, 'schemaPayload.orgDid', 2048)
  const attributes: IndyAttributeDefinition[] = []
  if (!Array.isArray(payload.attributes) || payload.attributes.length === 0) {
    errors.push({ field: 'schemaPayload.attributes', message: 'must be a non-empty array of attribute definitions' })
  } else if (payload.attributes.length > MAX_INDY_ATTRIBUTES) {
    errors.push({ field: 'schemaPayload.attributes', message: `must have at most ${MAX_INDY_ATTRIBUTES} entries` })
  } else {
    const seen = new Set<string>()
    payload.attributes.forEach((entry: unknown, index) => {
      const at = `schemaPayload.attributes[${index}]`
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        errors.push({ field: at, message: 'must be an object' })
        return
      }
      const definition = entry as Record<string, unknown>
      const attributeName = text(definition.attributeName, `${at}.attributeName`, SCHEMA_LIMITS.nameLength)
      const displayName = text(definition.displayName, `${at}.displayName`, SCHEMA_LIMITS.nameLength)
      const dataType = definition.schemaDataType
      if (!(INDY_SCHEMA_DATA_TYPES as readonly unknown[]).includes(dataType))
        errors.push({ field: `${at}.schemaDataType`, message: `must be one of ${INDY_SCHEMA_DATA_TYPES.join(', ')}` })
      if (typeof definition.isRequired !== 'boolean')
        errors.push({ field: `${at}.isRequired`, message: 'must be a boolean' })
      if (attributeName !== undefined) {
        const canonical = canonicalAttributeName(attributeName)
        if (seen.has(canonical))
          errors.push({ field: `${at}.attributeName`, message: 'repeats another attribute (case and spaces aside)' })
        seen.add(canonical)
      }
      if (attributeName !== undefined && displayName !== undefined && typeof definition.isRequired === 'boolean')
        attributes.push({
          attributeName,
          schemaDataType: dataType as IndyAttributeDefinition['schemaDataType'],
          displayName,
          isRequired: definition.isRequired,
        })
    })
  }
  if (errors.length > 0 || name === undefined || version === undefined) {
    throw new InvalidInputError(
      `The schema payload is invalid: ${errors.map((error) => `${error.field} ${error.message}`).join('; ')}`,
      errors,
    )
  }
  return { name, version, attributes, ...(orgDid !== undefined ? { orgDid } : {}) }
}
