import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'

/** Query of `GET /orgs/:orgId/schemas/:schemaId/cred-defs`: the same kinds of parameters as the schema list. */
export class ListSchemaCredDefsQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(256)
  searchByText?: string

  @IsOptional()
  @IsIn(['createDateTime', 'tag'])
  sortField: string = 'createDateTime'

  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  sortBy: 'ASC' | 'DESC' = 'DESC'
}
