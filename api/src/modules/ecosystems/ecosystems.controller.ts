import { Authorized, Body, CurrentUser, Get, HttpCode, Params, Post, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { EcosystemController } from './ecosystem-controller'
import type { Principal } from '../../infra/auth/token.service'
import { pageOf } from '../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { toPage, type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { CreateEcosystemDto, CreateEcosystemQuery } from './dto/create-ecosystem.dto'
import {
  ECOSYSTEM_DASHBOARD_SCHEMA,
  ECOSYSTEM_LIST_ITEM_SCHEMA,
  ECOSYSTEM_SCHEMA,
  toEcosystemResponse,
  type EcosystemDashboardResponse,
  type EcosystemListItem,
  type EcosystemResponse,
} from './dto/ecosystem.response'
import { EcosystemOrgParams } from './dto/ecosystem-org.params'
import { ListEcosystemsQuery } from './dto/list-ecosystems.query'
import { EcosystemsService } from './ecosystems.service'

/**
 * Ecosystems (spec: Endpoints, Ecosystems). Every route needs a token; the ecosystem roles are checked by the
 * services (EcosystemAccess), since the organization of a route is in its query, its body or its ecosystem.
 */
@EcosystemController()
export class EcosystemsController {
  public constructor(private readonly ecosystems: EcosystemsService) {}

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
