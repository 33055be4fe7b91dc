import {
  AnonCredsApi,
  AnonCredsError as CredoAnonCredsError,
  getUnqualifiedCredentialDefinitionId,
  isDidIndyCredentialDefinitionId,
  parseIndyCredentialDefinitionId,
} from '@credo-ts/anoncreds'
import type { Query } from '@credo-ts/core'
import type { DidCommCredentialExchangeRecord, DidCommCredentialState } from '@credo-ts/didcomm'
import type {
  AcceptOfferRequest,
  AnonCredsOffer,
  AnonCredsOfferRequest,
  CredentialRecordJson,
  ExchangeQuery,
  JsonLdOffer,
  OfferCredentialRequest,
  OobCredentialOffer,
  OobOfferCredentialRequest,
  OutOfBandRecordJson,
} from '@idplane/common/agent-contract/admin-api'
import { InvalidInputError } from '@idplane/common'

import { FIRST_REVOCATION_INDEX, lastRevocationIndex } from '../anoncreds'
import { storedRevocationRegistry } from '../formats/anoncreds/stored-revocation-registry'
import { assertOfferSignable } from '../formats/jsonld/offer-dry-run'
import { withSuiteContext } from '../formats/jsonld/suite-context'
import { AgentRecords, toRecordJson } from './agent-records'
import type { AgentRuntime } from './agent-runtime'
import type { AgentScope } from './agent-scope'
import { protocolStep } from './credo-errors'
import { endExchangeOnFormatFailure } from './exchange-failures'
import { toJson } from './envelope'
import { toAutoAcceptCredential } from './exchange-mapping'

export const CREDENTIAL_RECORDS = new AgentRecords<
  DidCommCredentialExchangeRecord,
  ExchangeQuery,
  Query<DidCommCredentialExchangeRecord>,
  CredentialRecordJson
>({
  name: 'Credential record',
  api: (agent) => agent.didcomm.credentials,
  toQuery: (filter) => ({
    threadId: filter.threadId,
    connectionId: filter.connectionId,
    state: filter.state as DidCommCredentialState | undefined,
  }),
})

type ExchangeOptions = {
  comment?: string
  goalCode?: string
  autoAcceptCredential: ReturnType<typeof toAutoAcceptCredential>
}

/**
 * Issue Credential v2 with W3C JSON-LD credentials, v1 and v2 with AnonCreds (issuer and holder side). What a format
 * service refuses is the caller's: an offer it cannot make is a 400, an offer the holder cannot accept a 409.
 */
export class CredentialsService {
  public constructor(private readonly runtime: AgentRuntime) {}

  /**
   * JSON-LD over Issue Credential v2, or AnonCreds: v2 in the `anoncreds` format, v1 in the `indy` format (the
   * same offer; v1 carries only that one).
   */
  public async offer(scope: AgentScope, body: OfferCredentialRequest): Promise<CredentialRecordJson> {
    const options: ExchangeOptions & { connectionId: string } = {
      connectionId: body.connectionId,
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptCredential: toAutoAcceptCredential(body.autoAcceptCredential),
    }
    const credentials = scope.agent.didcomm.credentials
    const anoncreds = anonCredsOfferOf(body)
    if (!anoncreds && body.protocolVersion === 'v1') throw v1NeedsAnonCreds()
    if (anoncreds) await checkRevocationTarget(scope, anoncreds)
    const record = await protocolStep('input', 'The credential offer cannot be made', async () =>
      anoncreds
        ? body.protocolVersion === 'v1'
          ? credentials.offerCredential({ ...options, protocolVersion: 'v1', credentialFormats: { indy: anoncreds } })
          : credentials.offerCredential({ ...options, protocolVersion: 'v2', credentialFormats: { anoncreds } })
        : credentials.offerCredential({
            ...options,
            protocolVersion: 'v2',
            credentialFormats: { jsonld: await signableJsonLd(scope, body as JsonLdOffer) },
          }),
    )
    return toRecordJson<CredentialRecordJson>(record)
  }

  public async offerOutOfBand(scope: AgentScope, body: OobOfferCredentialRequest): Promise<OobCredentialOffer> {
    const agent = scope.agent
    const options: ExchangeOptions = {
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptCredential: toAutoAcceptCredential(body.autoAcceptCredential),
    }
    const credentials = agent.didcomm.credentials
    const anoncreds = anonCredsOfferOf(body)
    if (!anoncreds && body.protocolVersion === 'v1') throw v1NeedsAnonCreds()
    if (anoncreds) await checkRevocationTarget(scope, anoncreds)
    const { message, credentialExchangeRecord } = await protocolStep(
      'input',
      'The credential offer cannot be made',
      async () =>
        anoncreds
          ? body.protocolVersion === 'v1'
            ? credentials.createOffer({ ...options, protocolVersion: 'v1', credentialFormats: { indy: anoncreds } })
            : credentials.createOffer({ ...options, protocolVersion: 'v2', credentialFormats: { anoncreds } })
          : credentials.createOffer({
              ...options,
              protocolVersion: 'v2',
              credentialFormats: { jsonld: await signableJsonLd(scope, body as JsonLdOffer) },
            }),
    )
    const oob = await agent.didcomm.oob.createInvitation({
      label: body.label ?? scope.label,
      imageUrl: body.imageUrl ?? scope.imageUrl,
      messages: [message],
      handshake: true,
      autoAcceptConnection: true,
    })
    return {
      invitationUrl: oob.outOfBandInvitation.toUrl({ domain: this.runtime.endpoints[0] }),
      invitation: oob.outOfBandInvitation.toJSON(),
      outOfBandRecord: toRecordJson<OutOfBandRecordJson>(oob),
      credentialRecord: toRecordJson<CredentialRecordJson>(credentialExchangeRecord),
    }
  }

  /**
   * Holder: accepts an offer. One its format service cannot accept ends the exchange (a problem report to the
   * issuer, the record abandoned with the reason) and is a 409; so is a record in another state (kept as it is).
   */
  public async acceptOffer(scope: AgentScope, body: AcceptOfferRequest): Promise<CredentialRecordJson> {
    const credentialFormats = await anonCredsFormatsFor(scope, body)
    const record = await endExchangeOnFormatFailure(
      scope,
      'credential',
      body.credentialRecordId,
      'The credential offer cannot be accepted',
      () =>
        scope.agent.didcomm.credentials.acceptOffer({
          credentialExchangeRecordId: body.credentialRecordId,
          autoAcceptCredential: toAutoAcceptCredential(body.autoAcceptCredential),
          comment: body.comment,
          // Holder binding: `{ jsonld: { credentialSubjectId } }` (IdplaneJsonLdCredentialFormatService); Credo's type
          // for JSON-LD accept-offer options is empty.
          credentialFormats: credentialFormats as never,
        }),
    )
    return toRecordJson<CredentialRecordJson>(record)
  }

  public formData(scope: AgentScope, credentialRecordId: string): Promise<Record<string, unknown>> {
    return protocolStep('state', 'The format data cannot be read', async () => {
      return toJson(await scope.agent.didcomm.credentials.getFormatData(credentialRecordId)) as Record<string, unknown>
    })
  }
}

/** The AnonCreds offer of a body, when it is one (`credentialFormats.anoncreds`; JSON-LD offers have none). */
function anonCredsOfferOf(body: OfferCredentialRequest | OobOfferCredentialRequest): AnonCredsOffer | undefined {
  const anoncreds = (body as Partial<AnonCredsOfferRequest>).credentialFormats?.anoncreds
  if (!anoncreds) return undefined
  return {
    credentialDefinitionId:
      body.protocolVersion === 'v1'
        ? legacyCredentialDefinitionId(anoncreds.credentialDefinitionId)
        : anoncreds.credentialDefinitionId,
    attributes: anoncreds.attributes,
    revocationRegistryDefinitionId: anoncreds.revocationRegistryDefinitionId,
    revocationRegistryIndex: anoncreds.revocationRegistryIndex,
  }
}

/**
 * A revocable offer names one of this agent's registries for the offered definition and an index inside it, checked
 * here so that a wrong one is a 400 now rather than a failed exchange after the holder's request. Both protocols
 * carry it (v1 through RevocableLegacyIndyCredentialFormatService). A v1 offer names the definition in its legacy
 * form, which the registry's record may not: both are compared in legacy form.
 * @throws {InvalidInputError}
 */
async function checkRevocationTarget(scope: AgentScope, offer: AnonCredsOffer): Promise<void> {
  const id = offer.revocationRegistryDefinitionId
  const field = 'credentialFormats.anoncreds.revocationRegistryDefinitionId'
  if (id === undefined) {
    // Without a registry, a revocable definition's credential would be issued unrevocable (Issue Credential v1 did).
    if (
      offer.revocationRegistryIndex === undefined &&
      (await isRevocableDefinition(scope, offer.credentialDefinitionId))
    )
      throw new InvalidInputError(
        'A credential of a revocable credential definition names its revocation registry and index',
        [{ field, message: 'is required for a revocable credential definition' }],
      )
    return
  }
  let registry
  try {
    registry = await storedRevocationRegistry(scope.agent.context, id)
  } catch (error) {
    if (!(error instanceof CredoAnonCredsError)) throw error
    throw new InvalidInputError(error.message, [{ field, message: 'is not a registry of this wallet' }])
  }
  if (
    legacyCredentialDefinitionId(registry.privateRecord.credentialDefinitionId) !==
    legacyCredentialDefinitionId(offer.credentialDefinitionId)
  )
    throw new InvalidInputError(`Revocation registry ${id} is not for ${offer.credentialDefinitionId}`, [
      { field, message: 'is for another credential definition' },
    ])
  const last = lastRevocationIndex(registry.definitionRecord.revocationRegistryDefinition.value.maxCredNum)
  const index = offer.revocationRegistryIndex ?? 0
  if (index < FIRST_REVOCATION_INDEX || index > last)
    throw new InvalidInputError(`The revocation index must be from ${FIRST_REVOCATION_INDEX} to ${last}`, [
      { field: 'credentialFormats.anoncreds.revocationRegistryIndex', message: 'is outside the registry' },
    ])
}

/** Whether the definition supports revocation; false when it cannot be resolved (issuance then fails on its own). */
async function isRevocableDefinition(scope: AgentScope, credentialDefinitionId: string): Promise<boolean> {
  const { credentialDefinition } = await scope.agent.context
    .resolve(AnonCredsApi)
    .getCredentialDefinition(credentialDefinitionId)
    .catch(() => ({ credentialDefinition: undefined }))
  return credentialDefinition?.value.revocation !== undefined
}

/**
 * The legacy form (`<did>:3:CL:<seq>:<tag>`) of a credential definition id: Issue Credential v1 carries only that
 * form (Credo's `indy` format and every v1 holder refuse others), and a definition written under a did:indy is the
 * same ledger object under both (issue 22 item 2). Other ids pass unchanged (the format service refuses them).
 */
function legacyCredentialDefinitionId(credentialDefinitionId: string): string {
  if (!isDidIndyCredentialDefinitionId(credentialDefinitionId)) return credentialDefinitionId
  const { namespaceIdentifier, schemaSeqNo, tag } = parseIndyCredentialDefinitionId(credentialDefinitionId)
  return getUnqualifiedCredentialDefinitionId(namespaceIdentifier, schemaSeqNo, tag)
}

/** The JSON-LD offer, signed once as a dry run: one that cannot be signed is a 400 with the reason. */
async function signableJsonLd(scope: AgentScope, body: JsonLdOffer) {
  const credential = withSuiteContext(body.credential, body.options.proofType)
  // The DTO validated the shape we rely on; Credo validates the credential itself (ClassValidationError → 400).
  const jsonld = {
    credential: credential as never,
    options: { proofType: body.options.proofType, proofPurpose: body.options.proofPurpose },
  }
  await assertOfferSignable(scope.agent.context, jsonld)
  return jsonld
}

/**
 * A holder names AnonCreds options (`linkSecretId`) as `anoncreds` or `indy` without knowing which format the offer
 * came in; Credo looks them up under the offer's own format key (v1: always `indy`), and a v2 offer given the other
 * key fails. So the options move to the key the offer uses.
 */
async function anonCredsFormatsFor(
  scope: AgentScope,
  body: AcceptOfferRequest,
): Promise<Record<string, unknown> | undefined> {
  const formats = body.credentialFormats
  if (!formats || (formats.anoncreds === undefined && formats.indy === undefined)) return formats
  const options = formats.anoncreds ?? formats.indy
  const record = await CREDENTIAL_RECORDS.find(scope, body.credentialRecordId)
  if (record.protocolVersion === 'v1') return { indy: options }
  const offer = (await scope.agent.didcomm.credentials.getFormatData(body.credentialRecordId)).offer ?? {}
  return { [offer.indy ? 'indy' : 'anoncreds']: options }
}

function v1NeedsAnonCreds() {
  return new InvalidInputError('Issue Credential v1 carries AnonCreds only', [
    { field: 'protocolVersion', message: 'v1 needs credentialFormats.anoncreds' },
  ])
}
