import { Body, CurrentUser, Get, HttpCode, Params, Post, QueryParams } from 'routing-controllers'
import type { Principal } from '../../../infra/auth/token.service'
import { arrayOf } from '../../../infra/http/data-schema'
import { created, ok, type Envelope } from '../../../infra/http/envelope'
import { WalletController, WalletRoute } from '../wallet-route'
import type { ProofRecordJson } from '@idplane/common/agent-contract/admin-api'
import { AcceptProofRequestDto, ProofRecordIdParams, WalletProofsQuery } from '../dto/wallet.dto'
import { WALLET_FORMAT_DATA_SCHEMA, WALLET_PROOF_SCHEMA } from '../dto/wallet.response'
import { WalletProofsService } from './wallet-proofs.service'

/**
 * Spec: Cloud wallet, proofs. Every route needs a signed-in user (an organization client gets 403) and acts on the
 * caller's own tenant only; 409 while no base wallet is configured, 404 before the caller created a wallet.
 */
@WalletController()
export class WalletProofsController {
  public constructor(private readonly walletProofs: WalletProofsService) {}

  @Get('/proofs')
  @WalletRoute("The cloud wallet's proof records", arrayOf(WALLET_PROOF_SCHEMA))
  async proofs(
    @CurrentUser({ required: true }) principal: Principal,
    @QueryParams() query: WalletProofsQuery,
  ): Promise<Envelope<ProofRecordJson[]>> {
    return ok(await this.walletProofs.list(principal, query), 'Proofs fetched')
  }

  @Get('/proofs/:proofRecordId')
  @WalletRoute('One proof record of the cloud wallet', WALLET_PROOF_SCHEMA)
  async proof(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ProofRecordIdParams,
  ): Promise<Envelope<ProofRecordJson>> {
    return ok(await this.walletProofs.get(principal, params.proofRecordId), 'Proof fetched')
  }

  @Get('/proofs/:proofRecordId/format-data')
  @WalletRoute(
    'What a proof request of the cloud wallet asks for (and what was presented), by format',
    WALLET_FORMAT_DATA_SCHEMA,
  )
  async proofFormatData(
    @CurrentUser({ required: true }) principal: Principal,
    @Params() params: ProofRecordIdParams,
  ): Promise<Envelope<Record<string, unknown>>> {
    return ok(await this.walletProofs.formatData(principal, params.proofRecordId), 'Format data fetched')
  }

  @Post('/proofs/accept-request')
  @HttpCode(201)
  @WalletRoute('Answer a proof request the cloud wallet received', WALLET_PROOF_SCHEMA)
  async acceptProofRequest(
    @CurrentUser({ required: true }) principal: Principal,
    @Body({ required: true }) body: AcceptProofRequestDto,
  ): Promise<Envelope<ProofRecordJson>> {
    return created(await this.walletProofs.acceptRequest(principal, body), 'Proof request accepted')
  }
}
