import { IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator'
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
  schemaPayload: Record<string, unknown>
}
