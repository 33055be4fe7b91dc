import { IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'

/** Query of `GET /v1/orgs/:orgId/users`: members searched by first name, last name or e-mail. */
export class ListMembersQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(320)
  search?: string
}
