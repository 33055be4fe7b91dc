import { injectable } from 'inversify'
import {
  Authorized,
  Body,
  Delete,
  Get,
  HttpCode,
  JsonController,
  Param,
  Params,
  Post,
  QueryParams,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { done, ok, type Envelope } from '../../infra/http/envelope'
import { toPage, type Page } from '../../infra/http/pagination'
import { CreateInvitationsDto, CreateInvitationsQuery } from './dto/create-invitations.dto'
import { describeInvitationBatch, toInvitationResponse } from './dto/invitation.response'
import { OrgInvitationParams } from './dto/invitation-path.params'
import { ListInvitationsQuery } from './dto/list-invitations.query'
import { InvitationsService } from './invitations.service'
import { CurrentOrgCaller, type OrgCaller } from '../memberships/org-caller.decorator'
import { ORG_ROLES } from '../memberships/org-roles'
import { ResponseData } from '../../infra/http/response-doc'
import { messageOnly, pageOf } from '../../infra/http/data-schema'
import { INVITATION_SCHEMA, type InvitationResponse } from './dto/invitation.response'

@injectable()
@JsonController('/v1/orgs/:orgId/invitations')
@OpenAPI({ tags: ['Invitations and membership'] })
export class InvitationsController {
  public constructor(private readonly invitations: InvitationsService) {}

  @Post()
  @HttpCode(201)
  @Authorized(ORG_ROLES.inviters)
  @OpenAPI({ summary: 'Invite people by e-mail; each address gets one mail with a link' })
  @ResponseData(messageOnly, { errors: [429, 502] })
  async create(
    @Param('orgId') orgId: string,
    @CurrentOrgCaller() caller: OrgCaller,
    @Body({ required: true }) body: CreateInvitationsDto,
    @QueryParams() query: CreateInvitationsQuery,
  ): Promise<Envelope<never>> {
    const result = await this.invitations.invite(orgId, caller, body.invitations, query.clientAlias)
    return done(describeInvitationBatch(result), 201)
  }

  @Get()
  @Authorized(ORG_ROLES.invitationReaders)
  @OpenAPI({ summary: "The organization's invitations of every status, paginated; search by e-mail" })
  @ResponseData(pageOf(INVITATION_SCHEMA))
  async list(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListInvitationsQuery,
  ): Promise<Envelope<Page<InvitationResponse>>> {
    const [invitations, total] = await this.invitations.listForOrg(orgId, query)
    return ok(toPage(invitations.map(toInvitationResponse), total, query), 'Invitations fetched')
  }

  @Delete('/:invitationId')
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: 'Remove a pending invitation; its mailed link stops working' })
  @ResponseData(messageOnly, { errors: [409] })
  async remove(@Params() params: OrgInvitationParams): Promise<Envelope<never>> {
    await this.invitations.remove(params.orgId, params.invitationId)
    return done('Invitation deleted')
  }
}
