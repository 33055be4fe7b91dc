import { Body, CurrentUser, Get, HttpCode, Post } from 'routing-controllers'
import type { Principal } from '../../../infra/auth/token.service'
import { arrayOf } from '../../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../../infra/http/envelope'
import { WalletController, WalletRoute } from '../wallet-route'
import type { CreatedDid, DidListEntry } from '@idplane/common/agent-contract/admin-api'
import { CreateWalletDidDto } from '../dto/wallet.dto'
import { WALLET_CREATED_DID_SCHEMA, WALLET_DID_SCHEMA } from '../dto/wallet.response'
import { WalletDidsService } from './wallet-dids.service'

/**
 * Spec: Cloud wallet, DIDs. Every route needs a signed-in user (an organization client gets 403) and acts on the
 * caller's own tenant only; 409 while no base wallet is configured, 404 before the caller created a wallet.
 */
@WalletController()
export class WalletDidsController {
  public constructor(private readonly walletDids: WalletDidsService) {}

  @Post('/did')
  @HttpCode(201)
  @WalletRoute(
    'Create a DID in the cloud wallet: key, peer, web, or indy (written to the platform ledger); or import one: did with its key (seed or privatekey). polygon (no such ledger here) answers 501',
    WALLET_CREATED_DID_SCHEMA,
    [403, 404, 409, 501, 502, 503],
  )
  async createDid(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: CreateWalletDidDto,
  ): Promise<Envelope<CreatedDid>> {
    return created(await this.walletDids.create(principal, body), 'DID created')
  }

  @Get('/did')
  @WalletRoute('Every DID of the cloud wallet', arrayOf(WALLET_DID_SCHEMA))
  async dids(@CurrentUser({ required: true }) principal: Principal): Promise<Envelope<DidListEntry[]>> {
    return ok(await this.walletDids.list(principal), 'DIDs fetched')
  }
}
