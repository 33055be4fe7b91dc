import type { DataSchema } from '../../../infra/http/data-schema'
import { arrayOf, dateTime, nullable, object, oneOf, optional, string, uuid } from '../../../infra/http/data-schema'
import type { AnonCredsSchemaResponse } from '@idplane/common/agent-contract/admin-api'
import { SCHEMA_KINDS, type CredentialSchema, type SchemaKind } from '../credential-schema.entity'

/** The schema record (spec: Schema record) with the extensions docs/decisions.md (Schemas) lists. */
export interface SchemaResponse {
  id: string
  /**
   * INDY: the ledger id in the spec's legacy form, `<did>:2:<name>:<version>`. JSON: the public URL the platform
   * publishes the JSON Schema at (no ledger holds them).
   */
  schemaLedgerId: string
  /** INDY: the same ledger id in the did:indy form, when the schema has one; null otherwise (and for JSON). */
  schemaDidIndyId: string | null
  name: string
  version: string
  attributes: string[]
  createdBy: string | null
  publisherDid: string | null
  orgId: string
  issuerId: string | null
  createdAt: string
  type: SchemaKind
  schemaType: string
  description: string | null
  alias: string | null
}

/**
 * The single read: the record, the ledger-style `schema`/`schemaId` of the spec, the definitions and the document
 * (JSON; null for INDY).
 */
export interface SchemaDetailResponse extends SchemaResponse {
  schemaId: string
  schema: { attrNames: string[]; name: string; version: string; issuerId: string | null }
  attributeDefinitions: Record<string, unknown>[]
  jsonSchema: Record<string, unknown> | null
}

/**
 * A read by ledger id (spec: `schema` and `schemaId`, from the ledger); the record's fields and attribute
 * definitions too when the organization created the schema, absent otherwise.
 */
export type SchemaReadResponse = Pick<SchemaDetailResponse, 'schemaId' | 'schema'> &
  Partial<Omit<SchemaDetailResponse, 'schemaId' | 'schema'>>

/** `schemaLedgerId`: the ledger id (INDY) or the public URL (JSON). */
export function toSchemaResponse(schema: CredentialSchema, schemaLedgerId: string): SchemaResponse {
  return {
    id: schema.id,
    schemaLedgerId,
    schemaDidIndyId: schema.ledgerDidIndyId ?? null,
    name: schema.name,
    version: schema.version,
    attributes: schema.attributes.map((attribute) => String(attribute.attributeName)),
    createdBy: schema.createdBy ?? null,
    publisherDid: schema.publisherDid ?? null,
    orgId: schema.organization.id,
    issuerId: schema.issuerId ?? schema.publisherDid ?? null,
    createdAt: schema.createdAt.toISOString(),
    type: schema.type,
    schemaType: schema.schemaType,
    description: schema.description ?? null,
    alias: schema.alias ?? null,
  }
}

export function toSchemaDetailResponse(
  schema: CredentialSchema,
  schemaLedgerId: string,
  document: Record<string, unknown> | null,
): SchemaDetailResponse {
  const record = toSchemaResponse(schema, schemaLedgerId)
  return {
    ...record,
    schemaId: schemaLedgerId,
    schema: { attrNames: record.attributes, name: record.name, version: record.version, issuerId: record.issuerId },
    attributeDefinitions: schema.attributes,
    jsonSchema: document,
  }
}

/** A ledger schema, with the organization's record of it when there is one. */
export function toSchemaReadResponse(
  ledger: AnonCredsSchemaResponse,
  record: SchemaDetailResponse | undefined,
): SchemaReadResponse {
  const { attrNames, name, version, issuerId } = ledger.schema
  return { ...record, schemaId: ledger.schemaId, schema: { attrNames, name, version, issuerId } }
}

/** A JSON object whose shape the client chose (attribute definitions, the JSON Schema document). */
const openObject: DataSchema<Record<string, unknown>> = {
  render: () => ({ type: 'object', additionalProperties: true }),
}

const SCHEMA_FIELDS = {
  id: uuid,
  schemaLedgerId: string,
  schemaDidIndyId: nullable(string),
  name: string,
  version: string,
  attributes: arrayOf(string),
  createdBy: nullable(uuid),
  publisherDid: nullable(string),
  orgId: uuid,
  issuerId: nullable(string),
  createdAt: dateTime,
  type: oneOf(SCHEMA_KINDS),
  schemaType: string,
  description: nullable(string),
  alias: nullable(string),
}

export const SCHEMA_SCHEMA = object<SchemaResponse>('CredentialSchema', SCHEMA_FIELDS)

const LEDGER_SCHEMA = object<SchemaDetailResponse['schema']>(undefined, {
  attrNames: arrayOf(string),
  name: string,
  version: string,
  issuerId: nullable(string),
})

/** By record id or URL: the record; by ledger id: the ledger's schema, with the record when the organization has it. */
export const SCHEMA_READ_SCHEMA = object<SchemaReadResponse>('CredentialSchemaRead', {
  schemaId: string,
  schema: LEDGER_SCHEMA,
  id: optional(uuid),
  schemaLedgerId: optional(string),
  schemaDidIndyId: optional(nullable(string)),
  name: optional(string),
  version: optional(string),
  attributes: optional(arrayOf(string)),
  createdBy: optional(nullable(uuid)),
  publisherDid: optional(nullable(string)),
  orgId: optional(uuid),
  issuerId: optional(nullable(string)),
  createdAt: optional(dateTime),
  type: optional(oneOf(SCHEMA_KINDS)),
  schemaType: optional(string),
  description: optional(nullable(string)),
  alias: optional(nullable(string)),
  attributeDefinitions: optional(arrayOf(openObject)),
  jsonSchema: optional(nullable(openObject)),
})
