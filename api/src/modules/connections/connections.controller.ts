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
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { toPage } from '../../infra/http/pagination'
import { ResponseData } from '../../infra/http/response-doc'
import { integer, object } from '../../infra/http/data-schema'
import { ORG_ROLES } from '../memberships/org-roles'
import { ConnectionsService } from './connections.service'
import {
  CONNECTION_PAGE_SCHEMA,
  CONNECTION_SCHEMA,
  INVITATION_RESULT_SCHEMA,
  RECEIVED_INVITATION_SCHEMA,
  toConnectionListItem,
  type ConnectionDetail,
  type ConnectionPage,
  type InvitationResult,
  type ReceivedInvitationResult,
} from './dto/connection.response'
import { ConnectionPathParams } from './dto/connection-path.params'
import { CreateConnectionInvitationDto } from './dto/create-invitation.dto'
import { ListConnectionsQuery } from './dto/list-connections.query'
import { ReceiveInvitationDto, ReceiveInvitationUrlDto } from './dto/receive-invitation.dto'

const DELETED_SCHEMA = object<{ deletedCount: number }>('DeletedConnections', { deletedCount: integer })

/** Spec: Connections (organization level); `POST .../accept` is our extension (docs/api-usage.md). */
@injectable()
@JsonController('/v1/orgs/:orgId')
@OpenAPI({ tags: ['Connections'] })
export class ConnectionsController {
  public constructor(private readonly connections: ConnectionsService) {}

  @Get('/connections')
  @Authorized(ORG_ROLES.members)
  @OpenAPI({ summary: "The organization's connections, paginated; search by label, alias, their DID or id" })
  @ResponseData(CONNECTION_PAGE_SCHEMA)
  async list(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListConnectionsQuery,
  ): Promise<Envelope<ConnectionPage>> {
    const [rows, total] = await this.connections.list(orgId, query)
    const { data, ...paging } = toPage(rows.map(toConnectionListItem), total, query)
    return ok({ ...paging, connections: data }, 'Connections fetched')
  }

  @Get('/connections/:connectionId')
  @Authorized(ORG_ROLES.members)
  @OpenAPI({ summary: 'One connection, brought up to date with the agent when it answers' })
  @ResponseData(CONNECTION_SCHEMA)
  async get(@Params() params: ConnectionPathParams): Promise<Envelope<ConnectionDetail>> {
    return ok(await this.connections.get(params.orgId, params.connectionId), 'Connection fetched')
  }

  @Post('/connections')
  @HttpCode(201)
  @Authorized(ORG_ROLES.members)
  @OpenAPI({ summary: "Create an out-of-band invitation of the organization's agent; every field optional" })
  @ResponseData(INVITATION_RESULT_SCHEMA, { errors: [409, 502] })
  async createInvitation(
    @Param('orgId') orgId: string,
    @Body({ required: false }) body: CreateConnectionInvitationDto = new CreateConnectionInvitationDto(),
  ): Promise<Envelope<InvitationResult>> {
    return created(await this.connections.createInvitation(orgId, body), 'Connection invitation created')
  }

  @Post('/connections/:connectionId/accept')
  @HttpCode(201)
  @Authorized(ORG_ROLES.members)
  @OpenAPI({
    summary: 'Extension: accept a connection request that waits (invitation made with autoAcceptConnection false)',
  })
  @ResponseData(CONNECTION_SCHEMA, { errors: [409, 502] })
  async accept(@Params() params: ConnectionPathParams): Promise<Envelope<ConnectionDetail>> {
    return created(await this.connections.accept(params.orgId, params.connectionId), 'Connection request accepted')
  }

  @Post('/receive-invitation-url')
  @HttpCode(201)
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: 'Receive an out-of-band invitation by URL (a short link too) and connect' })
  @ResponseData(RECEIVED_INVITATION_SCHEMA, { errors: [409, 502] })
  async receiveInvitationUrl(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: ReceiveInvitationUrlDto,
  ): Promise<Envelope<ReceivedInvitationResult>> {
    return created(await this.connections.receiveInvitationUrl(orgId, body), 'Invitation received')
  }

  @Post('/receive-invitation')
  @HttpCode(201)
  @Authorized(ORG_ROLES.ownerAdmin)
  @OpenAPI({ summary: 'Receive an out-of-band invitation object and connect' })
  @ResponseData(RECEIVED_INVITATION_SCHEMA, { errors: [409, 502] })
  async receiveInvitation(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: ReceiveInvitationDto,
  ): Promise<Envelope<ReceivedInvitationResult>> {
    return created(await this.connections.receiveInvitation(orgId, body), 'Invitation received')
  }

  @Delete('/connections')
  @Authorized(ORG_ROLES.owner)
  @OpenAPI({ summary: "Irreversibly delete every connection of the organization, the agent's records too" })
  @ResponseData(DELETED_SCHEMA, { errors: [409, 502] })
  async deleteAll(@Param('orgId') orgId: string): Promise<Envelope<{ deletedCount: number }>> {
    return ok({ deletedCount: await this.connections.deleteAll(orgId) }, 'Connections deleted')
  }
}
