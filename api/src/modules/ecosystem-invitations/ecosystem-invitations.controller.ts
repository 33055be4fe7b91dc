import { Authorized, Body, CurrentUser, Get, HttpCode, Post, Put, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { EcosystemController } from '../ecosystems/ecosystem-controller'
import type { Principal } from '../../infra/auth/token.service'
import { pageOf } from '../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import {
  ECOSYSTEM_MEMBERSHIP_SCHEMA,
  toMembershipPage,
  toMembershipResponse,
  type EcosystemMembershipResponse,
} from '../ecosystems/dto/ecosystem.response'
import { EcosystemInvitationDto, InvitationAnswerQuery } from './dto/ecosystem-invitation.dto'
import { InvitationStatusQuery, ListInvitationsByRoleQuery } from './dto/list-ecosystem-invitations.query'
import { EcosystemInvitationsService } from './ecosystem-invitations.service'

/**
 * Ecosystem invitations (spec: Endpoints, Ecosystems). Every route needs a token; the ecosystem roles are checked by the
 * service (EcosystemAccess), since the organization of a route is in its query, its body or its ecosystem.
 */
@EcosystemController()
export class EcosystemInvitationsController {
  public constructor(private readonly invitations: EcosystemInvitationsService) {}

  @Get('/invitations')
  @Authorized()
  @OpenAPI({
    summary: 'Invitations sent in an ecosystem (role ECOSYSTEM_LEAD) or received (ECOSYSTEM_MEMBER). Owner.',
  })
  @ResponseData(pageOf(ECOSYSTEM_MEMBERSHIP_SCHEMA), { errors: [403, 404] })
  async invitationsByRole(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: ListInvitationsByRoleQuery,
  ): Promise<Envelope<Page<EcosystemMembershipResponse>>> {
    const [rows, total] = await this.invitations.listByRole(principal, query)
    return ok(toMembershipPage(rows, total, query), 'Ecosystem invitations fetched')
  }

  @Get('/invitation/status')
  @Authorized()
  @OpenAPI({
    summary: "Invitations with a status that the caller's organizations (owner or admin) sent as lead or received",
  })
  @ResponseData(pageOf(ECOSYSTEM_MEMBERSHIP_SCHEMA), { errors: [403] })
  async invitationsByStatus(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: InvitationStatusQuery,
  ): Promise<Envelope<Page<EcosystemMembershipResponse>>> {
    const [rows, total] = await this.invitations.listByStatus(principal, query)
    return ok(toMembershipPage(rows, total, query), 'Ecosystem invitations fetched')
  }

  @Post('/invitation')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Invite an organization (ecosystem lead); its owners are mailed' })
  @ResponseData(ECOSYSTEM_MEMBERSHIP_SCHEMA, { errors: [403, 404, 409] })
  async invite(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: EcosystemInvitationDto,
  ): Promise<Envelope<EcosystemMembershipResponse>> {
    const row = await this.invitations.invite(principal, body.ecosystemId, body.orgId)
    return created(toMembershipResponse(row), 'Invitation sent')
  }

  @Put('/invitation/status')
  @Authorized()
  @OpenAPI({ summary: 'Accept or reject an invitation (owner or admin of the invited organization)' })
  @ResponseData(ECOSYSTEM_MEMBERSHIP_SCHEMA, { errors: [403, 404, 409] })
  async respond(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: InvitationAnswerQuery,
    @Body({ required: true }) body: EcosystemInvitationDto,
  ): Promise<Envelope<EcosystemMembershipResponse>> {
    const row = await this.invitations.respond(principal, body.ecosystemId, body.orgId, query.status)
    return ok(toMembershipResponse(row), query.status === 'accepted' ? 'Invitation accepted' : 'Invitation rejected')
  }
}
