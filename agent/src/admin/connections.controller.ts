import {
  type DidCommOutOfBandInvitation,
  DidCommDidExchangeState,
  DidCommMessageHandlerRegistry,
  parseInvitationJson,
} from '@credo-ts/didcomm'
import { InvalidInputError, InvalidStateError, NotFoundError } from '@idplane/common'
import { Authorized, Body, Delete, Get, HttpCode, JsonController, Param, Post, QueryParams } from 'routing-controllers'

import type { AgentRuntime } from './agent-runtime'
import { type AgentScope, CurrentScope } from './agent-scope'
import {
  ConnectionQueryDto,
  CreateInvitationDto,
  ReceiveInvitationDto,
  ReceiveInvitationUrlDto,
} from './dto/connections.dto'
import { created, ok, toJson } from './envelope'
import { InvitationDids } from './invitation-dids'
import { toInvitationOptions } from './oob-invitation-options'

@Authorized()
@JsonController()
export class ConnectionsController {
  private readonly invitationDids = new InvitationDids()

  public constructor(private readonly runtime: AgentRuntime) {}

  /** Field formats: docs/agent.md; the body's JSON becomes Credo's options in oob-invitation-options.ts. */
  @Post('/oob/create-invitation')
  @HttpCode(201)
  public async createInvitation(
    @CurrentScope() scope: AgentScope,
    @Body({ required: false }) body: CreateInvitationDto = new CreateInvitationDto(),
  ) {
    const agent = scope.agent
    const { config, service } = toInvitationOptions(body, {
      label: scope.label,
      imageUrl: scope.imageUrl,
      messageClasses: agent.dependencyManager.resolve(DidCommMessageHandlerRegistry),
    })
    const invitationDid = await this.invitationDids.forInvitation(agent, service)
    const record = await agent.didcomm.oob.createInvitation({ ...config, invitationDid })
    const endpoint = this.runtime.endpoints[0]
    return created(
      {
        invitationUrl: record.outOfBandInvitation.toUrl({ domain: endpoint }),
        invitation: record.outOfBandInvitation.toJSON(),
        outOfBandRecord: record.toJSON(),
      },
      'Invitation created',
    )
  }

  @Post('/oob/receive-invitation-url')
  @HttpCode(201)
  public async receiveInvitationUrl(@CurrentScope() scope: AgentScope, @Body() body: ReceiveInvitationUrlDto) {
    const invitation = await scope.agent.didcomm.oob.parseInvitation(body.invitationUrl)
    return created(await this.receive(scope, invitation, body), 'Invitation received')
  }

  @Post('/oob/receive-invitation')
  @HttpCode(201)
  public async receiveInvitation(@CurrentScope() scope: AgentScope, @Body() body: ReceiveInvitationDto) {
    let invitation: DidCommOutOfBandInvitation
    try {
      invitation = parseInvitationJson(body.invitation)
    } catch (error) {
      throw new InvalidInputError(
        'invitation is not a valid out-of-band invitation',
        [{ field: 'invitation', message: 'invalid' }],
        { cause: error },
      )
    }
    return created(await this.receive(scope, invitation, body), 'Invitation received')
  }

  @Get('/connections')
  public async list(@CurrentScope() scope: AgentScope, @QueryParams() query: ConnectionQueryDto) {
    const records = await scope.agent.didcomm.connections.findAllByQuery({
      outOfBandId: query.outOfBandId,
      did: query.myDid,
      theirDid: query.theirDid,
    })
    // alias and theirLabel are no tags of Credo's connection record (a tag query on them matches nothing): filtered
    // on the records instead.
    return ok(
      toJson(
        records.filter(
          (record) =>
            (query.alias === undefined || record.alias === query.alias) &&
            (query.theirLabel === undefined || record.theirLabel === query.theirLabel),
        ),
      ),
    )
  }

  @Get('/connections/:connectionId')
  public async get(@CurrentScope() scope: AgentScope, @Param('connectionId') connectionId: string) {
    const record = await scope.agent.didcomm.connections.findById(connectionId)
    if (!record) throw new NotFoundError('Connection not found')
    return ok(record.toJSON())
  }

  /**
   * Responder: answers a DID Exchange request that waits for it (an invitation made with `autoAcceptConnection`
   * false).
   * @throws InvalidStateError when the connection is not waiting for an answer to a request
   */
  @Post('/connections/:connectionId/accept-request')
  @HttpCode(201)
  public async acceptRequest(@CurrentScope() scope: AgentScope, @Param('connectionId') connectionId: string) {
    const connections = scope.agent.didcomm.connections
    const record = await connections.findById(connectionId)
    if (!record) throw new NotFoundError('Connection not found')
    if (record.state !== DidCommDidExchangeState.RequestReceived) {
      throw new InvalidStateError(`Connection is in state ${record.state}; no request to accept`)
    }
    return created((await connections.acceptRequest(connectionId)).toJSON(), 'Connection request accepted')
  }

  /** Removes the connection record from this wallet (the other side is not told). */
  @Delete('/connections/:connectionId')
  public async remove(@CurrentScope() scope: AgentScope, @Param('connectionId') connectionId: string) {
    const connections = scope.agent.didcomm.connections
    if (!(await connections.findById(connectionId))) throw new NotFoundError('Connection not found')
    await connections.deleteById(connectionId)
    return ok({ id: connectionId }, 'Connection deleted')
  }

  private async receive(
    scope: AgentScope,
    invitation: DidCommOutOfBandInvitation,
    body: ReceiveInvitationUrlDto | ReceiveInvitationDto,
  ) {
    const { outOfBandRecord, connectionRecord } = await scope.agent.didcomm.oob.receiveInvitation(invitation, {
      label: body.label ?? scope.label,
      alias: body.alias,
      imageUrl: body.imageUrl ?? scope.imageUrl,
      ourDid: body.ourDid,
      autoAcceptConnection: body.autoAcceptConnection ?? false,
      autoAcceptInvitation: body.autoAcceptInvitation ?? false,
      reuseConnection: body.reuseConnection ?? false,
      acceptInvitationTimeoutMs: body.acceptInvitationTimeoutMs,
    })
    return { outOfBandRecord: outOfBandRecord.toJSON(), connectionRecord: connectionRecord?.toJSON() }
  }
}
