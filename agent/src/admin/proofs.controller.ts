import type { AnonCredsRequestProofFormat } from '@credo-ts/anoncreds'
import type { DidCommProofState } from '@credo-ts/didcomm'
import type { AnonCredsProofSummary } from '@idplane/common/agent-contract/admin-api'
import { ConflictError, InvalidInputError, InvalidStateError, NotFoundError } from '@idplane/common'
import { Authorized, Body, Delete, Get, HttpCode, JsonController, Param, Post, QueryParams } from 'routing-controllers'

import { AnonCredsError, readPresentationRequest } from '../anoncreds'
import type { AgentRuntime } from './agent-runtime'
import { type AgentScope, CurrentScope } from './agent-scope'
import {
  AcceptProofRequestDto,
  type AnonCredsProofRequestDto,
  OobRequestProofDto,
  ProofQueryDto,
  RequestProofDto,
} from './dto/exchanges.dto'
import { created, ok, toJson } from './envelope'
import { toAutoAcceptProof } from './exchange-mapping'
import { InvitationDids } from './invitation-dids'

/** Present Proof v2 with DIF Presentation Exchange, v1 and v2 with AnonCreds (verifier and holder side). */
@Authorized()
@JsonController('/proofs')
export class ProofsController {
  private readonly invitationDids = new InvitationDids()

  public constructor(private readonly runtime: AgentRuntime) {}

  /** DIF PE over Present Proof v2, or AnonCreds: v2 in the `anoncreds` format, v1 in the `indy` format. */
  @Post('/request')
  @HttpCode(201)
  public async request(@CurrentScope() scope: AgentScope, @Body() body: RequestProofDto) {
    const common = {
      connectionId: body.connectionId,
      comment: body.comment,
      goalCode: body.goalCode,
      willConfirm: body.willConfirm,
      autoAcceptProof: toAutoAcceptProof(body.autoAcceptProof),
    }
    const proofs = scope.agent.didcomm.proofs
    const anoncreds = body.proofFormats?.anoncreds
    if (anoncreds) {
      const request = anonCredsProofRequest(anoncreds)
      const record =
        body.protocolVersion === 'v1'
          ? await proofs.requestProof({ ...common, protocolVersion: 'v1', proofFormats: { indy: request } })
          : await proofs.requestProof({ ...common, protocolVersion: 'v2', proofFormats: { anoncreds: request } })
      return created(record.toJSON(), 'Proof requested')
    }
    if (body.protocolVersion === 'v1') throw v1NeedsAnonCreds()
    const record = await proofs.requestProof({
      ...common,
      protocolVersion: 'v2',
      proofFormats: { presentationExchange: { presentationDefinition: body.presentationDefinition as never } },
    })
    return created(record.toJSON(), 'Proof requested')
  }

  @Post('/oob/request')
  @HttpCode(201)
  public async requestOutOfBand(@CurrentScope() scope: AgentScope, @Body() body: OobRequestProofDto) {
    const agent = scope.agent
    const common = {
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptProof: toAutoAcceptProof(body.autoAcceptProof),
    }
    const proofs = agent.didcomm.proofs
    const anoncreds = body.proofFormats?.anoncreds
    if (!anoncreds && body.protocolVersion === 'v1') throw v1NeedsAnonCreds()
    const request = anoncreds && anonCredsProofRequest(anoncreds)
    const { message, proofRecord } = !request
      ? await proofs.createRequest({
          ...common,
          protocolVersion: 'v2',
          proofFormats: { presentationExchange: { presentationDefinition: body.presentationDefinition as never } },
        })
      : body.protocolVersion === 'v1'
        ? await proofs.createRequest({ ...common, protocolVersion: 'v1', proofFormats: { indy: request } })
        : await proofs.createRequest({ ...common, protocolVersion: 'v2', proofFormats: { anoncreds: request } })
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
    // The formats come from the request message (PE, anoncreds or indy); credentials are picked automatically.
    const selected = await proofs.selectCredentialsForRequest({ proofExchangeRecordId: body.proofRecordId })
    try {
      const record = await proofs.acceptRequest({
        proofExchangeRecordId: body.proofRecordId,
        proofFormats: selected.proofFormats,
        comment: body.comment,
      })
      return created(record.toJSON(), 'Presentation sent')
    } catch (error) {
      // The wallet cannot satisfy the request (an AnonCreds predicate the credential does not meet): the verifier
      // is told with a problem report so that the exchange ends on both sides instead of waiting forever.
      if (!(error instanceof AnonCredsError)) throw error
      await proofs.declineRequest({
        proofExchangeRecordId: body.proofRecordId,
        sendProblemReport: true,
        problemReportDescription: `Cannot satisfy the proof request: ${error.message}`,
      })
      throw new ConflictError(`Cannot satisfy the proof request (declined with a problem report): ${error.message}`)
    }
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
    const anoncreds = anonCredsSummary(formData)
    if (anoncreds) {
      const revealed = {
        ...Object.fromEntries(Object.values(anoncreds.revealedAttributes).map((a) => [a.name, a.raw])),
      }
      for (const group of Object.values(anoncreds.revealedAttributeGroups)) Object.assign(revealed, group)
      return ok({
        isVerified: record.isVerified ?? null,
        state: record.state,
        revealed: [revealed],
        anoncreds,
        formData: toJson(formData),
      })
    }
    const presentation = formData.presentation?.presentationExchange as { verifiableCredential?: unknown } | undefined
    const credentials = presentation?.verifiableCredential
    const revealed = (Array.isArray(credentials) ? credentials : credentials ? [credentials] : []).map(
      (credential) => (credential as { credentialSubject?: unknown }).credentialSubject,
    )
    return ok({
      isVerified: record.isVerified ?? null,
      state: record.state,
      revealed,
      anoncreds: null,
      formData: toJson(formData),
    })
  }
}

function v1NeedsAnonCreds() {
  return new InvalidInputError('Present Proof v1 carries AnonCreds only', [
    { field: 'protocolVersion', message: 'v1 needs proofFormats.anoncreds' },
  ])
}

/** The request Credo's format services take (Credo adds the nonce). */
function anonCredsProofRequest(input: AnonCredsProofRequestDto): AnonCredsRequestProofFormat {
  const request = {
    name: input.name ?? 'proof-request',
    version: input.version ?? '1.0',
    requested_attributes: (input.requested_attributes ?? {}) as AnonCredsRequestProofFormat['requested_attributes'],
    requested_predicates: (input.requested_predicates ?? {}) as AnonCredsRequestProofFormat['requested_predicates'],
  }
  // Credo sends the request as given; checked here so a malformed one is a 400, not a holder-side failure.
  readPresentationRequest({ ...request, nonce: '1' }, 'proofFormats.anoncreds')
  return request
}

interface AnonCredsPresentationJson {
  requested_proof?: {
    revealed_attrs?: Record<string, { raw?: string }>
    revealed_attr_groups?: Record<string, { values?: Record<string, { raw?: string }> }>
    self_attested_attrs?: Record<string, string>
    predicates?: Record<string, unknown>
  }
}

interface AnonCredsRequestJson {
  requested_attributes?: Record<string, { name?: string }>
  requested_predicates?: Record<string, { name: string; p_type: string; p_value: number }>
}

/** What an AnonCreds (anoncreds or indy format) presentation proves, read from its request and proof JSON. */
function anonCredsSummary(formData: {
  request?: Record<string, unknown>
  presentation?: Record<string, unknown>
}): AnonCredsProofSummary | undefined {
  const key = formData.request?.anoncreds ? 'anoncreds' : formData.request?.indy ? 'indy' : undefined
  if (!key) return undefined
  const request = formData.request?.[key] as AnonCredsRequestJson
  const proof = (formData.presentation?.[key] as AnonCredsPresentationJson | undefined)?.requested_proof ?? {}
  const revealedAttributes: AnonCredsProofSummary['revealedAttributes'] = {}
  for (const [referent, value] of Object.entries(proof.revealed_attrs ?? {}))
    revealedAttributes[referent] = {
      name: request.requested_attributes?.[referent]?.name ?? referent,
      raw: value.raw ?? '',
    }
  const revealedAttributeGroups: AnonCredsProofSummary['revealedAttributeGroups'] = {}
  for (const [referent, group] of Object.entries(proof.revealed_attr_groups ?? {}))
    revealedAttributeGroups[referent] = Object.fromEntries(
      Object.entries(group.values ?? {}).map(([name, value]) => [name, value.raw ?? '']),
    )
  const predicates: AnonCredsProofSummary['predicates'] = {}
  for (const referent of Object.keys(proof.predicates ?? {})) {
    const predicate = request.requested_predicates?.[referent]
    if (predicate) predicates[referent] = { name: predicate.name, p_type: predicate.p_type, p_value: predicate.p_value }
  }
  return {
    revealedAttributes,
    revealedAttributeGroups,
    predicates,
    selfAttestedAttributes: proof.self_attested_attrs ?? {},
  }
}
