import { IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'

/** Query of `GET /users/invitations`: `search` matches the organization name. */
export class ListUserInvitationsQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string
}
