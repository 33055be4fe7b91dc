import {
  AnonCredsCredentialDefinitionPrivateRepository,
  type AnonCredsCredentialDefinitionRecord,
  AnonCredsCredentialDefinitionRepository,
  AnonCredsError as CredoAnonCredsError,
  type AnonCredsCredential,
  type AnonCredsCredentialDefinition,
  type AnonCredsCredentialOffer,
  type AnonCredsIssuerService,
  AnonCredsKeyCorrectnessProofRepository,
  type AnonCredsSchema,
  type CreateCredentialDefinitionOptions,
  type CreateCredentialDefinitionReturn,
  type CreateCredentialOfferOptions,
  type CreateCredentialOptions,
  type CreateCredentialReturn,
  type CreateSchemaOptions,
  getUnqualifiedCredentialDefinitionId,
  getUnqualifiedSchemaId,
  isDidIndyCredentialDefinitionId,
  isUnqualifiedCredentialDefinitionId,
  isUnqualifiedIndyDid,
  isUnqualifiedSchemaId,
  parseIndyCredentialDefinitionId,
  parseIndyDid,
  parseIndySchemaId,
} from '@credo-ts/anoncreds'
import { type AgentContext, injectable } from '@credo-ts/core'

import { createCredential, createCredentialDefinition, createCredentialOffer, createSchema } from '../../anoncreds'

/**
 * Credo's AnonCredsIssuerService on our TypeScript AnonCreds library (agent/src/anoncreds) instead of the native
 * anoncreds-rs. The objects are the anoncreds-rs JSON Credo stores and sends, so records and messages are the
 * same as with AnonCredsRsIssuerService. Revocation is not carried yet (a later issue).
 */
@injectable()
export class IdplaneAnonCredsIssuerService implements AnonCredsIssuerService {
  public async createSchema(_agentContext: AgentContext, options: CreateSchemaOptions): Promise<AnonCredsSchema> {
    return createSchema({
      issuerId: options.issuerId,
      name: options.name,
      version: options.version,
      attributeNames: options.attrNames,
    }) as AnonCredsSchema
  }

  public async createCredentialDefinition(
    _agentContext: AgentContext,
    options: CreateCredentialDefinitionOptions,
  ): Promise<CreateCredentialDefinitionReturn> {
    if (options.supportRevocation) throw unsupportedRevocation()
    const result = await createCredentialDefinition({
      schemaId: options.schemaId,
      schema: options.schema,
      issuerId: options.issuerId,
      tag: options.tag,
      signatureType: 'CL',
    })
    return {
      credentialDefinition: result.credentialDefinition as unknown as AnonCredsCredentialDefinition,
      credentialDefinitionPrivate: result.credentialDefinitionPrivate as unknown as Record<string, unknown>,
      keyCorrectnessProof: result.keyCorrectnessProof as unknown as Record<string, unknown>,
    }
  }

  public async createRevocationRegistryDefinition(): Promise<never> {
    throw unsupportedRevocation()
  }

  public async createRevocationStatusList(): Promise<never> {
    throw unsupportedRevocation()
  }

  public async updateRevocationStatusList(): Promise<never> {
    throw unsupportedRevocation()
  }

  public async createCredentialOffer(
    agentContext: AgentContext,
    options: CreateCredentialOfferOptions,
  ): Promise<AnonCredsCredentialOffer> {
    const definitionRecord = await storedDefinition(agentContext, options.credentialDefinitionId)
    const keyCorrectnessProofRecord = await agentContext.dependencyManager
      .resolve(AnonCredsKeyCorrectnessProofRepository)
      .getByCredentialDefinitionId(agentContext, definitionRecord.credentialDefinitionId)
    return createCredentialOffer({
      schemaId: offeredSchemaId(options.credentialDefinitionId, definitionRecord.credentialDefinition.schemaId),
      credentialDefinitionId: options.credentialDefinitionId,
      keyCorrectnessProof: keyCorrectnessProofRecord.value,
    }) as unknown as AnonCredsCredentialOffer
  }

  public async createCredential(
    agentContext: AgentContext,
    options: CreateCredentialOptions,
  ): Promise<CreateCredentialReturn> {
    if (options.revocationRegistryDefinitionId || options.revocationStatusList) throw unsupportedRevocation()
    const credentialDefinitionId = options.credentialRequest.cred_def_id
    const definitionRecord = await storedDefinition(agentContext, credentialDefinitionId)
    const privateRecord = await agentContext.dependencyManager
      .resolve(AnonCredsCredentialDefinitionPrivateRepository)
      .getByCredentialDefinitionId(agentContext, definitionRecord.credentialDefinitionId)
    const attributeRawValues: Record<string, string> = {}
    const attributeEncodedValues: Record<string, string> = {}
    for (const [name, value] of Object.entries(options.credentialValues)) {
      attributeRawValues[name] = value.raw
      attributeEncodedValues[name] = value.encoded
    }
    const stored = definitionRecord.credentialDefinition
    const credential = createCredential({
      // An offer under a legacy identifier of a did:indy object names the legacy forms (as anoncreds-rs' issuer does).
      credentialDefinition: isUnqualifiedCredentialDefinitionId(credentialDefinitionId)
        ? {
            ...stored,
            schemaId: offeredSchemaId(credentialDefinitionId, stored.schemaId),
            issuerId: isUnqualifiedIndyDid(stored.issuerId)
              ? stored.issuerId
              : parseIndyDid(stored.issuerId).namespaceIdentifier,
          }
        : stored,
      credentialDefinitionPrivate: privateRecord.value,
      credentialOffer: options.credentialOffer,
      credentialRequest: options.credentialRequest,
      attributeRawValues,
      attributeEncodedValues,
    })
    return { credential: credential as unknown as AnonCredsCredential }
  }
}

/**
 * The stored definition an offer or request names, under either form of its id (issue 22 item 2): the legacy
 * `<did>:3:CL:<seq>:<tag>` and `did:indy:<ns>:<did>/anoncreds/v0/CLAIM_DEF/<seq>/<tag>`. Credo's repository finds a
 * did:indy record by its legacy id (a tag); a record stored under the legacy id is found by the legacy form of a
 * did:indy id here. The private and key-correctness-proof records are tagged with the stored id only, so they are
 * read by `credentialDefinitionId` of the record this returns.
 * @throws RecordNotFoundError when no definition is stored under either form
 */
async function storedDefinition(
  agentContext: AgentContext,
  credentialDefinitionId: string,
): Promise<AnonCredsCredentialDefinitionRecord> {
  const definitions = agentContext.dependencyManager.resolve(AnonCredsCredentialDefinitionRepository)
  const found = await definitions.findByCredentialDefinitionId(agentContext, credentialDefinitionId)
  if (found) return found
  if (!isDidIndyCredentialDefinitionId(credentialDefinitionId)) {
    return definitions.getByCredentialDefinitionId(agentContext, credentialDefinitionId)
  }
  const { namespaceIdentifier, schemaSeqNo, tag } = parseIndyCredentialDefinitionId(credentialDefinitionId)
  return definitions.getByCredentialDefinitionId(
    agentContext,
    getUnqualifiedCredentialDefinitionId(namespaceIdentifier, schemaSeqNo, tag),
  )
}

/**
 * The schema id an offer names: the stored one, or its legacy form when the offer uses a legacy credential
 * definition id for an object stored under a did:indy id.
 */
function offeredSchemaId(credentialDefinitionId: string, schemaId: string): string {
  if (!isUnqualifiedCredentialDefinitionId(credentialDefinitionId) || isUnqualifiedSchemaId(schemaId)) return schemaId
  const { namespaceIdentifier, schemaName, schemaVersion } = parseIndySchemaId(schemaId)
  return getUnqualifiedSchemaId(namespaceIdentifier, schemaName, schemaVersion)
}

export function unsupportedRevocation() {
  return new CredoAnonCredsError('AnonCreds revocation is not supported yet')
}
