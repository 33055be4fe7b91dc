import { IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator'
import { JSONSchema } from 'class-validator-jsonschema'
import { SCHEMA_KINDS, type SchemaKind } from '../credential-schema.entity'

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
      'JSON: schemaName, schemaType (NO_LEDGER), attributes (attributeName, displayName, schemaDataType, isRequired, ' +
      'description, and the constraints of the data type), optional description and schemaVersion (default 1.0). ' +
      'INDY: schemaName, schemaVersion (digits and dots), attributes (attributeName, schemaDataType string, number, ' +
      'date or datetime, displayName, isRequired), optional orgDid (an Indy DID of the organization).',
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
