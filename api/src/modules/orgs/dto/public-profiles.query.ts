import { IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'

/** Query of `GET /v1/orgs/public-profile`: public organizations, searched by name. */
export class PublicProfilesQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string
}
