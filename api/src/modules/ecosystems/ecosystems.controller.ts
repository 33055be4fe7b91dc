import { injectable } from 'inversify'
import {
  Authorized,
  Body,
  CurrentUser,
  Delete,
  Get,
  HttpCode,
  JsonController,
  Params,
  Post,
  Put,
  QueryParams,
  UseBefore,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { Principal } from '../../infra/auth/token.service'
import { messageOnly, pageOf } from '../../infra/http/data-schema'
import { created, done, ok, type Envelope } from '../../infra/http/envelope'
import { pageOffset, toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { CreateEcosystemDto, CreateEcosystemQuery } from './dto/create-ecosystem.dto'
import {
  ECOSYSTEM_DASHBOARD_SCHEMA,
  ECOSYSTEM_LIST_ITEM_SCHEMA,
  ECOSYSTEM_MEMBERSHIP_SCHEMA,
  ECOSYSTEM_MEMBERSHIPS_SCHEMA,
  ECOSYSTEM_SCHEMA,
  toEcosystemResponse,
  toMembershipResponse,
  type EcosystemDashboardResponse,
  type EcosystemListItem,
  type EcosystemMembershipResponse,
  type EcosystemResponse,
} from './dto/ecosystem.response'
import { EcosystemOrgParams } from './dto/ecosystem-org.params'
import { EcosystemInvitationDto, InvitationAnswerQuery } from './dto/invitation.dto'
import { ListEcosystemsQuery } from './dto/list-ecosystems.query'
import { InvitationStatusQuery, ListInvitationsByRoleQuery } from './dto/list-invitations.query'
import { EcosystemMembersDto, ListEcosystemMembersQuery, MemberStatusQuery } from './dto/members.dto'
import { EcosystemFeatureGate } from './ecosystem-feature.gate'
import { EcosystemInvitationsService } from './ecosystem-invitations.service'
import { EcosystemMembersService } from './ecosystem-members.service'
import { EcosystemsService } from './ecosystems.service'

/**
 * Ecosystems (spec: Endpoints, Ecosystems). Every route needs a token; the ecosystem roles are checked by the
 * services (EcosystemAccess), since the organization of a route is in its query, its body or its ecosystem.
 */
@injectable()
@JsonController('/v1/ecosystem')
@UseBefore(EcosystemFeatureGate)
@OpenAPI({ tags: ['Ecosystems'] })
export class EcosystemsController {
  public constructor(
    private readonly ecosystems: EcosystemsService,
    private readonly invitations: EcosystemInvitationsService,
    private readonly members: EcosystemMembersService,
  ) {}

  @Post()
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Create an ecosystem; the organization (orgId) becomes its lead. Owner or admin.' })
  @ResponseData(ECOSYSTEM_SCHEMA, { errors: [403, 404] })
  async create(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: CreateEcosystemQuery,
    @Body({ required: true }) body: CreateEcosystemDto,
  ): Promise<Envelope<EcosystemResponse>> {
    const ecosystem = await this.ecosystems.create(principal, query.orgId, body)
    return created(toEcosystemResponse(ecosystem), 'Ecosystem created')
  }

  @Get()
  @Authorized()
  @OpenAPI({ summary: 'The ecosystems an organization leads or has joined. Its members or a platform admin.' })
  @ResponseData(pageOf(ECOSYSTEM_LIST_ITEM_SCHEMA), { errors: [403] })
  async list(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: ListEcosystemsQuery,
  ): Promise<Envelope<Page<EcosystemListItem>>> {
    const [rows, total] = await this.ecosystems.listForOrg(principal, query)
    const items = rows.map((row) => ({ ...toEcosystemResponse(row.ecosystem), orgRole: row.role }))
    return ok(toPage(items, total, query), 'Ecosystems fetched')
  }

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
    return ok(toPage(rows.map(toMembershipResponse), total, query), 'Ecosystem invitations fetched')
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
    return ok(toPage(rows.map(toMembershipResponse), total, query), 'Ecosystem invitations fetched')
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

  @Get('/members')
  @Authorized()
  @OpenAPI({ summary: 'Every organization of the ecosystem with its role and status (ecosystem lead)' })
  @ResponseData(pageOf(ECOSYSTEM_MEMBERSHIP_SCHEMA), { errors: [403, 404] })
  async listMembers(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: ListEcosystemMembersQuery,
  ): Promise<Envelope<Page<EcosystemMembershipResponse>>> {
    const window = { limit: query.pageSize, offset: pageOffset(query) }
    const [rows, total] = await this.members.list(principal, query.ecosystemId, window)
    return ok(toPage(rows.map(toMembershipResponse), total, query), 'Ecosystem members fetched')
  }

  @Delete('/member')
  @Authorized()
  @OpenAPI({ summary: 'Remove organizations from the ecosystem, all or none (ecosystem lead)' })
  @ResponseData(messageOnly, { errors: [403, 404, 409] })
  async removeMembers(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: EcosystemMembersDto,
  ): Promise<Envelope<never>> {
    const removed = await this.members.remove(principal, body.ecosystemId, body.orgIds)
    return done(`${removed} organization${removed === 1 ? '' : 's'} removed from the ecosystem`)
  }

  @Put('/member/status')
  @Authorized()
  @OpenAPI({ summary: 'Set the status of organizations of the ecosystem, all or none (ecosystem lead)' })
  @ResponseData(ECOSYSTEM_MEMBERSHIPS_SCHEMA, { errors: [403, 404, 409] })
  async setMemberStatus(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: MemberStatusQuery,
    @Body({ required: true }) body: EcosystemMembersDto,
  ): Promise<Envelope<EcosystemMembershipResponse[]>> {
    const rows = await this.members.setStatus(principal, body.ecosystemId, body.orgIds, query.status)
    return ok(rows.map(toMembershipResponse), 'Member status updated')
  }

  @Get('/:ecosystemId/org/:orgId')
  @Authorized()
  @OpenAPI({ summary: 'Dashboard of an organization in an ecosystem (owner, admin or platform admin)' })
  @ResponseData(ECOSYSTEM_DASHBOARD_SCHEMA, { errors: [403] })
  async dashboard(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: EcosystemOrgParams,
  ): Promise<Envelope<EcosystemDashboardResponse>> {
    return ok(await this.ecosystems.dashboard(principal, params.ecosystemId, params.orgId), 'Ecosystem dashboard')
  }
}
