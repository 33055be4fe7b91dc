import { IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator'
import { JSONSchema } from 'class-validator-jsonschema'
import { SCHEMA_KINDS, type SchemaKind } from '../credential-schema.entity'
import { DOCUMENTED_JSON_SCHEMA_TYPES } from '../schema-payloads'

/**
 * Body of `POST /orgs/:orgId/schemas`. `schemaPayload` depends on `type` and is checked by the service
 * (SchemaPayloads), which names each offending field as `schemaPayload.<path>`.
 */
export class CreateSchemaDto {
  @IsIn(SCHEMA_KINDS)
  type: SchemaKind

  @IsOptional()
  @IsString()
  @MaxLength(256)
  alias?: string

  @IsObject()
  @JSONSchema({
    description:
      'JSON: schemaName, schemaType (NO_LEDGER, also written no_ledger or W3C: the platform publishes the schema at ' +
      'a public URL; POLYGON_W3C and polygon answer 501, no Polygon network is reachable), attributes (attributeName, displayName, schemaDataType, isRequired, ' +
      'description, and the constraints of the data type), optional description and schemaVersion (default 1.0). ' +
      'INDY: schemaName, schemaVersion (digits and dots), attributes (attributeName, schemaDataType string, number, ' +
      'date or datetime, displayName, isRequired), optional orgDid (an Indy DID of the organization).',
    properties: {
      schemaType: {
        type: 'string',
        enum: [...DOCUMENTED_JSON_SCHEMA_TYPES],
        description: 'JSON schemas only, any case; POLYGON_W3C and polygon answer 501',
      },
    },
    additionalProperties: true,
    example: {
      schemaName: 'Employee badge',
      schemaVersion: '1.0',
      schemaType: 'NO_LEDGER',
      attributes: [
        { attributeName: 'name', displayName: 'Full name', schemaDataType: 'string', isRequired: true, maxLength: 100 },
        { attributeName: 'level', displayName: 'Level', schemaDataType: 'integer', isRequired: false, minimum: 1 },
      ],
    },
  })
  schemaPayload: Record<string, unknown>
}
