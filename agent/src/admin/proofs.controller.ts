import type { DidCommProofState } from '@credo-ts/didcomm'
import { InvalidStateError, NotFoundError } from '@idplane/common'
import { Authorized, Body, Delete, Get, HttpCode, JsonController, Param, Post, QueryParams } from 'routing-controllers'

import type { AgentRuntime } from './agent-runtime'
import { type AgentScope, CurrentScope } from './agent-scope'
import { AcceptProofRequestDto, OobRequestProofDto, ProofQueryDto, RequestProofDto } from './dto/exchanges.dto'
import { created, ok, toJson } from './envelope'
import { toAutoAcceptProof } from './exchange-mapping'
import { InvitationDids } from './invitation-dids'

/** Present Proof v2 with DIF Presentation Exchange (verifier and holder side). */
@Authorized()
@JsonController('/proofs')
export class ProofsController {
  private readonly invitationDids = new InvitationDids()

  public constructor(private readonly runtime: AgentRuntime) {}

  @Post('/request')
  @HttpCode(201)
  public async request(@CurrentScope() scope: AgentScope, @Body() body: RequestProofDto) {
    const record = await scope.agent.didcomm.proofs.requestProof({
      connectionId: body.connectionId,
      protocolVersion: 'v2',
      comment: body.comment,
      goalCode: body.goalCode,
      willConfirm: body.willConfirm,
      autoAcceptProof: toAutoAcceptProof(body.autoAcceptProof),
      proofFormats: { presentationExchange: { presentationDefinition: body.presentationDefinition as never } },
    })
    return created(record.toJSON(), 'Proof requested')
  }

  @Post('/oob/request')
  @HttpCode(201)
  public async requestOutOfBand(@CurrentScope() scope: AgentScope, @Body() body: OobRequestProofDto) {
    const agent = scope.agent
    const { message, proofRecord } = await agent.didcomm.proofs.createRequest({
      protocolVersion: 'v2',
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptProof: toAutoAcceptProof(body.autoAcceptProof),
      proofFormats: { presentationExchange: { presentationDefinition: body.presentationDefinition as never } },
    })
    // reuseConnection: the wallet's standing invitation DID, so a holder already connected through it reuses
    // that connection instead of making a new one.
    const invitationDid = body.reuseConnection
      ? await this.invitationDids.forInvitation(agent, { kind: 'reusable' })
      : undefined
    const oob = await agent.didcomm.oob.createInvitation({
      label: body.label ?? scope.label,
      imageUrl: scope.imageUrl,
      messages: [message],
      handshake: true,
      autoAcceptConnection: true,
      invitationDid,
    })
    return created(
      {
        invitationUrl: oob.outOfBandInvitation.toUrl({ domain: this.runtime.endpoints[0] }),
        invitation: oob.outOfBandInvitation.toJSON(),
        outOfBandRecord: oob.toJSON(),
        proofRecord: proofRecord.toJSON(),
      },
      'Out-of-band proof request created',
    )
  }

  @Post('/accept-request')
  @HttpCode(201)
  public async acceptRequest(@CurrentScope() scope: AgentScope, @Body() body: AcceptProofRequestDto) {
    const proofs = scope.agent.didcomm.proofs
    const selected = await proofs.selectCredentialsForRequest({
      proofExchangeRecordId: body.proofRecordId,
      proofFormats: {
        presentationExchange: {},
      },
    })
    const record = await proofs.acceptRequest({
      proofExchangeRecordId: body.proofRecordId,
      proofFormats: selected.proofFormats,
      comment: body.comment,
    })
    return created(record.toJSON(), 'Presentation sent')
  }

  /** Verifier: accepts a received presentation (Credo verified it on receipt) and reports the result. */
  @Post('/:proofRecordId/verify')
  @HttpCode(201)
  public async verify(@CurrentScope() scope: AgentScope, @Param('proofRecordId') id: string) {
    const proofs = scope.agent.didcomm.proofs
    let record = await proofs.getById(id)
    if (record.state === 'presentation-received') {
      try {
        record = await proofs.acceptPresentation({ proofExchangeRecordId: id })
      } catch (error) {
        // An exchange that auto-accepts may have accepted the presentation meanwhile.
        record = await proofs.getById(id)
        if (record.state !== 'done') throw error
      }
    } else if (record.state === 'abandoned' && record.isVerified === false) {
      // The presentation arrived and failed verification (the record carries the reason in errorMessage).
      return created({ isVerified: false, proofRecord: record.toJSON() }, 'Proof verification failed')
    } else if (record.state !== 'done')
      throw new InvalidStateError(`Proof is in state ${record.state}; nothing to verify`)
    return created({ isVerified: record.isVerified === true, proofRecord: record.toJSON() }, 'Proof verified')
  }

  @Get()
  public async list(@CurrentScope() scope: AgentScope, @QueryParams() query: ProofQueryDto) {
    const records = await scope.agent.didcomm.proofs.findAllByQuery({
      threadId: query.threadId,
      connectionId: query.connectionId,
      state: query.state as DidCommProofState | undefined,
    })
    return ok(toJson(records))
  }

  @Get('/:proofRecordId')
  public async get(@CurrentScope() scope: AgentScope, @Param('proofRecordId') id: string) {
    const record = await scope.agent.didcomm.proofs.findById(id)
    if (!record) throw new NotFoundError('Proof record not found')
    return ok(record.toJSON())
  }

  @Delete('/:proofRecordId')
  public async remove(@CurrentScope() scope: AgentScope, @Param('proofRecordId') id: string) {
    const proofs = scope.agent.didcomm.proofs
    if (!(await proofs.findById(id))) throw new NotFoundError('Proof record not found')
    await proofs.deleteById(id)
    return ok({ id }, 'Proof record deleted')
  }

  /** The submitted presentation, its revealed values and the verification result. */
  @Get('/:proofRecordId/form-data')
  public async formData(@CurrentScope() scope: AgentScope, @Param('proofRecordId') id: string) {
    const proofs = scope.agent.didcomm.proofs
    const record = await proofs.getById(id)
    const formData = await proofs.getFormatData(id)
    const presentation = formData.presentation?.presentationExchange as { verifiableCredential?: unknown } | undefined
    const credentials = presentation?.verifiableCredential
    const revealed = (Array.isArray(credentials) ? credentials : credentials ? [credentials] : []).map(
      (credential) => (credential as { credentialSubject?: unknown }).credentialSubject,
    )
    return ok({ isVerified: record.isVerified ?? null, state: record.state, revealed, formData: toJson(formData) })
  }
}
