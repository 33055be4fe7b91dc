import type { DidCommCredentialState } from '@credo-ts/didcomm'
import { InvalidInputError, NotFoundError } from '@idplane/common'
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

/** Issue Credential v2 with W3C JSON-LD credentials, v1 and v2 with AnonCreds (issuer and holder side). */
@Authorized()
@JsonController('/credentials')
export class CredentialsController {
  public constructor(private readonly runtime: AgentRuntime) {}

  /**
   * JSON-LD over Issue Credential v2, or AnonCreds: v2 in the `anoncreds` format, v1 in the `indy` format (the
   * same offer; v1 carries only that one).
   */
  @Post('/offer')
  @HttpCode(201)
  public async offer(@CurrentScope() scope: AgentScope, @Body() body: OfferCredentialDto) {
    const common = {
      connectionId: body.connectionId,
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptCredential: toAutoAcceptCredential(body.autoAcceptCredential),
    }
    const credentials = scope.agent.didcomm.credentials
    const anoncreds = body.credentialFormats?.anoncreds
    if (anoncreds) {
      const offer = { credentialDefinitionId: anoncreds.credentialDefinitionId, attributes: anoncreds.attributes }
      const record =
        body.protocolVersion === 'v1'
          ? await credentials.offerCredential({ ...common, protocolVersion: 'v1', credentialFormats: { indy: offer } })
          : await credentials.offerCredential({
              ...common,
              protocolVersion: 'v2',
              credentialFormats: { anoncreds: offer },
            })
      return created(record.toJSON(), 'Credential offered')
    }
    if (body.protocolVersion === 'v1') throw v1NeedsAnonCreds()
    const jsonld = jsonLdFormat(body as JsonLdOfferDto)
    await assertOfferSignable(scope.agent.context, jsonld)
    const record = await credentials.offerCredential({
      ...common,
      protocolVersion: 'v2',
      credentialFormats: { jsonld },
    })
    return created(record.toJSON(), 'Credential offered')
  }

  @Post('/oob/offer')
  @HttpCode(201)
  public async offerOutOfBand(@CurrentScope() scope: AgentScope, @Body() body: OobOfferCredentialDto) {
    const agent = scope.agent
    const common = {
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptCredential: toAutoAcceptCredential(body.autoAcceptCredential),
    }
    const credentials = agent.didcomm.credentials
    const anoncreds = body.credentialFormats?.anoncreds
    if (!anoncreds && body.protocolVersion === 'v1') throw v1NeedsAnonCreds()
    const offer = anoncreds && {
      credentialDefinitionId: anoncreds.credentialDefinitionId,
      attributes: anoncreds.attributes,
    }
    const { message, credentialExchangeRecord } = offer
      ? body.protocolVersion === 'v1'
        ? await credentials.createOffer({ ...common, protocolVersion: 'v1', credentialFormats: { indy: offer } })
        : await credentials.createOffer({ ...common, protocolVersion: 'v2', credentialFormats: { anoncreds: offer } })
      : await createJsonLdOffer(scope, common, body as JsonLdOfferDto)
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
      credentialFormats: (await anonCredsFormatsFor(scope, body)) as never,
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

async function createJsonLdOffer(
  scope: AgentScope,
  common: { comment?: string; goalCode?: string; autoAcceptCredential: ReturnType<typeof toAutoAcceptCredential> },
  body: JsonLdOfferDto,
) {
  const jsonld = jsonLdFormat(body)
  await assertOfferSignable(scope.agent.context, jsonld)
  return scope.agent.didcomm.credentials.createOffer({
    ...common,
    protocolVersion: 'v2',
    credentialFormats: { jsonld },
  })
}

/**
 * A holder names AnonCreds options (`linkSecretId`) as `anoncreds` or `indy` without knowing which format the offer
 * came in; Credo looks them up under the offer's own format key (v1: always `indy`), and a v2 offer given the other
 * key fails. So the options move to the key the offer uses.
 */
async function anonCredsFormatsFor(
  scope: AgentScope,
  body: AcceptOfferDto,
): Promise<Record<string, unknown> | undefined> {
  const formats = body.credentialFormats
  if (!formats || (formats.anoncreds === undefined && formats.indy === undefined)) return formats
  const options = formats.anoncreds ?? formats.indy
  const credentials = scope.agent.didcomm.credentials
  const record = await credentials.findById(body.credentialRecordId)
  if (!record) throw new NotFoundError('Credential record not found')
  if (record.protocolVersion === 'v1') return { indy: options }
  const offer = (await credentials.getFormatData(body.credentialRecordId)).offer ?? {}
  return { [offer.indy ? 'indy' : 'anoncreds']: options }
}

function v1NeedsAnonCreds() {
  return new InvalidInputError('Issue Credential v1 carries AnonCreds only', [
    { field: 'protocolVersion', message: 'v1 needs credentialFormats.anoncreds' },
  ])
}

function jsonLdFormat(body: JsonLdOfferDto) {
  const credential = withSuiteContext(body.credential, body.options.proofType)
  // The DTO validated the shape we rely on; Credo validates the credential itself (ClassValidationError → 400).
  return {
    credential: credential as never,
    options: { proofType: body.options.proofType, proofPurpose: body.options.proofPurpose },
  }
}
