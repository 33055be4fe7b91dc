import { IsString, MaxLength, MinLength } from 'class-validator'

/**
 * Path of `GET /orgs/:orgId/schemas/:schemaId[/cred-defs]` (`orgId` is checked by `@Authorized`). `schemaId`
 * is a ledger schema id (INDY), the record id or a JSON schema's public URL (URL-encoded); SchemasService tells a
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
