import { injectable } from 'inversify'
import {
  Authorized,
  Body,
  CurrentUser,
  Delete,
  Get,
  HttpCode,
  JsonController,
  Param,
  Post,
  Put,
  QueryParams,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { Principal } from '../../infra/auth/token.service'
import { created, done, ok, type Envelope } from '../../infra/http/envelope'
import type { Page } from '../../infra/http/pagination'
import type { ActivityCounts, DashboardEntries } from '../../infra/api-module'
import { MembershipsRepository } from '../memberships/memberships.repository'
import { ORG_ROLES } from '../memberships/org-roles'
import { OrgsService } from './orgs.service'
import { OrgMembersService } from './org-members.service'
import { CreateOrganizationDto } from './dto/create-organization.dto'
import { UpdateOrganizationDto } from './dto/update-organization.dto'
import { ListOrganizationsQuery } from './dto/list-organizations.query'
import { ListMembersQuery } from './dto/list-members.query'
import {
  toOrganizationListItem,
  toOrganizationResponse,
  type OrganizationListItem,
  type OrganizationResponse,
} from './dto/organization.response'
import { toMemberResponse, type MemberResponse } from './dto/member.response'
import { ResponseData } from '../../infra/http/response-doc'
import { arrayOf, messageOnly, pageOf } from '../../infra/http/data-schema'
import { ORGANIZATION_LIST_ITEM_SCHEMA, ORGANIZATION_SCHEMA } from './dto/organization.response'
import { MEMBER_SCHEMA, ORG_ROLE_SCHEMA } from './dto/member.response'
import { DASHBOARD_SCHEMA, ORGANIZATION_COUNTS_SCHEMA } from './dto/org-summary.response'

/** Organizations (spec: Endpoints, Organizations); the roles of each route are the spec's. */
@injectable()
@JsonController('/v1/orgs')
@OpenAPI({ tags: ['Organizations'] })
export class OrgsController {
  public constructor(
    private readonly orgs: OrgsService,
    private readonly members: OrgMembersService,
    private readonly memberships: MembershipsRepository,
  ) {}

  @Post()
  @HttpCode(201)
  @Authorized()
  @ResponseData(ORGANIZATION_SCHEMA, { errors: [403, 409] })
  async create(
    @CurrentUser() principal: Principal,
    @Body({ required: true }) body: CreateOrganizationDto,
  ): Promise<Envelope<OrganizationResponse>> {
    return created(toOrganizationResponse(await this.orgs.create(principal, body)), 'Organization created')
  }

  @Get()
  @Authorized()
  @ResponseData(pageOf(ORGANIZATION_LIST_ITEM_SCHEMA))
  async list(
    @CurrentUser() principal: Principal,
    @QueryParams() query: ListOrganizationsQuery,
  ): Promise<Envelope<Page<OrganizationListItem>>> {
    const page = await this.orgs.listForCaller(principal, query)
    const items = page.data.map(({ org, roles }) => toOrganizationListItem(org, roles))
    return ok({ ...page, data: items }, 'Organizations fetched')
  }

  @Get('/dashboard/:orgId')
  @Authorized(ORG_ROLES.members)
  @ResponseData(DASHBOARD_SCHEMA)
  async dashboard(@Param('orgId') orgId: string): Promise<Envelope<DashboardEntries>> {
    return ok(await this.members.dashboard(orgId), 'Organization dashboard fetched')
  }

  @Get('/activity-count/:orgId')
  @Authorized(ORG_ROLES.owner)
  @ResponseData(ORGANIZATION_COUNTS_SCHEMA)
  async activityCount(@Param('orgId') orgId: string): Promise<Envelope<ActivityCounts>> {
    return ok(await this.members.activityCounts(orgId), 'Organization activity counts fetched')
  }

  @Get('/:orgId')
  @Authorized(ORG_ROLES.members)
  @ResponseData(ORGANIZATION_SCHEMA)
  async get(@Param('orgId') orgId: string): Promise<Envelope<OrganizationResponse>> {
    return ok(toOrganizationResponse(await this.orgs.view(orgId)), 'Organization fetched')
  }

  @Put('/:orgId')
  @Authorized(ORG_ROLES.ownerAdmin)
  @ResponseData(messageOnly, { errors: [409] })
  async update(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: UpdateOrganizationDto,
  ): Promise<Envelope<never>> {
    await this.orgs.update(orgId, body)
    return done('Organization updated')
  }

  @Delete('/:orgId')
  @Authorized(ORG_ROLES.owner)
  @ResponseData(messageOnly)
  async delete(@Param('orgId') orgId: string): Promise<Envelope<never>> {
    await this.orgs.delete(orgId)
    return done('Organization deleted')
  }

  @Get('/:orgId/roles')
  @Authorized(ORG_ROLES.ownerAdmin)
  @ResponseData(arrayOf(ORG_ROLE_SCHEMA))
  async roleDefinitions(): Promise<Envelope<{ id: string; name: string }[]>> {
    const roles = await this.memberships.listDefinitions()
    return ok(
      roles.map((role) => ({ id: role.id, name: role.name })),
      'Organization roles fetched',
    )
  }

  @Get('/:orgId/users')
  @Authorized(ORG_ROLES.membersAndHolders)
  @ResponseData(pageOf(MEMBER_SCHEMA))
  async listMembers(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListMembersQuery,
  ): Promise<Envelope<Page<MemberResponse>>> {
    const page = await this.members.listMembers(orgId, query)
    return ok({ ...page, data: page.data.map(({ user, roles }) => toMemberResponse(user, roles)) }, 'Members fetched')
  }
}
