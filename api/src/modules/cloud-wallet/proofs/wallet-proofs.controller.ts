import { injectable } from 'inversify'
import {
  Authorized,
  Body,
  CurrentUser,
  Get,
  HttpCode,
  JsonController,
  Params,
  Post,
  QueryParams,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { Principal } from '../../../infra/auth/token.service'
import { arrayOf } from '../../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../../infra/http/envelope'
import { ResponseData } from '../../../infra/http/response-doc'
import type { ProofRecordJson } from '@idplane/common/agent-contract/admin-api'
import { AcceptProofRequestDto, ProofRecordIdParams, WalletProofsQuery } from '../dto/wallet.dto'
import { WALLET_FORMAT_DATA_SCHEMA, WALLET_PROOF_SCHEMA } from '../dto/wallet.response'
import { WalletProofsService } from './wallet-proofs.service'

/**
 * Spec: Cloud wallet, proofs. Every route needs a signed-in user (an organization client gets 403) and acts on the
 * caller's own tenant only; 409 while no base wallet is configured, 404 before the caller created a wallet.
 */
@injectable()
@JsonController('/v1')
@OpenAPI({ tags: ['Cloud wallet'] })
export class WalletProofsController {
  public constructor(private readonly walletProofs: WalletProofsService) {}

  @Get('/proofs')
  @Authorized()
  @OpenAPI({ summary: "The cloud wallet's proof records" })
  @ResponseData(arrayOf(WALLET_PROOF_SCHEMA), { errors: [403, 404, 409, 502, 503] })
  async proofs(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: WalletProofsQuery,
  ): Promise<Envelope<ProofRecordJson[]>> {
    return ok(await this.walletProofs.list(principal, query), 'Proofs fetched')
  }

  @Get('/proofs/:proofRecordId')
  @Authorized()
  @OpenAPI({ summary: 'One proof record of the cloud wallet' })
  @ResponseData(WALLET_PROOF_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async proof(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ProofRecordIdParams,
  ): Promise<Envelope<ProofRecordJson>> {
    return ok(await this.walletProofs.get(principal, params.proofRecordId), 'Proof fetched')
  }

  @Get('/proofs/:proofRecordId/format-data')
  @Authorized()
  @OpenAPI({ summary: 'What a proof request of the cloud wallet asks for (and what was presented), by format' })
  @ResponseData(WALLET_FORMAT_DATA_SCHEMA, { errors: [403, 404, 409, 502, 503] })
  async proofFormatData(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ProofRecordIdParams,
  ): Promise<Envelope<Record<string, unknown>>> {
    return ok(await this.walletProofs.formatData(principal, params.proofRecordId), 'Format data fetched')
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
    return created(await this.walletProofs.acceptRequest(principal, body), 'Proof request accepted')
  }
}
