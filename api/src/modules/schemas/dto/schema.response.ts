import type { DataSchema } from '../../../infra/http/data-schema'
import { arrayOf, dateTime, nullable, object, oneOf, string, uri, uuid } from '../../../infra/http/data-schema'
import { SCHEMA_KINDS, type CredentialSchema, type SchemaKind } from '../credential-schema.entity'

/** The schema record (spec: Schema record) with the extensions docs/decisions.md (Schemas) lists. */
export interface SchemaResponse {
  id: string
  /** The public URL the platform publishes the JSON Schema at (no ledger holds JSON schemas). */
  schemaLedgerId: string
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

/** The single read: the record, the ledger-style `schema`/`schemaId` of the spec, the definitions and the document. */
export interface SchemaDetailResponse extends SchemaResponse {
  schemaId: string
  schema: { attrNames: string[]; name: string; version: string; issuerId: string | null }
  attributeDefinitions: Record<string, unknown>[]
  jsonSchema: Record<string, unknown>
}

export function toSchemaResponse(schema: CredentialSchema, url: string): SchemaResponse {
  return {
    id: schema.id,
    schemaLedgerId: url,
    name: schema.name,
    version: schema.version,
    attributes: schema.attributes.map((attribute) => String(attribute.attributeName)),
    createdBy: schema.createdBy ?? null,
    publisherDid: schema.publisherDid ?? null,
    orgId: schema.organization.id,
    issuerId: schema.publisherDid ?? null,
    createdAt: schema.createdAt.toISOString(),
    type: schema.type,
    schemaType: schema.schemaType,
    description: schema.description ?? null,
    alias: schema.alias ?? null,
  }
}

export function toSchemaDetailResponse(schema: CredentialSchema, url: string, document: Record<string, unknown>) {
  const record = toSchemaResponse(schema, url)
  return {
    ...record,
    schemaId: url,
    schema: { attrNames: record.attributes, name: record.name, version: record.version, issuerId: record.issuerId },
    attributeDefinitions: schema.attributes,
    jsonSchema: document,
  } satisfies SchemaDetailResponse
}

/** A JSON object whose shape the client chose (attribute definitions, the JSON Schema document). */
const openObject: DataSchema<Record<string, unknown>> = {
  render: () => ({ type: 'object', additionalProperties: true }),
}

const SCHEMA_FIELDS = {
  id: uuid,
  schemaLedgerId: uri,
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

export const SCHEMA_DETAIL_SCHEMA = object<SchemaDetailResponse>('CredentialSchemaDetail', {
  ...SCHEMA_FIELDS,
  schemaId: uri,
  schema: object<SchemaDetailResponse['schema']>(undefined, {
    attrNames: arrayOf(string),
    name: string,
    version: string,
    issuerId: nullable(string),
  }),
  attributeDefinitions: arrayOf(openObject),
  jsonSchema: openObject,
})

/** Items of the schema's credential-definition list: none for JSON schemas (credential definitions are INDY). */
export const SCHEMA_CRED_DEF_SCHEMA = object<Record<string, never>>('SchemaCredentialDefinition', {})
