import { injectable } from 'inversify'
import {
  Authorized,
  Body,
  CurrentUser,
  Get,
  HttpCode,
  JsonController,
  Params,
  Patch,
  Post,
  QueryParams,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type {
  BasicMessageRecordJson,
  ConnectionRecordJson,
  CreatedDid,
  CreatedInvitation,
  CredentialRecordJson,
  DidListEntry,
  ProofRecordJson,
  ReceivedInvitation,
} from '@idplane/common/agent-contract/admin-api'
import type { Principal } from '../../infra/auth/token.service'
import { arrayOf } from '../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { ResponseData } from '../../infra/http/response-doc'
import { ReceiveInvitationUrlDto } from '../connections/dto/receive-invitation.dto'
import { SendBasicMessageDto } from '../messages/dto/message.dto'
import { RegisterWebhookDto, UpdateWebhookDto } from '../webhooks/dto/register-webhook.dto'
import { WEBHOOK_SCHEMA, type WebhookResponse } from '../webhooks/dto/webhook.response'
import { BaseWalletService } from './base-wallet.service'
import { CloudWalletsService } from './cloud-wallets.service'
import {
  AcceptOfferDto,
  AcceptProofRequestDto,
  ConfigureBaseWalletDto,
  ConnectionIdParams,
  CreateWalletDidDto,
  CreateWalletDto,
  CredentialRecordIdParams,
  ProofRecordIdParams,
  WalletConnectionsQuery,
  WalletCredentialsQuery,
  WalletInvitationDto,
  WalletProofsQuery,
} from './dto/wallet.dto'
import {
  BASE_WALLET_SCHEMA,
  CLOUD_WALLET_SCHEMA,
  WALLET_BASIC_MESSAGE_SCHEMA,
  WALLET_CONNECTION_SCHEMA,
  WALLET_CREATED_DID_SCHEMA,
  WALLET_CREDENTIAL_SCHEMA,
  WALLET_FORMAT_DATA_SCHEMA,
  WALLET_DID_SCHEMA,
  WALLET_INVITATION_SCHEMA,
  WALLET_PROOF_SCHEMA,
  WALLET_RECEIVED_INVITATION_SCHEMA,
  type BaseWalletResponse,
  type CloudWalletResponse,
} from './dto/wallet.response'

/**
 * Spec: Cloud wallet. Every route needs a signed-in user (an organization client gets 403); the wallet routes act
 * on the caller's own tenant only. 409 while no base wallet is configured, 404 before the caller created a wallet.
 * The two basic-message routes are the spec's unnamed ones (docs/decisions.md, "Cloud wallet").
 */
@injectable()
@JsonController('/v1')
@OpenAPI({ tags: ['Cloud wallet'] })
export class CloudWalletController {
  public constructor(
    private readonly base: BaseWalletService,
    private readonly wallets: CloudWalletsService,
  ) {}

  @Post('/configure/base-wallet')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Configure the multi-tenant agent that holds the cloud wallets. Platform admin only.' })
  @ResponseData(BASE_WALLET_SCHEMA, { errors: [403, 409, 502] })
  async configureBaseWallet(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: ConfigureBaseWalletDto,
  ): Promise<Envelope<BaseWalletResponse>> {
    return created(await this.base.configure(principal, body), 'Base wallet configured')
  }

  @Post('/create-wallet')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: "Create the caller's cloud wallet (one per user)" })
  @ResponseData(CLOUD_WALLET_SCHEMA, { errors: [403, 409, 502, 503] })
  async createWallet(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: CreateWalletDto,
  ): Promise<Envelope<CloudWalletResponse>> {
    return created(await this.wallets.create(principal, body), 'Wallet created')
  }

  @Post('/connections/invitation')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Create a connection invitation from the cloud wallet' })
  @ResponseData(WALLET_INVITATION_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async createInvitation(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: false }) body: WalletInvitationDto,
  ): Promise<Envelope<CreatedInvitation>> {
    return created(await this.wallets.createInvitation(principal, body ?? {}), 'Invitation created')
  }

  @Get('/connections')
  @Authorized()
  @OpenAPI({ summary: "The cloud wallet's connections, filtered" })
  @ResponseData(arrayOf(WALLET_CONNECTION_SCHEMA), { errors: [403, 404, 409, 502, 503] })
  async connections(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: WalletConnectionsQuery,
  ): Promise<Envelope<ConnectionRecordJson[]>> {
    return ok(await this.wallets.connections(principal, query), 'Connections fetched')
  }

  @Get('/connection/:connectionId')
  @Authorized()
  @OpenAPI({ summary: 'One connection of the cloud wallet' })
  @ResponseData(WALLET_CONNECTION_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async connection(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ConnectionIdParams,
  ): Promise<Envelope<ConnectionRecordJson>> {
    return ok(await this.wallets.connection(principal, params.connectionId), 'Connection fetched')
  }

  @Post('/receive-invitation-url')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Receive an out-of-band invitation URL into the cloud wallet' })
  @ResponseData(WALLET_RECEIVED_INVITATION_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async receiveInvitationUrl(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: ReceiveInvitationUrlDto,
  ): Promise<Envelope<ReceivedInvitation>> {
    return created(await this.wallets.receiveInvitationUrl(principal, body), 'Invitation received')
  }

  @Get('/credential')
  @Authorized()
  @OpenAPI({ summary: "The cloud wallet's credential records, filtered" })
  @ResponseData(arrayOf(WALLET_CREDENTIAL_SCHEMA), { errors: [403, 404, 409, 502, 503] })
  async credentials(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: WalletCredentialsQuery,
  ): Promise<Envelope<CredentialRecordJson[]>> {
    return ok(await this.wallets.credentials(principal, query), 'Credentials fetched')
  }

  @Get('/credential/:credentialRecordId')
  @Authorized()
  @OpenAPI({ summary: 'One credential record of the cloud wallet' })
  @ResponseData(WALLET_CREDENTIAL_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async credential(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: CredentialRecordIdParams,
  ): Promise<Envelope<CredentialRecordJson>> {
    return ok(await this.wallets.credential(principal, params.credentialRecordId), 'Credential fetched')
  }

  @Get('/credential/:credentialRecordId/format-data')
  @Authorized()
  @OpenAPI({ summary: 'What a credential offer of the cloud wallet holds (or the credential issued), by format' })
  @ResponseData(WALLET_FORMAT_DATA_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async credentialFormatData(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: CredentialRecordIdParams,
  ): Promise<Envelope<Record<string, unknown>>> {
    return ok(await this.wallets.credentialFormatData(principal, params.credentialRecordId), 'Format data fetched')
  }

  @Post('/accept-offer')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Accept a credential offer the cloud wallet received' })
  @ResponseData(WALLET_CREDENTIAL_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async acceptOffer(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: AcceptOfferDto,
  ): Promise<Envelope<CredentialRecordJson>> {
    return created(await this.wallets.acceptOffer(principal, body), 'Offer accepted')
  }

  @Get('/proofs')
  @Authorized()
  @OpenAPI({ summary: "The cloud wallet's proof records" })
  @ResponseData(arrayOf(WALLET_PROOF_SCHEMA), { errors: [403, 404, 409, 502, 503] })
  async proofs(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: WalletProofsQuery,
  ): Promise<Envelope<ProofRecordJson[]>> {
    return ok(await this.wallets.proofs(principal, query), 'Proofs fetched')
  }

  @Get('/proofs/:proofRecordId')
  @Authorized()
  @OpenAPI({ summary: 'One proof record of the cloud wallet' })
  @ResponseData(WALLET_PROOF_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async proof(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ProofRecordIdParams,
  ): Promise<Envelope<ProofRecordJson>> {
    return ok(await this.wallets.proof(principal, params.proofRecordId), 'Proof fetched')
  }

  @Get('/proofs/:proofRecordId/format-data')
  @Authorized()
  @OpenAPI({ summary: 'What a proof request of the cloud wallet asks for (and what was presented), by format' })
  @ResponseData(WALLET_FORMAT_DATA_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async proofFormatData(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ProofRecordIdParams,
  ): Promise<Envelope<Record<string, unknown>>> {
    return ok(await this.wallets.proofFormatData(principal, params.proofRecordId), 'Format data fetched')
  }

  @Post('/proofs/accept-request')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Answer a proof request the cloud wallet received' })
  @ResponseData(WALLET_PROOF_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async acceptProofRequest(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: AcceptProofRequestDto,
  ): Promise<Envelope<ProofRecordJson>> {
    return created(await this.wallets.acceptProofRequest(principal, body), 'Proof request accepted')
  }

  @Post('/did')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({ summary: 'Create a DID in the cloud wallet (key, peer, web; indy answers 501 for now)' })
  @ResponseData(WALLET_CREATED_DID_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async createDid(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: CreateWalletDidDto,
  ): Promise<Envelope<CreatedDid>> {
    return created(await this.wallets.createDid(principal, body), 'DID created')
  }

  @Get('/did')
  @Authorized()
  @OpenAPI({ summary: 'Every DID of the cloud wallet' })
  @ResponseData(arrayOf(WALLET_DID_SCHEMA), { errors: [403, 404, 409, 502, 503] })
  async dids(@CurrentUser({ required: true }) principal: Principal): Promise<Envelope<DidListEntry[]>> {
    return ok(await this.wallets.dids(principal), 'DIDs fetched')
  }

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
    return created(await this.wallets.sendBasicMessage(principal, params.connectionId, body.content), 'Message sent')
  }

  @Get('/basic-message/:connectionId')
  @Authorized()
  @OpenAPI({ summary: 'Every basic message of one connection of the cloud wallet' })
  @ResponseData(arrayOf(WALLET_BASIC_MESSAGE_SCHEMA), { errors: [403, 404, 409, 502, 503] })
  async basicMessages(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ConnectionIdParams,
  ): Promise<Envelope<BasicMessageRecordJson[]>> {
    return ok(await this.wallets.basicMessages(principal, params.connectionId), 'Messages fetched')
  }

  @Post('/webhooks/wallet/register')
  @HttpCode(201)
  @Authorized()
  @OpenAPI({
    summary:
      "Register the webhook of the caller's cloud wallet (replaces an earlier one); read it with GET /webhooks/orgs/webhookurl?tenantId=",
  })
  @ResponseData(WEBHOOK_SCHEMA, { errors: [403, 404] })
  async registerWebhook(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: RegisterWebhookDto,
  ): Promise<Envelope<WebhookResponse>> {
    return created(await this.wallets.registerWebhook(principal, body), 'Webhook registered')
  }

  @Patch('/webhooks/wallet')
  @Authorized()
  @OpenAPI({ summary: "Change the URL, secret or both of the caller's cloud-wallet webhook" })
  @ResponseData(WEBHOOK_SCHEMA, { errors: [403, 404] })
  async updateWebhook(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: UpdateWebhookDto,
  ): Promise<Envelope<WebhookResponse>> {
    return ok(await this.wallets.updateWebhook(principal, body), 'Webhook updated')
  }
}
