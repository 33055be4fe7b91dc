import { IsString, MaxLength, MinLength } from 'class-validator'

/**
 * Path of `GET /orgs/:orgId/schemas/:schemaId[/cred-defs]` (`orgId` is checked by `@Authorized`). `schemaId`
 * is the record id or the schema's public URL (its `schemaLedgerId`, URL-encoded); SchemasService tells a
 * malformed one (400) from an absent one (404).
 */
export class SchemaPathParams {
  @IsString()
  orgId: string

  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  schemaId: string
}
