import { Transform } from 'class-transformer'
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'
import { BULK_SCHEMA_TYPES } from '../bulk-request.entity'
import { BULK_ROW_STATUSES } from '../bulk-issuance.states'

/** `true`/`false` query strings as booleans; anything else stays as it is and fails @IsBoolean. */
const QueryBoolean = () =>
  Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))

/** `GET credentials/bulk/template`: the templates of one schema type (W3C by default), paginated. */
export class ListTemplatesQuery extends PageQuery {
  @IsOptional()
  @IsIn(BULK_SCHEMA_TYPES)
  // Written out: an imported alias would reach routing-controllers' query parsing as an object type.
  schemaType?: 'W3C' | 'INDY'
}

/**
 * `POST credentials/bulk/template`: which template to download (spec: the credential definition id, and a schema id
 * for W3C). One of `templateId`, `credentialDefinitionId` (INDY) or `schemaId` (W3C): a record id or a ledger id in
 * either form (INDY), a record id or the schema URL (W3C); BulkTemplatesService.resolve tells malformed (400) from absent.
 */
export class DownloadTemplateDto {
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  templateId?: string

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  credentialDefinitionId?: string

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  schemaId?: string

  @IsIn(BULK_SCHEMA_TYPES)
  schemaType: 'W3C' | 'INDY'
}

/** `POST bulk/upload` query (spec: schema type, template id, validation flag). */
export class UploadQueryDto {
  @IsIn(BULK_SCHEMA_TYPES)
  schemaType: 'W3C' | 'INDY'

  /** As DownloadTemplateDto's ids: record id or ledger id (INDY), record id or schema URL (W3C). */
  @IsString()
  @MaxLength(2048)
  templateId: string

  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  isValidateSchema?: boolean
}

/** Path of `POST /orgs/:orgId/:requestId/bulk` and `GET /orgs/:orgId/bulk/:requestId`. */
export class BulkRequestParams {
  @IsString()
  orgId: string

  @IsUUID()
  requestId: string
}

/** `POST :requestId/bulk` query (spec: validation flag, optional template override). */
export class ExecuteQueryDto {
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  isValidateSchema?: boolean

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  templateId?: string
}

/** `POST :requestId/bulk` body (spec: all optional). */
export class ExecuteBulkDto {
  /** A client identifier for tracking; shown in the progress and the events. */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  clientId?: string

  @IsOptional()
  @IsString()
  @MaxLength(255)
  fileName?: string

  @IsOptional()
  @IsBoolean()
  isSelectiveIssuance?: boolean

  /** Row numbers as the upload summary names them (header row 1, first data row 2); with isSelectiveIssuance. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1_000_000)
  @IsInt({ each: true })
  @Min(2, { each: true })
  @Max(10_000_000, { each: true })
  selectedRows?: number[]

  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true })
  @MaxLength(2048)
  organizationLogoUrl?: string

  @IsOptional()
  @IsString()
  @MaxLength(100)
  platformName?: string
}

/** `GET bulk/:requestId`: one page of rows, optionally of one status. */
export class ProgressQueryDto extends PageQuery {
  @IsOptional()
  @IsIn(BULK_ROW_STATUSES)
  status?: 'invalid' | 'pending' | 'queued' | 'sent' | 'failed'
}
