import { injectable } from 'inversify'
import { Authorized, Body, CurrentUser, Get, JsonController, Params, Put, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { Principal } from '../../infra/auth/token.service'
import { done, ok, type Envelope } from '../../infra/http/envelope'
import { toPage, type Page } from '../../infra/http/pagination'
import { toUserInvitationResponse } from './dto/invitation.response'
import { UserInvitationParams } from './dto/invitation-path.params'
import { ListUserInvitationsQuery } from './dto/list-user-invitations.query'
import { UpdateInvitationStatusDto } from './dto/update-invitation-status.dto'
import { UserInvitationsService } from './user-invitations.service'
import { ResponseData } from '../../infra/http/response-doc'
import { messageOnly, pageOf } from '../../infra/http/data-schema'
import { USER_INVITATION_SCHEMA, type UserInvitationResponse } from './dto/invitation.response'

@injectable()
@JsonController('/v1/users/invitations')
@OpenAPI({ tags: ['Invitations and membership'] })
export class UserInvitationsController {
  public constructor(private readonly invitations: UserInvitationsService) {}

  @Get()
  @Authorized()
  @OpenAPI({ summary: "The caller's own invitations, paginated; search by organization name" })
  @ResponseData(pageOf(USER_INVITATION_SCHEMA), { errors: [403] })
  async list(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: ListUserInvitationsQuery,
  ): Promise<Envelope<Page<UserInvitationResponse>>> {
    const [invitations, total] = await this.invitations.listMine(principal, query)
    return ok(toPage(invitations.map(toUserInvitationResponse), total, query), 'Invitations fetched')
  }

  @Put('/:invitationId')
  @Authorized()
  @OpenAPI({ summary: 'Accept or reject one of your invitations' })
  @ResponseData(messageOnly, { errors: [403, 409] })
  async respond(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: UserInvitationParams,
    @Body({ required: true }) body: UpdateInvitationStatusDto,
  ): Promise<Envelope<never>> {
    await this.invitations.respond(principal, params.invitationId, body.status)
    return done(body.status === 'accepted' ? 'Invitation accepted' : 'Invitation rejected')
  }
}
