import { Body, CurrentUser, Delete, Get, HttpCode, Params, Post } from 'routing-controllers'
import type { Principal } from '../../infra/auth/token.service'
import { arrayOf } from '../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import type { DocumentedErrorStatus } from '../../infra/http/response-doc'
import { WALLET_ROUTE_ERRORS, WalletController, WalletRoute } from '../cloud-wallet/wallet-route'
import {
  WalletAcceptOfferDto,
  WalletAcceptRequestDto,
  WalletHeldCredentialParams,
  WalletResolveOfferDto,
  WalletResolveRequestDto,
  WalletTrustAnchorParams,
} from './dto/wallet-oid4vc.dto'
import {
  WALLET_DELETED_SCHEMA,
  WALLET_HELD_CREDENTIAL_SCHEMA,
  WALLET_OFFER_SUMMARY_SCHEMA,
  WALLET_REQUEST_ANSWER_SCHEMA,
  WALLET_REQUEST_SUMMARY_SCHEMA,
  type WalletDeletedResponse,
  type WalletHeldCredentialResponse,
  type WalletOfferSummaryResponse,
  type WalletRequestAnswerResponse,
  type WalletRequestSummaryResponse,
} from './dto/wallet-oid4vc.response'
import { WalletOpenId4VcService } from './wallet-openid4vc.service'
import { X509TrustAnchorDto } from '../x509/dto/x509-trust-anchor.dto'
import { X509_TRUST_ANCHOR_SCHEMA, type X509TrustAnchorResponse } from '../x509/dto/x509-trust-anchor.response'

/** The wallet routes' refusals, and 501 from a configured base wallet that runs without OpenID4VC. */
const ERRORS: readonly DocumentedErrorStatus[] = [...WALLET_ROUTE_ERRORS, 501]

/**
 * The cloud wallet as an OpenID4VC holder (extension, issue 29 item 5; docs/api-usage.md, "Cloud wallet:
 * OpenID4VC"). Served only while HIDE_EXPERIMENTAL_OIDC_CONTROLLERS is false. Like every wallet route: a signed-in
 * user's own wallet only (an organization client gets 403).
 */
@WalletController()
export class WalletOpenId4VcController {
  public constructor(private readonly holder: WalletOpenId4VcService) {}

  @Post('/cloud-wallet/oid4vc/offers/resolve')
  @HttpCode(200)
  @WalletRoute(
    'What a credential offer holds: issuer, credentials and claims, whether a tx code is needed',
    WALLET_OFFER_SUMMARY_SCHEMA,
    ERRORS,
  )
  async resolveOffer(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: WalletResolveOfferDto,
  ): Promise<Envelope<WalletOfferSummaryResponse>> {
    return ok(await this.holder.resolveOffer(principal, body.offerUri), 'Credential offer resolved')
  }

  @Post('/cloud-wallet/oid4vc/offers/accept')
  @HttpCode(201)
  @WalletRoute(
    'Accept a credential offer (with its tx code): the credentials received',
    arrayOf(WALLET_HELD_CREDENTIAL_SCHEMA),
    ERRORS,
  )
  async acceptOffer(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: WalletAcceptOfferDto,
  ): Promise<Envelope<WalletHeldCredentialResponse[]>> {
    return created(await this.holder.acceptOffer(principal, body), 'Credential offer accepted')
  }

  @Get('/cloud-wallet/oid4vc/credentials')
  @WalletRoute("The cloud wallet's OpenID4VC credentials, oldest first", arrayOf(WALLET_HELD_CREDENTIAL_SCHEMA), ERRORS)
  async credentials(
    @CurrentUser({ required: true }) principal: Principal,
  ): Promise<Envelope<WalletHeldCredentialResponse[]>> {
    return ok(await this.holder.listCredentials(principal), 'Credentials fetched')
  }

  @Delete('/cloud-wallet/oid4vc/credentials/:credentialId')
  @WalletRoute('Delete an OpenID4VC credential of the cloud wallet', WALLET_DELETED_SCHEMA, ERRORS)
  async deleteCredential(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: WalletHeldCredentialParams,
  ): Promise<Envelope<WalletDeletedResponse>> {
    return ok(await this.holder.deleteCredential(principal, params.credentialId), 'Credential deleted')
  }

  @Post('/cloud-wallet/oid4vp/requests/resolve')
  @HttpCode(200)
  @WalletRoute(
    'What an authorization request asks: the verifier, each credential query, the matching credentials',
    WALLET_REQUEST_SUMMARY_SCHEMA,
    ERRORS,
  )
  async resolveRequest(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: WalletResolveRequestDto,
  ): Promise<Envelope<WalletRequestSummaryResponse>> {
    return ok(await this.holder.resolveRequest(principal, body.requestUri), 'Authorization request resolved')
  }

  @Post('/cloud-wallet/oid4vp/requests/accept')
  @HttpCode(200)
  @WalletRoute(
    "Answer an authorization request with the holder's choice of credentials and claims",
    WALLET_REQUEST_ANSWER_SCHEMA,
    ERRORS,
  )
  async acceptRequest(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: WalletAcceptRequestDto,
  ): Promise<Envelope<WalletRequestAnswerResponse>> {
    return ok(await this.holder.acceptRequest(principal, body), 'Authorization request answered')
  }

  @Post('/cloud-wallet/oid4vc/trust-anchors')
  @HttpCode(201)
  @WalletRoute(
    'Trust an x509 certificate (issuers and verifiers signing by x5c chain to it)',
    X509_TRUST_ANCHOR_SCHEMA,
    ERRORS,
  )
  async addTrustAnchor(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: X509TrustAnchorDto,
  ): Promise<Envelope<X509TrustAnchorResponse>> {
    return created(await this.holder.addTrustAnchor(principal, body), 'Trust anchor added')
  }

  @Get('/cloud-wallet/oid4vc/trust-anchors')
  @WalletRoute("The cloud wallet's trust anchors", arrayOf(X509_TRUST_ANCHOR_SCHEMA), ERRORS)
  async trustAnchors(
    @CurrentUser({ required: true }) principal: Principal,
  ): Promise<Envelope<X509TrustAnchorResponse[]>> {
    return ok(await this.holder.listTrustAnchors(principal), 'Trust anchors fetched')
  }

  @Delete('/cloud-wallet/oid4vc/trust-anchors/:trustAnchorId')
  @WalletRoute('Stop trusting a certificate', WALLET_DELETED_SCHEMA, ERRORS)
  async removeTrustAnchor(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: WalletTrustAnchorParams,
  ): Promise<Envelope<WalletDeletedResponse>> {
    return ok(await this.holder.removeTrustAnchor(principal, params.trustAnchorId), 'Trust anchor removed')
  }
}
