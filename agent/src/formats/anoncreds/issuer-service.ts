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
  AnonCredsModuleConfig,
  type AnonCredsRevocationRegistryDefinition,
  type AnonCredsRevocationStatusList,
  type AnonCredsSchema,
  type CreateCredentialDefinitionOptions,
  type CreateCredentialDefinitionReturn,
  type CreateCredentialOfferOptions,
  type CreateCredentialOptions,
  type CreateCredentialReturn,
  type CreateRevocationRegistryDefinitionOptions,
  type CreateRevocationRegistryDefinitionReturn,
  type CreateRevocationStatusListOptions,
  type CreateSchemaOptions,
  dateToTimestamp,
  getUnqualifiedCredentialDefinitionId,
  getUnqualifiedRevocationRegistryDefinitionId,
  getUnqualifiedSchemaId,
  isDidIndyCredentialDefinitionId,
  isDidIndyRevocationRegistryId,
  isUnqualifiedCredentialDefinitionId,
  isUnqualifiedIndyDid,
  isUnqualifiedSchemaId,
  parseIndyCredentialDefinitionId,
  parseIndyDid,
  parseIndyRevocationRegistryId,
  parseIndySchemaId,
  type UpdateRevocationStatusListOptions,
} from '@credo-ts/anoncreds'
import { type AgentContext, injectable } from '@credo-ts/core'

import {
  createCredential,
  createCredentialDefinition,
  createCredentialOffer,
  createRevocationRegistryDefinition,
  createRevocationStatusList,
  createSchema,
  updateRevocationStatusList,
} from '../../anoncreds'
import { PlatformTailsFileService } from './platform-tails-file.service'
import { storedRevocationRegistry } from './stored-revocation-registry'

/**
 * Credo's AnonCredsIssuerService on our TypeScript AnonCreds library (agent/src/anoncreds) instead of the native
 * anoncreds-rs. The objects are the anoncreds-rs JSON Credo stores and sends, so records and messages are the
 * same as with AnonCredsRsIssuerService. Revocation (issue 25): registries with their tails file (written to the tails
 * directory of PlatformTailsFileService, which uploads it), status lists issued by default, and revocable credentials
 * at the index the offer names.
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
    const result = await createCredentialDefinition({
      schemaId: options.schemaId,
      schema: options.schema,
      issuerId: options.issuerId,
      tag: options.tag,
      signatureType: 'CL',
      supportRevocation: options.supportRevocation === true,
    })
    return {
      credentialDefinition: result.credentialDefinition as unknown as AnonCredsCredentialDefinition,
      credentialDefinitionPrivate: result.credentialDefinitionPrivate as unknown as Record<string, unknown>,
      keyCorrectnessProof: result.keyCorrectnessProof as unknown as Record<string, unknown>,
    }
  }

  /**
   * The registry's keys and tails file (computed in worker threads): the file goes to the tails directory under its
   * hash, and `tailsLocation` names that path until Credo has uploaded it (PlatformTailsFileService).
   */
  public async createRevocationRegistryDefinition(
    agentContext: AgentContext,
    options: CreateRevocationRegistryDefinitionOptions,
  ): Promise<CreateRevocationRegistryDefinitionReturn> {
    const tails = tailsFileServiceOf(agentContext)
    const result = await createRevocationRegistryDefinition({
      credentialDefinition: options.credentialDefinition,
      credentialDefinitionId: options.credentialDefinitionId,
      issuerId: options.issuerId,
      tag: options.tag,
      maximumCredentialNumber: options.maximumCredentialNumber,
      // Set below, once the file's name (its hash) is known.
      tailsLocation: 'pending',
    })
    const local = tails.pathOf(result.revocationRegistryDefinition.value.tailsHash)
    await tails.write(local, result.tailsFile)
    const definition = result.revocationRegistryDefinition
    return {
      revocationRegistryDefinition: {
        ...definition,
        value: { ...definition.value, tailsLocation: local },
      } as AnonCredsRevocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: result.revocationRegistryDefinitionPrivate as unknown as Record<
        string,
        unknown
      >,
    }
  }

  /** The first list: every index issued (issuance by default, as anoncreds-rs), so issuing never moves it. */
  public async createRevocationStatusList(
    agentContext: AgentContext,
    options: CreateRevocationStatusListOptions,
  ): Promise<AnonCredsRevocationStatusList> {
    const registry = await storedRevocationRegistry(agentContext, options.revocationRegistryDefinitionId)
    const credentialDefinition = await storedDefinition(agentContext, options.revocationRegistryDefinition.credDefId)
    const list = createRevocationStatusList({
      credentialDefinition: credentialDefinition.credentialDefinition,
      revocationRegistryDefinitionId: options.revocationRegistryDefinitionId,
      revocationRegistryDefinition: options.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.privateRecord.value,
      timestamp: dateToTimestamp(new Date()),
    })
    return list as AnonCredsRevocationStatusList
  }

  /** The next list: `revoked` and `issued` applied to the current one (the registry publishes it). */
  public async updateRevocationStatusList(
    agentContext: AgentContext,
    options: UpdateRevocationStatusListOptions,
  ): Promise<AnonCredsRevocationStatusList> {
    const registry = await storedRevocationRegistry(agentContext, options.revocationStatusList.revRegDefId)
    const credentialDefinition = await storedDefinition(agentContext, options.revocationRegistryDefinition.credDefId)
    const list = updateRevocationStatusList({
      credentialDefinition: credentialDefinition.credentialDefinition,
      revocationRegistryDefinition: options.revocationRegistryDefinition,
      revocationRegistryDefinitionPrivate: registry.privateRecord.value,
      revocationStatusList: options.revocationStatusList,
      revoked: options.revoked,
      issued: options.issued,
      timestamp: options.timestamp ?? dateToTimestamp(new Date()),
    })
    return { ...list, revRegDefId: options.revocationStatusList.revRegDefId } as AnonCredsRevocationStatusList
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
    const legacy = isUnqualifiedCredentialDefinitionId(credentialDefinitionId)
    const revocationConfiguration = await revocationConfigurationOf(agentContext, options, legacy)
    const credential = createCredential({
      // An offer under a legacy identifier of a did:indy object names the legacy forms (as anoncreds-rs' issuer does).
      credentialDefinition: legacy
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
      revocationConfiguration,
    })
    return {
      credential: credential as unknown as AnonCredsCredential,
      credentialRevocationId: revocationConfiguration ? String(revocationConfiguration.registryIndex) : undefined,
    }
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
 * Where a revocable credential goes: all three of the registry id, its current status list and the index, or none
 * (a credential that cannot be revoked). A `legacy` offer (Issue Credential v1: `<did>:3:CL:...` ids only) of a
 * registry stored under its did:indy id gets the registry's legacy forms, as its credential definition does: the
 * credential's `rev_reg_id` is then `<did>:4:...`, which v1 holders and verifiers resolve.
 * @throws CredoAnonCredsError when only some are given, or the registry is not this agent's
 */
async function revocationConfigurationOf(
  agentContext: AgentContext,
  options: CreateCredentialOptions,
  legacy: boolean,
) {
  const { revocationRegistryDefinitionId: id, revocationStatusList, revocationRegistryIndex: index } = options
  if (id === undefined && revocationStatusList === undefined && index === undefined) return undefined
  if (!id || !revocationStatusList || index === undefined)
    throw new CredoAnonCredsError(
      'A revocable credential needs the revocation registry id, its status list and the revocation index',
    )
  const registry = await storedRevocationRegistry(agentContext, id)
  const definition = registry.definitionRecord.revocationRegistryDefinition
  const named = legacy ? legacyRevocationRegistry(id, definition) : { id, definition }
  return {
    revocationRegistryDefinition: named.definition,
    revocationRegistryDefinitionPrivate: registry.privateRecord.value,
    // The credential names its registry as the offer did (the list may come back in the other id form).
    revocationStatusList: { ...revocationStatusList, revRegDefId: named.id },
    registryIndex: index,
  }
}

/** The legacy id and definition (issuer and credential definition in legacy form) of a did:indy registry. */
function legacyRevocationRegistry(
  id: string,
  definition: AnonCredsRevocationRegistryDefinition,
): { id: string; definition: AnonCredsRevocationRegistryDefinition } {
  if (!isDidIndyRevocationRegistryId(id) || !isDidIndyCredentialDefinitionId(definition.credDefId))
    return { id, definition }
  const registry = parseIndyRevocationRegistryId(id)
  const credentialDefinition = parseIndyCredentialDefinitionId(definition.credDefId)
  return {
    id: getUnqualifiedRevocationRegistryDefinitionId(
      registry.namespaceIdentifier,
      registry.schemaSeqNo,
      registry.credentialDefinitionTag,
      registry.revocationRegistryTag,
    ),
    definition: {
      ...definition,
      issuerId: registry.namespaceIdentifier,
      credDefId: getUnqualifiedCredentialDefinitionId(
        credentialDefinition.namespaceIdentifier,
        credentialDefinition.schemaSeqNo,
        credentialDefinition.tag,
      ),
    },
  }
}

/** @throws CredoAnonCredsError when the agent's tails-file service is not the platform's */
function tailsFileServiceOf(agentContext: AgentContext): PlatformTailsFileService {
  const service = agentContext.dependencyManager.resolve(AnonCredsModuleConfig).tailsFileService
  if (!(service instanceof PlatformTailsFileService))
    throw new CredoAnonCredsError('Revocation registries need the platform tails-file service')
  return service
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
