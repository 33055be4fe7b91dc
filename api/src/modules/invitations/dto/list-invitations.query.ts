import { IsOptional, IsString, MaxLength } from 'class-validator'
import { PageQuery } from '../../../infra/http/pagination'

/** Query of `GET /orgs/:orgId/invitations`: `search` matches the invitee's e-mail. */
export class ListInvitationsQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(320)
  search?: string
}
