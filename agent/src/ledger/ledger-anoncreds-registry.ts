import {
  type AnonCredsCredentialDefinition,
  type AnonCredsRegistry,
  type AnonCredsSchema,
  type GetCredentialDefinitionReturn,
  type GetRevocationRegistryDefinitionReturn,
  type GetRevocationStatusListReturn,
  type GetSchemaReturn,
  isDidIndyCredentialDefinitionId,
  isDidIndySchemaId,
  isUnqualifiedCredentialDefinitionId,
  isUnqualifiedSchemaId,
  parseIndyCredentialDefinitionId,
  parseIndySchemaId,
  type RegisterCredentialDefinitionOptions,
  type RegisterCredentialDefinitionReturn,
  type RegisterRevocationRegistryDefinitionReturn,
  type RegisterRevocationStatusListReturn,
  type RegisterSchemaOptions,
  type RegisterSchemaReturn,
} from '@credo-ts/anoncreds'
import type { AgentContext } from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'
import { canonicalJson, type LedgerTransactionType } from '@idplane/common/agent-contract/ledger'

import { DID_INDY_PATTERN, KmsLedgerSigner, type LedgerSigner, unqualifiedIndyDid } from './indy-dids'
import { type LedgerClient, LedgerHttpError, LedgerNotConfiguredError, type LedgerTransaction } from './ledger-client'

const BASE58 = '[1-9A-HJ-NP-Za-km-z]'
const LEGACY_DID = `${BASE58}{21,22}`
const NAMESPACE = '[a-z0-9][_a-z0-9-]*(?::[a-z0-9][_a-z0-9-]*)?'
const MAX_CACHED_OBJECTS = 1000
const REVOCATION_NOT_SUPPORTED = 'revocation is not supported by the platform ledger yet'

/** A legacy schema version, as Credo parses legacy schema ids. */
const LEGACY_VERSION = /^[0-9.]+$/

/** A schema or credential definition as the ledger holds it: legacy identifiers throughout. */
interface StoredSchema {
  schema: AnonCredsSchema
  seqNo: number
}
interface StoredCredentialDefinition {
  credentialDefinition: AnonCredsCredentialDefinition
  seqNo: number
}

/**
 * Credo's AnonCredsRegistry on the platform ledger: reads `GET /v1/ledger/schemas/:id` and `/cred-defs/:id`, writes
 * SCHEMA and CRED_DEF transactions (`POST /v1/ledger/transactions`) signed with the issuer DID's key. Identifiers
 * come in both Indy forms: legacy (`<did>:2:<name>:<version>`, `<did>:3:CL:<schemaSeqNo>:<tag>`, which Credo's
 * `indy` format and the v1 protocols need) and `did:indy:<namespace>:<did>/anoncreds/v0/...`; every answer uses the
 * form it was asked with (objects inside included). Ledger objects never change, so resolved ones are kept
 * (bounded) in memory. Revocation answers "not supported" until the revocation issue.
 */
export class LedgerAnonCredsRegistry implements AnonCredsRegistry {
  public readonly methodName = 'idplane-ledger'
  public readonly supportedIdentifier = new RegExp(
    [
      `^${LEGACY_DID}$`,
      `^${LEGACY_DID}:2:.+:[0-9.]+$`,
      `^${LEGACY_DID}:3:CL:[1-9][0-9]*:.+$`,
      `^${LEGACY_DID}:4:${LEGACY_DID}:3:CL:[1-9][0-9]*:.+:CL_ACCUM:.+$`,
      `^did:indy:${NAMESPACE}:${LEGACY_DID}(/anoncreds/v0/.+)?$`,
    ].join('|'),
  )
  // Our own cache (below): Credo's stores every resolved object in the agent's storage.
  public readonly allowsCaching = false
  private readonly schemas = new BoundedMap<string, StoredSchema>(MAX_CACHED_OBJECTS)
  private readonly credentialDefinitions = new BoundedMap<string, StoredCredentialDefinition>(MAX_CACHED_OBJECTS)

  public constructor(
    private readonly ledger: LedgerClient,
    private readonly signer: LedgerSigner = new KmsLedgerSigner(),
  ) {}

  public async getSchema(_agentContext: AgentContext, schemaId: string): Promise<GetSchemaReturn> {
    const base = { schemaId, schemaMetadata: {} }
    if (!isUnqualifiedSchemaId(schemaId) && !isDidIndySchemaId(schemaId))
      return { ...base, resolutionMetadata: invalid(`${schemaId} is not an Indy schema id`) }
    try {
      const namespace = await this.ledger.getNamespace()
      const parsed = parseIndySchemaId(schemaId)
      if (parsed.namespace !== undefined && parsed.namespace !== namespace)
        return { ...base, resolutionMetadata: notOnThisLedger(schemaId, namespace) }
      const legacyId = `${parsed.namespaceIdentifier}:2:${parsed.schemaName}:${parsed.schemaVersion}`
      const stored = await this.readSchema(legacyId)
      const { schema } = stored
      if (schema.issuerId !== parsed.namespaceIdentifier || schema.name !== parsed.schemaName)
        return { ...base, resolutionMetadata: invalid(`The ledger answered ${schemaId} with another schema`) }
      return {
        schemaId,
        schema: parsed.namespace ? { ...schema, issuerId: `did:indy:${namespace}:${schema.issuerId}` } : schema,
        resolutionMetadata: {},
        schemaMetadata: { indyLedgerSeqNo: stored.seqNo, didIndyNamespace: namespace },
      }
    } catch (error) {
      return { ...base, resolutionMetadata: resolutionFailure(error) }
    }
  }

  public async registerSchema(
    agentContext: AgentContext,
    options: RegisterSchemaOptions,
  ): Promise<RegisterSchemaReturn> {
    const { schema } = options
    const failed = (reason: string): RegisterSchemaReturn => ({
      schemaState: { state: 'failed', reason, schema },
      schemaMetadata: {},
      registrationMetadata: {},
    })
    const authorDid = unqualifiedIndyDid(schema.issuerId)
    if (!authorDid || schema.issuerId.startsWith('did:sov:'))
      return failed(`issuerId ${schema.issuerId} must be a did:indy DID or an unqualified Indy DID`)
    if (schema.name.includes(':') || !LEGACY_VERSION.test(schema.version))
      return failed('a ledger schema needs a name without ":" and a version of digits and dots')
    try {
      const namespace = await this.namespaceFor(schema.issuerId)
      const legacyId = `${authorDid}:2:${schema.name}:${schema.version}`
      const payload = { name: schema.name, version: schema.version, attrNames: schema.attrNames }
      const transaction = await this.write(agentContext, namespace, 'SCHEMA', authorDid, payload, async () => {
        const existing = await this.readSchema(legacyId)
        return canonicalJson(existing.schema.attrNames) === canonicalJson(schema.attrNames) ? existing.seqNo : undefined
      })
      const schemaId = DID_INDY_PATTERN.test(schema.issuerId)
        ? `${schema.issuerId}/anoncreds/v0/SCHEMA/${schema.name}/${schema.version}`
        : legacyId
      return {
        schemaState: { state: 'finished', schema, schemaId },
        schemaMetadata: { indyLedgerSeqNo: transaction.seqNo, didIndyNamespace: namespace },
        registrationMetadata: {},
      }
    } catch (error) {
      return failed(registrationFailure(error))
    }
  }

  public async getCredentialDefinition(
    _agentContext: AgentContext,
    credentialDefinitionId: string,
  ): Promise<GetCredentialDefinitionReturn> {
    const base = { credentialDefinitionId, credentialDefinitionMetadata: {} }
    if (
      !isUnqualifiedCredentialDefinitionId(credentialDefinitionId) &&
      !isDidIndyCredentialDefinitionId(credentialDefinitionId)
    )
      return {
        ...base,
        resolutionMetadata: invalid(`${credentialDefinitionId} is not an Indy credential definition id`),
      }
    try {
      const namespace = await this.ledger.getNamespace()
      const parsed = parseIndyCredentialDefinitionId(credentialDefinitionId)
      if (parsed.namespace !== undefined && parsed.namespace !== namespace)
        return { ...base, resolutionMetadata: notOnThisLedger(credentialDefinitionId, namespace) }
      const legacyId = `${parsed.namespaceIdentifier}:3:CL:${parsed.schemaSeqNo}:${parsed.tag}`
      const stored = await this.readCredentialDefinition(legacyId)
      const { credentialDefinition } = stored
      if (credentialDefinition.issuerId !== parsed.namespaceIdentifier || credentialDefinition.tag !== parsed.tag)
        return {
          ...base,
          resolutionMetadata: invalid(`The ledger answered ${credentialDefinitionId} with another definition`),
        }
      return {
        credentialDefinitionId,
        credentialDefinition: parsed.namespace
          ? {
              ...credentialDefinition,
              issuerId: `did:indy:${namespace}:${credentialDefinition.issuerId}`,
              schemaId: didIndySchemaIdOf(credentialDefinition.schemaId, namespace),
            }
          : credentialDefinition,
        resolutionMetadata: {},
        credentialDefinitionMetadata: { indyLedgerSeqNo: stored.seqNo, didIndyNamespace: namespace },
      }
    } catch (error) {
      return { ...base, resolutionMetadata: resolutionFailure(error) }
    }
  }

  public async registerCredentialDefinition(
    agentContext: AgentContext,
    options: RegisterCredentialDefinitionOptions,
  ): Promise<RegisterCredentialDefinitionReturn> {
    const { credentialDefinition } = options
    const failed = (reason: string): RegisterCredentialDefinitionReturn => ({
      credentialDefinitionState: { state: 'failed', reason, credentialDefinition },
      credentialDefinitionMetadata: {},
      registrationMetadata: {},
    })
    const { issuerId, schemaId, tag, value } = credentialDefinition
    const authorDid = unqualifiedIndyDid(issuerId)
    if (!authorDid || issuerId.startsWith('did:sov:'))
      return failed(`issuerId ${issuerId} must be a did:indy DID or an unqualified Indy DID`)
    if (!isUnqualifiedSchemaId(schemaId) && !isDidIndySchemaId(schemaId))
      return failed(`schemaId ${schemaId} is not an Indy schema id`)
    try {
      const namespace = await this.namespaceFor(issuerId)
      const schema = parseIndySchemaId(schemaId)
      if (schema.namespace !== undefined && schema.namespace !== namespace)
        return failed(`schemaId ${schemaId} is not on this platform's ledger (namespace ${namespace})`)
      const legacySchemaId = `${schema.namespaceIdentifier}:2:${schema.schemaName}:${schema.schemaVersion}`
      // The identifier names the schema by its ledger sequence number.
      const schemaSeqNo = (await this.readSchema(legacySchemaId)).seqNo
      const legacyId = `${authorDid}:3:CL:${schemaSeqNo}:${tag}`
      const payload = { schemaId: legacySchemaId, type: 'CL', tag, value }
      await this.write(agentContext, namespace, 'CRED_DEF', authorDid, payload, async () => {
        const existing = await this.readCredentialDefinition(legacyId)
        return canonicalJson(existing.credentialDefinition.value) === canonicalJson(value) ? existing.seqNo : undefined
      })
      const credentialDefinitionId = DID_INDY_PATTERN.test(issuerId)
        ? `${issuerId}/anoncreds/v0/CLAIM_DEF/${schemaSeqNo}/${tag}`
        : legacyId
      return {
        credentialDefinitionState: { state: 'finished', credentialDefinition, credentialDefinitionId },
        credentialDefinitionMetadata: { didIndyNamespace: namespace },
        registrationMetadata: {},
      }
    } catch (error) {
      return failed(registrationFailure(error))
    }
  }

  public async getRevocationRegistryDefinition(
    _agentContext: AgentContext,
    revocationRegistryDefinitionId: string,
  ): Promise<GetRevocationRegistryDefinitionReturn> {
    return {
      revocationRegistryDefinitionId,
      resolutionMetadata: { error: 'notSupported', message: REVOCATION_NOT_SUPPORTED },
      revocationRegistryDefinitionMetadata: {},
    }
  }

  public async registerRevocationRegistryDefinition(): Promise<RegisterRevocationRegistryDefinitionReturn> {
    return {
      revocationRegistryDefinitionState: { state: 'failed', reason: REVOCATION_NOT_SUPPORTED },
      revocationRegistryDefinitionMetadata: {},
      registrationMetadata: {},
    }
  }

  public async getRevocationStatusList(): Promise<GetRevocationStatusListReturn> {
    return {
      resolutionMetadata: { error: 'notSupported', message: REVOCATION_NOT_SUPPORTED },
      revocationStatusListMetadata: {},
    }
  }

  public async registerRevocationStatusList(): Promise<RegisterRevocationStatusListReturn> {
    return {
      revocationStatusListState: { state: 'failed', reason: REVOCATION_NOT_SUPPORTED },
      revocationStatusListMetadata: {},
      registrationMetadata: {},
    }
  }

  /** The ledger's namespace; a did:indy issuer of another namespace cannot write here. */
  private async namespaceFor(issuerId: string): Promise<string> {
    const namespace = await this.ledger.getNamespace()
    const match = DID_INDY_PATTERN.exec(issuerId)
    if (match && match[1] !== namespace)
      throw new RegistryRefusal(`issuerId ${issuerId} is not on this platform's ledger (namespace ${namespace})`)
    return namespace
  }

  /**
   * Signs and appends one transaction (the client binds it to the author's state). A 409 is "already registered",
   * unless an earlier attempt of this very write went unanswered (network error or 5xx) and the ledger now holds
   * exactly this object: that attempt was appended.
   */
  private async write(
    agentContext: AgentContext,
    namespace: string,
    type: LedgerTransactionType,
    authorDid: string,
    payload: unknown,
    sameObjectSeqNo: () => Promise<number | undefined>,
  ): Promise<Pick<LedgerTransaction, 'seqNo'>> {
    const sign = (data: Uint8Array) => this.signer.sign(agentContext, { namespace, authorDid, data })
    try {
      return await this.ledger.writeTransaction({ type, authorDid, payload }, sign)
    } catch (error) {
      if (error instanceof LedgerHttpError && error.status === 409) {
        const seqNo = error.afterUncertainAttempt ? await sameObjectSeqNo().catch(() => undefined) : undefined
        if (seqNo !== undefined) return { seqNo }
        throw new RegistryRefusal(`already registered on the ledger: ${error.message}`)
      }
      throw error
    }
  }

  private async readSchema(legacyId: string): Promise<StoredSchema> {
    const kept = this.schemas.get(legacyId)
    if (kept) return kept
    const answer = await this.ledger.getSchema(legacyId)
    const { issuerId, name, version, attrNames } = answer.schema
    const stored: StoredSchema = {
      schema: { issuerId: unqualifiedIndyDid(issuerId) ?? issuerId, name, version, attrNames },
      seqNo: answer.seqNo,
    }
    this.schemas.set(legacyId, stored)
    return stored
  }

  private async readCredentialDefinition(legacyId: string): Promise<StoredCredentialDefinition> {
    const kept = this.credentialDefinitions.get(legacyId)
    if (kept) return kept
    const answer = await this.ledger.getCredentialDefinition(legacyId)
    const { issuerId, schemaId, type, tag, value } = answer.credentialDefinition
    const stored: StoredCredentialDefinition = {
      credentialDefinition: {
        issuerId: unqualifiedIndyDid(issuerId) ?? issuerId,
        schemaId: legacySchemaIdOf(schemaId),
        type,
        tag,
        value: value as AnonCredsCredentialDefinition['value'],
      },
      seqNo: answer.seqNo,
    }
    this.credentialDefinitions.set(legacyId, stored)
    return stored
  }
}

/** A refusal of ours (bad issuer, duplicate): its message is the whole reason. */
class RegistryRefusal extends Error {}

function legacySchemaIdOf(schemaId: string): string {
  if (!isDidIndySchemaId(schemaId)) return schemaId
  const parsed = parseIndySchemaId(schemaId)
  return `${parsed.namespaceIdentifier}:2:${parsed.schemaName}:${parsed.schemaVersion}`
}

function didIndySchemaIdOf(schemaId: string, namespace: string): string {
  if (!isUnqualifiedSchemaId(schemaId)) return schemaId
  const parsed = parseIndySchemaId(schemaId)
  return `did:indy:${namespace}:${parsed.namespaceIdentifier}/anoncreds/v0/SCHEMA/${parsed.schemaName}/${parsed.schemaVersion}`
}

function invalid(message: string) {
  return { error: 'invalid', message }
}

function notOnThisLedger(id: string, namespace: string) {
  return { error: 'notFound', message: `${id} is not on this platform's ledger (namespace ${namespace})` }
}

/** 404 → notFound, 400 → invalid, anything else (no ledger, unreachable) → error with its message. */
function resolutionFailure(error: unknown) {
  if (error instanceof LedgerHttpError && error.status === 404) return { error: 'notFound', message: error.message }
  if (error instanceof LedgerHttpError && error.status === 400) return invalid(error.message)
  if (error instanceof LedgerNotConfiguredError) return { error: 'unsupportedAnonCredsMethod', message: error.message }
  return { error: 'error', message: error instanceof Error ? error.message : String(error) }
}

function registrationFailure(error: unknown): string {
  if (error instanceof RegistryRefusal) return error.message
  return error instanceof Error ? error.message : String(error)
}
