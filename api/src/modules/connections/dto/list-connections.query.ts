import { Transform } from 'class-transformer'
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'

/** Sort fields of the connection list (spec: `createDateTime` default; the others are our decision). */
export const CONNECTION_SORT_FIELDS = ['createDateTime', 'updateDateTime', 'theirLabel', 'state'] as const
export type ConnectionSortField = (typeof CONNECTION_SORT_FIELDS)[number]

/** `ASC`/`DESC` in any letter case (the spec writes them upper case, its ecosystem list lower case). */
export const upperCase = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))

/** Query of `GET /orgs/:orgId/connections`. */
export class ListConnectionsQuery extends PageQuery {
  /** Matches the other side's label, the alias, their DID or the connection id, anywhere, ignoring case. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  searchByText?: string

  /** One of CONNECTION_SORT_FIELDS; typed string because routing-controllers converts query values by design type. */
  @IsOptional()
  @IsIn(CONNECTION_SORT_FIELDS)
  sortField: string = 'createDateTime'

  @IsOptional()
  @upperCase()
  @IsIn(['ASC', 'DESC'])
  sortBy: 'ASC' | 'DESC' = 'DESC'
}
