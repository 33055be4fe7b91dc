import { Body, CurrentUser, Get, HttpCode, Params, Post, QueryParams } from 'routing-controllers'
import type { Principal } from '../../../infra/auth/token.service'
import { arrayOf } from '../../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../../infra/http/envelope'
import { WalletController, WalletRoute } from '../wallet-route'
import type { CredentialRecordJson } from '@idplane/common/agent-contract/admin-api'
import { AcceptOfferDto, CredentialRecordIdParams, WalletCredentialsQuery } from '../dto/wallet.dto'
import { WALLET_CREDENTIAL_SCHEMA, WALLET_FORMAT_DATA_SCHEMA } from '../dto/wallet.response'
import { WalletCredentialsService } from './wallet-credentials.service'

/**
 * Spec: Cloud wallet, credentials. Every route needs a signed-in user (an organization client gets 403) and acts on the
 * caller's own tenant only; 409 while no base wallet is configured, 404 before the caller created a wallet.
 */
@WalletController()
export class WalletCredentialsController {
  public constructor(private readonly walletCredentials: WalletCredentialsService) {}

  @Get('/credential')
  @WalletRoute("The cloud wallet's credential records, filtered", arrayOf(WALLET_CREDENTIAL_SCHEMA))
  async credentials(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: WalletCredentialsQuery,
  ): Promise<Envelope<CredentialRecordJson[]>> {
    return ok(await this.walletCredentials.list(principal, query), 'Credentials fetched')
  }

  @Get('/credential/:credentialRecordId')
  @WalletRoute('One credential record of the cloud wallet', WALLET_CREDENTIAL_SCHEMA)
  async credential(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: CredentialRecordIdParams,
  ): Promise<Envelope<CredentialRecordJson>> {
    return ok(await this.walletCredentials.get(principal, params.credentialRecordId), 'Credential fetched')
  }

  @Get('/credential/:credentialRecordId/format-data')
  @WalletRoute(
    'What a credential offer of the cloud wallet holds (or the credential issued), by format',
    WALLET_FORMAT_DATA_SCHEMA,
  )
  async credentialFormatData(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: CredentialRecordIdParams,
  ): Promise<Envelope<Record<string, unknown>>> {
    return ok(await this.walletCredentials.formatData(principal, params.credentialRecordId), 'Format data fetched')
  }

  @Post('/accept-offer')
  @HttpCode(201)
  @WalletRoute('Accept a credential offer the cloud wallet received', WALLET_CREDENTIAL_SCHEMA)
  async acceptOffer(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: AcceptOfferDto,
  ): Promise<Envelope<CredentialRecordJson>> {
    return created(await this.walletCredentials.acceptOffer(principal, body), 'Offer accepted')
  }
}
