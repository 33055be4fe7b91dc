import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'
import { SCHEMA_SORT_FIELDS, type SchemaSortField } from '../schemas.repository'

/**
 * Query of `GET /orgs/:orgId/schemas` (spec: pageNumber, pageSize min 1 (max 100, docs/decisions.md),
 * `searchByText` over schema names, `sortField` default `createDateTime`, `sortBy` default `DESC`).
 */
export class ListSchemasQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(256)
  searchByText?: string

  @IsOptional()
  @IsIn(SCHEMA_SORT_FIELDS)
  // Declared as string: a type alias of literals would give routing-controllers `Object` as the design type.
  sortField: string = 'createDateTime' satisfies SchemaSortField

  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  sortBy: 'ASC' | 'DESC' = 'DESC'
}
