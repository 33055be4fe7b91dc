import type { DidCommCredentialState } from '@credo-ts/didcomm'
import { NotFoundError } from '@idplane/common'
import { Authorized, Body, Delete, Get, HttpCode, JsonController, Param, Post, QueryParams } from 'routing-controllers'

import { assertOfferSignable } from '../formats/jsonld/offer-dry-run'
import { withSuiteContext } from '../formats/jsonld/suite-context'
import type { AgentRuntime } from './agent-runtime'
import { type AgentScope, CurrentScope } from './agent-scope'
import {
  AcceptOfferDto,
  CredentialQueryDto,
  type JsonLdOfferDto,
  OfferCredentialDto,
  OobOfferCredentialDto,
} from './dto/exchanges.dto'
import { created, ok, toJson } from './envelope'
import { toAutoAcceptCredential } from './exchange-mapping'

/** Issue Credential v2 with W3C JSON-LD credentials (issuer and holder side). */
@Authorized()
@JsonController('/credentials')
export class CredentialsController {
  public constructor(private readonly runtime: AgentRuntime) {}

  @Post('/offer')
  @HttpCode(201)
  public async offer(@CurrentScope() scope: AgentScope, @Body() body: OfferCredentialDto) {
    const jsonld = jsonLdFormat(body)
    await assertOfferSignable(scope.agent.context, jsonld)
    const record = await scope.agent.didcomm.credentials.offerCredential({
      connectionId: body.connectionId,
      protocolVersion: 'v2',
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptCredential: toAutoAcceptCredential(body.autoAcceptCredential),
      credentialFormats: { jsonld },
    })
    return created(record.toJSON(), 'Credential offered')
  }

  @Post('/oob/offer')
  @HttpCode(201)
  public async offerOutOfBand(@CurrentScope() scope: AgentScope, @Body() body: OobOfferCredentialDto) {
    const agent = scope.agent
    const jsonld = jsonLdFormat(body)
    await assertOfferSignable(agent.context, jsonld)
    const { message, credentialExchangeRecord } = await agent.didcomm.credentials.createOffer({
      protocolVersion: 'v2',
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptCredential: toAutoAcceptCredential(body.autoAcceptCredential),
      credentialFormats: { jsonld },
    })
    const oob = await agent.didcomm.oob.createInvitation({
      label: body.label ?? scope.label,
      imageUrl: body.imageUrl ?? scope.imageUrl,
      messages: [message],
      handshake: true,
      autoAcceptConnection: true,
    })
    return created(
      {
        invitationUrl: oob.outOfBandInvitation.toUrl({ domain: this.runtime.endpoints[0] }),
        invitation: oob.outOfBandInvitation.toJSON(),
        outOfBandRecord: oob.toJSON(),
        credentialRecord: credentialExchangeRecord.toJSON(),
      },
      'Out-of-band credential offer created',
    )
  }

  @Post('/accept-offer')
  @HttpCode(201)
  public async acceptOffer(@CurrentScope() scope: AgentScope, @Body() body: AcceptOfferDto) {
    const record = await scope.agent.didcomm.credentials.acceptOffer({
      credentialExchangeRecordId: body.credentialRecordId,
      autoAcceptCredential: toAutoAcceptCredential(body.autoAcceptCredential),
      comment: body.comment,
      // Holder binding: `{ jsonld: { credentialSubjectId } }` (IdplaneJsonLdCredentialFormatService); Credo's type
      // for JSON-LD accept-offer options is empty.
      credentialFormats: body.credentialFormats as never,
    })
    return created(record.toJSON(), 'Offer accepted')
  }

  @Get()
  public async list(@CurrentScope() scope: AgentScope, @QueryParams() query: CredentialQueryDto) {
    const records = await scope.agent.didcomm.credentials.findAllByQuery({
      threadId: query.threadId,
      connectionId: query.connectionId,
      state: query.state as DidCommCredentialState | undefined,
    })
    return ok(toJson(records))
  }

  @Get('/:credentialRecordId')
  public async get(@CurrentScope() scope: AgentScope, @Param('credentialRecordId') id: string) {
    const record = await scope.agent.didcomm.credentials.findById(id)
    if (!record) throw new NotFoundError('Credential record not found')
    return ok(record.toJSON())
  }

  /** Removes the exchange record (a stored W3C credential stays in the wallet). */
  @Delete('/:credentialRecordId')
  public async remove(@CurrentScope() scope: AgentScope, @Param('credentialRecordId') id: string) {
    const credentials = scope.agent.didcomm.credentials
    if (!(await credentials.findById(id))) throw new NotFoundError('Credential record not found')
    await credentials.deleteById(id)
    return ok({ id }, 'Credential record deleted')
  }

  @Get('/:credentialRecordId/form-data')
  public async formData(@CurrentScope() scope: AgentScope, @Param('credentialRecordId') id: string) {
    return ok(toJson(await scope.agent.didcomm.credentials.getFormatData(id)))
  }
}

function jsonLdFormat(body: JsonLdOfferDto) {
  const credential = withSuiteContext(body.credential, body.options.proofType)
  // The DTO validated the shape we rely on; Credo validates the credential itself (ClassValidationError → 400).
  return {
    credential: credential as never,
    options: { proofType: body.options.proofType, proofPurpose: body.options.proofPurpose },
  }
}
