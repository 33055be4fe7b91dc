import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'

export const CREDENTIAL_SORT_FIELDS = ['createDateTime', 'updateDateTime', 'state', 'connectionId'] as const
export type CredentialSortField = (typeof CREDENTIAL_SORT_FIELDS)[number]

/** Query of `GET /orgs/:orgId/credentials` (spec: Limits; the parameter names are ours, docs/decisions.md). */
export class ListCredentialsQuery extends PageQuery {
  /** Free text: matches the state, connection, thread, e-mail, schema and credential types. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  searchByText?: string

  /** Same as `searchByText` (the name other lists of this API use). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string

  @IsOptional()
  @IsIn(CREDENTIAL_SORT_FIELDS)
  sortField?: string

  @IsOptional()
  @IsIn(['ASC', 'DESC', 'asc', 'desc'])
  sortBy?: string
}
