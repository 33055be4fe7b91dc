import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'
import { ORG_ROLE_NAMES } from '../../memberships/org-role.entity'

/** Query of `GET /v1/orgs`: the caller's organizations, by name and by the role the caller holds. */
export class ListOrganizationsQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string

  /** One of the role values; typed string because routing-controllers converts query values by design type. */
  @IsOptional()
  @IsIn(ORG_ROLE_NAMES)
  role?: string
}
