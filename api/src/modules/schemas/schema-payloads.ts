import { InvalidInputError, NotImplementedError, type FieldError } from '@idplane/common'
import { SCHEMA_LIMITS } from './json-schema-builder'

/**
 * The `schemaType` values of JSON schemas (spec: `POLYGON_W3C` or another supported W3C type; the full set is
 * not shown). `NO_LEDGER`: the platform publishes the schema at its own public URL, which needs no network.
 * Polygon values name a network this platform does not reach: 501 rather than a schema nobody can resolve.
 */
export const SUPPORTED_JSON_SCHEMA_TYPES = ['NO_LEDGER'] as const
const LEDGER_JSON_SCHEMA_TYPES = ['POLYGON_W3C', 'POLYGON']

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
  if (!(SUPPORTED_JSON_SCHEMA_TYPES as readonly unknown[]).includes(canonicalType))
    errors.push({ field: 'schemaPayload.schemaType', message: `must be ${SUPPORTED_JSON_SCHEMA_TYPES.join(' or ')}` })
  if (payload.attributes === undefined) errors.push({ field: 'schemaPayload.attributes', message: 'is required' })
  if (errors.length > 0 || name === undefined) {
    throw new InvalidInputError(
      `The schema payload is invalid: ${errors.map((error) => `${error.field} ${error.message}`).join('; ')}`,
      errors,
    )
  }
  return { name, version, description, schemaType: 'NO_LEDGER', attributes: payload.attributes }
}
