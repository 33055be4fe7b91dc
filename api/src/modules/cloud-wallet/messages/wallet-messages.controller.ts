import { injectable } from 'inversify'
import { Authorized, Body, CurrentUser, Get, HttpCode, JsonController, Params, Post } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { Principal } from '../../../infra/auth/token.service'
import { arrayOf } from '../../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../../infra/http/envelope'
import { ResponseData } from '../../../infra/http/response-doc'
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
@injectable()
@JsonController('/v1')
@OpenAPI({ tags: ['Cloud wallet'] })
export class WalletMessagesController {
  public constructor(private readonly walletMessages: WalletMessagesService) {}

  @Post('/basic-message/:connectionId')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Send a basic message over a connection of the cloud wallet' })
  @ResponseData(WALLET_BASIC_MESSAGE_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async sendBasicMessage(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ConnectionIdParams,
    @Body({ required: true }) body: SendBasicMessageDto,
  ): Promise<Envelope<BasicMessageRecordJson>> {
    return created(await this.walletMessages.send(principal, params.connectionId, body.content), 'Message sent')
  }

  @Get('/basic-message/:connectionId')
  @Authorized()
  @OpenAPI({ summary: 'Every basic message of one connection of the cloud wallet' })
  @ResponseData(arrayOf(WALLET_BASIC_MESSAGE_SCHEMA), { errors: [403, 404, 409, 502, 503] })
  async basicMessages(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ConnectionIdParams,
  ): Promise<Envelope<BasicMessageRecordJson[]>> {
    return ok(await this.walletMessages.list(principal, params.connectionId), 'Messages fetched')
  }
}
