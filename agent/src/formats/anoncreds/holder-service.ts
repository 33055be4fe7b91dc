import {
  AnonCredsCredentialRecord,
  AnonCredsCredentialRepository,
  AnonCredsError as CredoAnonCredsError,
  type AnonCredsCredential,
  type AnonCredsCredentialInfo,
  type AnonCredsCredentialRequest,
  type AnonCredsHolderService,
  AnonCredsLinkSecretRepository,
  type AnonCredsProof,
  AnonCredsModuleConfig,
  AnonCredsRegistryService,
  AnonCredsRestrictionWrapper,
  type CreateCredentialRequestOptions,
  type CreateCredentialRequestReturn,
  type CreateLinkSecretOptions,
  type CreateLinkSecretReturn,
  type CreateProofOptions,
  type GetCredentialOptions,
  type GetCredentialsForProofRequestOptions,
  type GetCredentialsForProofRequestReturn,
  type GetCredentialsOptions,
  type StoreCredentialOptions,
  getUnQualifiedDidIndyDid,
  isIndyDid,
  isUnqualifiedCredentialDefinitionId,
  storeLinkSecret,
} from '@credo-ts/anoncreds'
import { type AgentContext, CredoError, injectable, JsonTransformer, type Query, utils } from '@credo-ts/core'

import {
  createCredentialRequest,
  createLinkSecret,
  createNonce,
  createPresentation,
  processCredentialOffLoop,
  type PresentationCredentialEntry,
  type PresentationCredentialProve,
} from '../../anoncreds'
import { revocationIndexOf, revocationStateFor } from './holder-revocation'

/**
 * Credo's AnonCredsHolderService on our TypeScript AnonCreds library. Credentials are stored as Credo's
 * AnonCredsCredentialRecord (the anoncreds-rs credential JSON, tagged with schemaId, credentialDefinitionId,
 * issuerId, schemaName, schemaVersion, schemaIssuerId and attr::<name>::value / ::marker): the W3C form Credo's
 * anoncreds-rs holder stores needs the anoncreds-rs W3C conversion, which our library does not have
 * (docs/decisions.md, "AnonCreds in Credo"). Credo's own proof format services query these records through
 * getCredentialsForProofRequest; its legacy-record code paths read them.
 */
@injectable()
export class IdplaneAnonCredsHolderService implements AnonCredsHolderService {
  public async createLinkSecret(
    _agentContext: AgentContext,
    options?: CreateLinkSecretOptions,
  ): Promise<CreateLinkSecretReturn> {
    return { linkSecretId: options?.linkSecretId ?? utils.uuid(), linkSecretValue: createLinkSecret() }
  }

  public generateNonce(): string {
    return createNonce()
  }

  public async createCredentialRequest(
    agentContext: AgentContext,
    options: CreateCredentialRequestOptions,
  ): Promise<CreateCredentialRequestReturn> {
    const linkSecrets = agentContext.dependencyManager.resolve(AnonCredsLinkSecretRepository)
    let linkSecretRecord = options.linkSecretId
      ? await linkSecrets.getByLinkSecretId(agentContext, options.linkSecretId)
      : await linkSecrets.findDefault(agentContext)
    if (!linkSecretRecord) {
      if (!agentContext.dependencyManager.resolve(AnonCredsModuleConfig).autoCreateLinkSecret)
        throw new CredoAnonCredsError('No link secret given and no default link secret stored')
      const { linkSecretId, linkSecretValue } = await this.createLinkSecret(agentContext)
      linkSecretRecord = await storeLinkSecret(agentContext, { linkSecretId, linkSecretValue, setAsDefault: true })
    }
    if (!linkSecretRecord.value) throw new CredoAnonCredsError('The link secret value is not stored')
    const isLegacy = isUnqualifiedCredentialDefinitionId(options.credentialOffer.cred_def_id)
    if (options.useLegacyProverDid && !isLegacy)
      throw new CredoError('Cannot use a legacy prover_did with non-legacy identifiers')
    const useProverDid = options.useLegacyProverDid === true && isLegacy
    const result = createCredentialRequest({
      // anoncreds-rs binds the request to either a random entropy or (legacy identifiers) a prover DID.
      entropy: useProverDid ? undefined : createNonce(),
      proverDid: useProverDid ? legacyProverDid() : undefined,
      credentialDefinition: options.credentialDefinition,
      credentialOffer: options.credentialOffer,
      linkSecret: linkSecretRecord.value,
      linkSecretId: linkSecretRecord.linkSecretId,
    })
    return {
      credentialRequest: result.credentialRequest as unknown as AnonCredsCredentialRequest,
      credentialRequestMetadata:
        result.credentialRequestMetadata as unknown as CreateCredentialRequestReturn['credentialRequestMetadata'],
    }
  }

  public async storeCredential(agentContext: AgentContext, options: StoreCredentialOptions): Promise<string> {
    if (!('cred_def_id' in options.credential))
      throw new CredoAnonCredsError('W3C AnonCreds credentials are not supported; expected an anoncreds-rs credential')
    const linkSecretId = options.credentialRequestMetadata.link_secret_name
    const linkSecretRecord = await agentContext.dependencyManager
      .resolve(AnonCredsLinkSecretRepository)
      .getByLinkSecretId(agentContext, linkSecretId)
    if (!linkSecretRecord.value) throw new CredoAnonCredsError('The link secret value is not stored')
    // A legacy credential (Issue Credential v1) is tagged with legacy identifiers (proof requests for it name
    // those), and its registry is matched in that form, even though Credo hands over its definition, schema and
    // registry in their did:indy form.
    const isLegacy = isUnqualifiedCredentialDefinitionId(options.credential.cred_def_id)
    const legacyForm = (id: string) => (isLegacy && isIndyDid(id) ? getUnQualifiedDidIndyDid(id) : id)
    const registry = options.revocationRegistry?.definition
    // Verifies the issuer's signature and its correctness proof; returns a new object (anoncreds-rs mutates).
    const credential = (await processCredentialOffLoop({
      credential: options.credential,
      credentialRequestMetadata: options.credentialRequestMetadata,
      linkSecret: linkSecretRecord.value,
      credentialDefinition: options.credentialDefinition,
      // A revocable credential's witness is checked against its registry's accumulator key.
      revocationRegistryDefinition: registry && {
        ...registry,
        issuerId: legacyForm(registry.issuerId),
        credDefId: legacyForm(registry.credDefId),
      },
    })) as unknown as AnonCredsCredential
    const methodName = agentContext.dependencyManager
      .resolve(AnonCredsRegistryService)
      .getRegistryForIdentifier(agentContext, options.credentialDefinition.issuerId).methodName
    const credentialId = options.credentialId ?? utils.uuid()
    await agentContext.dependencyManager.resolve(AnonCredsCredentialRepository).save(
      agentContext,
      new AnonCredsCredentialRecord({
        credentialId,
        credential,
        credentialRevocationId: revocationIndexOf(credential),
        linkSecretId,
        methodName,
        issuerId: legacyForm(options.credentialDefinition.issuerId),
        schemaIssuerId: legacyForm(options.schema.issuerId),
        schemaName: options.schema.name,
        schemaVersion: options.schema.version,
      }),
    )
    return credentialId
  }

  public async getCredential(
    agentContext: AgentContext,
    options: GetCredentialOptions,
  ): Promise<AnonCredsCredentialInfo> {
    const record = await agentContext.dependencyManager
      .resolve(AnonCredsCredentialRepository)
      .getByCredentialId(agentContext, options.id)
    return credentialInfoOf(record)
  }

  public async getCredentials(
    agentContext: AgentContext,
    options: GetCredentialsOptions,
  ): Promise<AnonCredsCredentialInfo[]> {
    const records = await agentContext.dependencyManager
      .resolve(AnonCredsCredentialRepository)
      .findByQuery(agentContext, {
        credentialDefinitionId: options.credentialDefinitionId,
        schemaId: options.schemaId,
        issuerId: options.issuerId,
        schemaName: options.schemaName,
        schemaVersion: options.schemaVersion,
        schemaIssuerId: options.schemaIssuerId,
        methodName: options.methodName,
      })
    return records.map(credentialInfoOf)
  }

  public async deleteCredential(agentContext: AgentContext, credentialId: string): Promise<void> {
    const repository = agentContext.dependencyManager.resolve(AnonCredsCredentialRepository)
    await repository.delete(agentContext, await repository.getByCredentialId(agentContext, credentialId))
  }

  public async getCredentialsForProofRequest(
    agentContext: AgentContext,
    options: GetCredentialsForProofRequestOptions,
  ): Promise<GetCredentialsForProofRequestReturn> {
    const { proofRequest, attributeReferent } = options
    const requested =
      proofRequest.requested_attributes[attributeReferent] ?? proofRequest.requested_predicates[attributeReferent]
    if (!requested) throw new CredoAnonCredsError(`Referent ${attributeReferent} is not in the proof request`)
    const names = 'names' in requested && requested.names ? requested.names : [requested.name as string]
    const markers: Record<string, true> = {}
    for (const name of names) markers[`attr::${name}::marker`] = true
    const conditions: Query<AnonCredsCredentialRecord>[] = [markers as Query<AnonCredsCredentialRecord>]
    if (requested.restrictions?.length) conditions.push(restrictionQuery(requested.restrictions))
    if (options.extraQuery) conditions.push(options.extraQuery as Query<AnonCredsCredentialRecord>)
    const records = await agentContext.dependencyManager
      .resolve(AnonCredsCredentialRepository)
      .findByQuery(agentContext, { $and: conditions })
    const interval = requested.non_revoked ?? proofRequest.non_revoked
    return records.map((record) => ({ credentialInfo: credentialInfoOf(record), interval }))
  }

  /**
   * A credential with a timestamp (Credo sets one where the request asks for non-revocation and the credential is
   * revocable) is presented with a non-revocation proof against the registry's status list at that timestamp: its
   * revocation state is computed here from the tails file Credo fetched. One credential may be presented at several
   * timestamps (attributes with different `non_revoked` intervals): one entry each.
   */
  public async createProof(agentContext: AgentContext, options: CreateProofOptions): Promise<AnonCredsProof> {
    const { selectedCredentials, proofRequest } = options
    const repository = agentContext.dependencyManager.resolve(AnonCredsCredentialRepository)
    const credentials: PresentationCredentialEntry[] = []
    const entryKeys: string[] = []
    const linkSecretIds = new Set<string>()
    const credentialsProve: PresentationCredentialProve[] = []
    const tailsFiles = new Map<string, Promise<Uint8Array>>()
    const entryIndexOf = async (credentialId: string, timestamp: number | undefined) => {
      const key = `${credentialId}@${timestamp ?? ''}`
      const existing = entryKeys.indexOf(key)
      if (existing !== -1) return existing
      const record = await repository.getByCredentialId(agentContext, credentialId)
      linkSecretIds.add(record.linkSecretId)
      const revocationState =
        timestamp === undefined ? undefined : await revocationStateFor(record, timestamp, options, tailsFiles)
      credentials.push({
        credential: record.credential,
        ...(revocationState ? { revocationState, timestamp } : {}),
      })
      entryKeys.push(key)
      return credentials.length - 1
    }
    for (const [referent, match] of Object.entries(selectedCredentials.attributes)) {
      const entryIndex = await entryIndexOf(match.credentialId, match.timestamp)
      credentialsProve.push({ entryIndex, referent, isPredicate: false, reveal: match.revealed })
    }
    for (const [referent, match] of Object.entries(selectedCredentials.predicates)) {
      const entryIndex = await entryIndexOf(match.credentialId, match.timestamp)
      credentialsProve.push({ entryIndex, referent, isPredicate: true, reveal: true })
    }
    // One proof binds all its credentials to one link secret.
    if (linkSecretIds.size > 1) throw new CredoAnonCredsError('The selected credentials use different link secrets')
    const linkSecrets = agentContext.dependencyManager.resolve(AnonCredsLinkSecretRepository)
    const [linkSecretId] = [...linkSecretIds]
    const linkSecretRecord = linkSecretId
      ? await linkSecrets.getByLinkSecretId(agentContext, linkSecretId)
      : await linkSecrets.findDefault(agentContext)
    if (!linkSecretRecord?.value) throw new CredoAnonCredsError('No link secret to create the proof with')
    return createPresentation({
      presentationRequest: proofRequest,
      credentials,
      credentialsProve,
      selfAttest: selectedCredentials.selfAttestedAttributes,
      linkSecret: linkSecretRecord.value,
      schemas: options.schemas,
      credentialDefinitions: options.credentialDefinitions,
    }) as unknown as AnonCredsProof
  }

  public async createW3cPresentation(): Promise<never> {
    throw unsupportedW3c()
  }

  public async w3cToLegacyCredential(): Promise<never> {
    throw unsupportedW3c()
  }

  public async legacyToW3cCredential(): Promise<never> {
    throw unsupportedW3c()
  }
}

function unsupportedW3c() {
  return new CredoAnonCredsError('W3C AnonCreds credentials and presentations are not supported')
}

function credentialInfoOf(record: AnonCredsCredentialRecord): AnonCredsCredentialInfo {
  const attributes: Record<string, string> = {}
  for (const [name, value] of Object.entries(record.credential.values)) attributes[name] = value.raw
  return {
    credentialId: record.credentialId,
    attributes,
    schemaId: record.credential.schema_id,
    credentialDefinitionId: record.credential.cred_def_id,
    revocationRegistryId: record.credential.rev_reg_id ?? null,
    credentialRevocationId: record.credentialRevocationId ?? null,
    methodName: record.methodName,
    linkSecretId: record.linkSecretId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt ?? record.createdAt,
  }
}

/** A proof request's restrictions as a query on AnonCredsCredentialRecord tags: any one restriction suffices. */
function restrictionQuery(restrictions: readonly unknown[]): Query<AnonCredsCredentialRecord> {
  const parsed = JsonTransformer.fromJSON({ restrictions }, AnonCredsRestrictionWrapper).restrictions
  const alternatives = parsed.map((restriction) => {
    const tags: Record<string, string | boolean> = {}
    if (restriction.credentialDefinitionId) tags.credentialDefinitionId = restriction.credentialDefinitionId
    const issuerId = restriction.issuerId ?? restriction.issuerDid
    if (issuerId) tags.issuerId = issuerId
    if (restriction.schemaId) tags.schemaId = restriction.schemaId
    const schemaIssuerId = restriction.schemaIssuerId ?? restriction.schemaIssuerDid
    if (schemaIssuerId) tags.schemaIssuerId = schemaIssuerId
    if (restriction.schemaName) tags.schemaName = restriction.schemaName
    if (restriction.schemaVersion) tags.schemaVersion = restriction.schemaVersion
    for (const [name, value] of Object.entries(restriction.attributeValues)) tags[`attr::${name}::value`] = value
    for (const [name, isPresent] of Object.entries(restriction.attributeMarkers))
      if (isPresent) tags[`attr::${name}::marker`] = true
    return tags as Query<AnonCredsCredentialRecord>
  })
  return alternatives.length === 1 ? alternatives[0] : { $or: alternatives }
}

/** A legacy prover DID: base58 of 16 random digits, as Credo's anoncreds-rs holder makes it. */
function legacyProverDid(): string {
  const digits = createNonce().slice(0, 16)
  return base58(Buffer.from(digits, 'utf8'))
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

function base58(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`)
  let out = ''
  while (value > 0n) {
    out = BASE58_ALPHABET[Number(value % 58n)] + out
    value /= 58n
  }
  for (const byte of bytes) {
    if (byte !== 0) break
    out = `1${out}`
  }
  return out
}
