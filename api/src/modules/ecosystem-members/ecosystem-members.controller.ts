import { Authorized, Body, CurrentUser, Delete, Get, Put, QueryParams } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { EcosystemController } from '../ecosystems/ecosystem-controller'
import type { Principal } from '../../infra/auth/token.service'
import { messageOnly, pageOf } from '../../infra/http/data-schema'
import { done, ok, type Envelope } from '../../infra/http/envelope'
import { type Page } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import {
  ECOSYSTEM_MEMBERSHIP_SCHEMA,
  ECOSYSTEM_MEMBERSHIPS_SCHEMA,
  toMembershipPage,
  toMembershipResponse,
  type EcosystemMembershipResponse,
} from '../ecosystems/dto/ecosystem.response'
import { EcosystemMembersDto, ListEcosystemMembersQuery, MemberStatusQuery } from './dto/ecosystem-members.dto'
import { EcosystemMembersService } from './ecosystem-members.service'

/**
 * Ecosystem members (spec: Endpoints, Ecosystems). Every route needs a token; the ecosystem roles are checked by the
 * service (EcosystemAccess), since the organization of a route is in its query, its body or its ecosystem.
 */
@EcosystemController()
export class EcosystemMembersController {
  public constructor(private readonly members: EcosystemMembersService) {}

  @Get('/members')
  @Authorized()
  @OpenAPI({ summary: 'Every organization of the ecosystem with its role and status (ecosystem lead)' })
  @ResponseData(pageOf(ECOSYSTEM_MEMBERSHIP_SCHEMA), { errors: [403, 404] })
  async listMembers(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: ListEcosystemMembersQuery,
  ): Promise<Envelope<Page<EcosystemMembershipResponse>>> {
    const [rows, total] = await this.members.list(principal, query.ecosystemId, query)
    return ok(toMembershipPage(rows, total, query), 'Ecosystem members fetched')
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
}
