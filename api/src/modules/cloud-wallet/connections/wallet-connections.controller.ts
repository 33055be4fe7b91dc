import { Body, CurrentUser, Get, HttpCode, Params, Post, QueryParams } from 'routing-controllers'
import type { Principal } from '../../../infra/auth/token.service'
import { arrayOf } from '../../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../../infra/http/envelope'
import { WalletController, WalletRoute } from '../wallet-route'
import type {
  ConnectionRecordJson,
  CreatedInvitation,
  ReceivedInvitation,
} from '@idplane/common/agent-contract/admin-api'
import { ReceiveInvitationUrlDto } from '../../connections/dto/receive-invitation.dto'
import { ConnectionIdParams, WalletConnectionsQuery, WalletInvitationDto } from '../dto/wallet.dto'
import {
  WALLET_CONNECTION_SCHEMA,
  WALLET_INVITATION_SCHEMA,
  WALLET_RECEIVED_INVITATION_SCHEMA,
} from '../dto/wallet.response'
import { WalletConnectionsService } from './wallet-connections.service'

/**
 * Spec: Cloud wallet, connections. Every route needs a signed-in user (an organization client gets 403) and acts on the
 * caller's own tenant only; 409 while no base wallet is configured, 404 before the caller created a wallet.
 */
@WalletController()
export class WalletConnectionsController {
  public constructor(private readonly walletConnections: WalletConnectionsService) {}

  @Post('/connections/invitation')
  @HttpCode(201)
  @WalletRoute('Create a connection invitation from the cloud wallet', WALLET_INVITATION_SCHEMA)
  async createInvitation(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: false }) body: WalletInvitationDto,
  ): Promise<Envelope<CreatedInvitation>> {
    return created(await this.walletConnections.createInvitation(principal, body ?? {}), 'Invitation created')
  }

  @Get('/connections')
  @WalletRoute("The cloud wallet's connections, filtered", arrayOf(WALLET_CONNECTION_SCHEMA))
  async connections(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: WalletConnectionsQuery,
  ): Promise<Envelope<ConnectionRecordJson[]>> {
    return ok(await this.walletConnections.list(principal, query), 'Connections fetched')
  }

  @Get('/connection/:connectionId')
  @WalletRoute('One connection of the cloud wallet', WALLET_CONNECTION_SCHEMA)
  async connection(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ConnectionIdParams,
  ): Promise<Envelope<ConnectionRecordJson>> {
    return ok(await this.walletConnections.get(principal, params.connectionId), 'Connection fetched')
  }

  @Post('/receive-invitation-url')
  @HttpCode(201)
  @WalletRoute('Receive an out-of-band invitation URL into the cloud wallet', WALLET_RECEIVED_INVITATION_SCHEMA)
  async receiveInvitationUrl(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: ReceiveInvitationUrlDto,
  ): Promise<Envelope<ReceivedInvitation>> {
    return created(await this.walletConnections.receiveInvitationUrl(principal, body), 'Invitation received')
  }
}
