import { Transform } from 'class-transformer'
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, MinLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'
import { CRED_DEF_SORT_FIELDS, type CredDefSortField } from '../cred-defs.repository'

/** `true`/`false` query strings as booleans; anything else stays as it is and fails @IsBoolean. */
const QueryBoolean = () =>
  Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))

/** Body of `POST /orgs/:orgId/cred-defs` (spec: tag, schemaLedgerId, revocable (default false), orgDid). */
export class CreateCredDefDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tag: string

  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  schemaLedgerId: string

  @IsOptional()
  @IsBoolean()
  revocable?: boolean

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  orgDid?: string
}

/**
 * Query of `GET /orgs/:orgId/cred-defs` (spec: pageNumber, pageSize 1-100, searchByText over tags and schema ids,
 * sorting default `id`, sortByValue default DESC, revocable default true: only revocable ones; false: all).
 */
export class ListCredDefsQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(256)
  searchByText?: string

  @IsOptional()
  @IsIn(CRED_DEF_SORT_FIELDS)
  // Declared as string: a type alias of literals would give routing-controllers `Object` as the design type.
  sorting: string = 'id' satisfies CredDefSortField

  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  sortByValue: 'ASC' | 'DESC' = 'DESC'

  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  revocable: boolean = true
}

/** Path of `GET /orgs/:orgId/cred-defs/:credDefId` (`orgId` is checked by `@Authorized`). */
export class CredDefPathParams {
  @IsString()
  orgId: string

  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  credDefId: string
}
