import { Body, CurrentUser, Get, HttpCode, Params, Post } from 'routing-controllers'
import type { Principal } from '../../../infra/auth/token.service'
import { arrayOf } from '../../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../../infra/http/envelope'
import { WalletController, WalletRoute } from '../wallet-route'
import type { BasicMessageRecordJson } from '@idplane/common/agent-contract/admin-api'
import { SendBasicMessageDto } from '../../messages/dto/message.dto'
import { ConnectionIdParams } from '../dto/wallet.dto'
import { WALLET_BASIC_MESSAGE_SCHEMA } from '../dto/wallet.response'
import { WalletMessagesService } from './wallet-messages.service'

/**
 * Spec: Cloud wallet, basic messages (the spec's unnamed routes: docs/decisions.md, "Cloud wallet"). Every route
 * needs a signed-in user (an organization client gets 403) and acts on the caller's own tenant only; 409 while
 * no base wallet is configured, 404 before the caller created a wallet.
 */
@WalletController()
export class WalletMessagesController {
  public constructor(private readonly walletMessages: WalletMessagesService) {}

  @Post('/basic-message/:connectionId')
  @HttpCode(201)
  @WalletRoute('Send a basic message over a connection of the cloud wallet', WALLET_BASIC_MESSAGE_SCHEMA)
  async sendBasicMessage(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ConnectionIdParams,
    @Body({ required: true }) body: SendBasicMessageDto,
  ): Promise<Envelope<BasicMessageRecordJson>> {
    return created(await this.walletMessages.send(principal, params.connectionId, body.content), 'Message sent')
  }

  @Get('/basic-message/:connectionId')
  @WalletRoute('Every basic message of one connection of the cloud wallet', arrayOf(WALLET_BASIC_MESSAGE_SCHEMA))
  async basicMessages(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ConnectionIdParams,
  ): Promise<Envelope<BasicMessageRecordJson[]>> {
    return ok(await this.walletMessages.list(principal, params.connectionId), 'Messages fetched')
  }
}
