import {
  type AnonCredsCredentialDefinition,
  type AnonCredsRegistry,
  type AnonCredsRevocationRegistryDefinition,
  type AnonCredsRevocationStatusList,
  type AnonCredsSchema,
  type GetCredentialDefinitionReturn,
  type GetRevocationRegistryDefinitionReturn,
  type GetRevocationStatusListReturn,
  type GetSchemaReturn,
  isDidIndyCredentialDefinitionId,
  isDidIndyRevocationRegistryId,
  isDidIndySchemaId,
  isUnqualifiedCredentialDefinitionId,
  isUnqualifiedRevocationRegistryId,
  isUnqualifiedSchemaId,
  parseIndyCredentialDefinitionId,
  parseIndyRevocationRegistryId,
  parseIndySchemaId,
  type RegisterCredentialDefinitionOptions,
  type RegisterCredentialDefinitionReturn,
  type RegisterRevocationRegistryDefinitionOptions,
  type RegisterRevocationRegistryDefinitionReturn,
  type RegisterRevocationStatusListOptions,
  type RegisterRevocationStatusListReturn,
  type RegisterSchemaOptions,
  type RegisterSchemaReturn,
} from '@credo-ts/anoncreds'
import type { AgentContext } from '@credo-ts/core'
import { BoundedMap } from '@idplane/common'
import {
  canonicalJson,
  LEDGER_ACCUMULATOR_MOVED,
  type LedgerTransactionType,
} from '@idplane/common/agent-contract/ledger'

import { DID_INDY_PATTERN, KmsLedgerSigner, type LedgerSigner, unqualifiedIndyDid } from './indy-dids'
import { type LedgerClient, LedgerHttpError, LedgerNotConfiguredError, type LedgerTransaction } from './ledger-client'

const BASE58 = '[1-9A-HJ-NP-Za-km-z]'
const LEGACY_DID = `${BASE58}{21,22}`
const NAMESPACE = '[a-z0-9][_a-z0-9-]*(?::[a-z0-9][_a-z0-9-]*)?'
const MAX_CACHED_OBJECTS = 1000

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
interface StoredRevocationRegistryDefinition {
  revocationRegistryDefinition: AnonCredsRevocationRegistryDefinition
  seqNo: number
}

/**
 * Credo's AnonCredsRegistry on the platform ledger: reads `GET /v1/ledger/schemas/:id` and `/cred-defs/:id`, writes
 * SCHEMA and CRED_DEF transactions (`POST /v1/ledger/transactions`) signed with the issuer DID's key. Identifiers
 * come in both Indy forms: legacy (`<did>:2:<name>:<version>`, `<did>:3:CL:<schemaSeqNo>:<tag>`, which Credo's
 * `indy` format and the v1 protocols need) and `did:indy:<namespace>:<did>/anoncreds/v0/...`; every answer uses the
 * form it was asked with (objects inside included). Ledger objects never change, so resolved ones are kept
 * (bounded) in memory; status lists change, so they are read each time.
 *
 * Revocation (docs/decisions.md, "Revocation registries on the ledger"): a registry definition is a REVOC_REG_DEF
 * (`<did>:4:<credDefId>:CL_ACCUM:<tag>`, `.../REV_REG_DEF/<schemaSeqNo>/<credDefTag>/<tag>`); a status list is
 * written as a REVOC_REG_ENTRY, Indy's delta from the ledger's current list (indices issued and revoked, the new
 * accumulator and the one it moves from), and read back whole at a timestamp (`GET .../status-list`).
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
  private readonly revocationRegistryDefinitions = new BoundedMap<string, StoredRevocationRegistryDefinition>(
    MAX_CACHED_OBJECTS,
  )

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
    const id = revocationRegistryDefinitionId
    const base = { revocationRegistryDefinitionId: id, revocationRegistryDefinitionMetadata: {} }
    if (!isUnqualifiedRevocationRegistryId(id) && !isDidIndyRevocationRegistryId(id))
      return { ...base, resolutionMetadata: invalid(`${id} is not an Indy revocation registry id`) }
    try {
      const namespace = await this.ledger.getNamespace()
      const parsed = parseIndyRevocationRegistryId(id)
      if (parsed.namespace !== undefined && parsed.namespace !== namespace)
        return { ...base, resolutionMetadata: notOnThisLedger(id, namespace) }
      const stored = await this.readRevocationRegistryDefinition(legacyRevocationRegistryIdOf(parsed))
      const { revocationRegistryDefinition: definition } = stored
      if (definition.issuerId !== parsed.namespaceIdentifier || definition.tag !== parsed.revocationRegistryTag)
        return { ...base, resolutionMetadata: invalid(`The ledger answered ${id} with another registry`) }
      return {
        revocationRegistryDefinitionId: id,
        revocationRegistryDefinition: parsed.namespace
          ? {
              ...definition,
              issuerId: `did:indy:${namespace}:${definition.issuerId}`,
              credDefId: didIndyCredentialDefinitionIdOf(definition.credDefId, namespace),
            }
          : definition,
        resolutionMetadata: {},
        revocationRegistryDefinitionMetadata: { indyLedgerSeqNo: stored.seqNo, didIndyNamespace: namespace },
      }
    } catch (error) {
      return { ...base, resolutionMetadata: resolutionFailure(error) }
    }
  }

  /**
   * Writes a REVOC_REG_DEF. The definition's `tailsLocation` must already serve its tails file (the platform's
   * `POST /v1/tails-files` answers one: LedgerClient.uploadTailsFile); the ledger checks that the credential
   * definition is the issuer's and supports revocation.
   */
  public async registerRevocationRegistryDefinition(
    agentContext: AgentContext,
    options: RegisterRevocationRegistryDefinitionOptions,
  ): Promise<RegisterRevocationRegistryDefinitionReturn> {
    const { revocationRegistryDefinition: definition } = options
    const failed = (reason: string): RegisterRevocationRegistryDefinitionReturn => ({
      revocationRegistryDefinitionState: { state: 'failed', reason, revocationRegistryDefinition: definition },
      revocationRegistryDefinitionMetadata: {},
      registrationMetadata: {},
    })
    const { issuerId, credDefId, tag, revocDefType, value } = definition
    const authorDid = unqualifiedIndyDid(issuerId)
    if (!authorDid || issuerId.startsWith('did:sov:'))
      return failed(`issuerId ${issuerId} must be a did:indy DID or an unqualified Indy DID`)
    if (!isUnqualifiedCredentialDefinitionId(credDefId) && !isDidIndyCredentialDefinitionId(credDefId))
      return failed(`credDefId ${credDefId} is not an Indy credential definition id`)
    if (revocDefType !== 'CL_ACCUM') return failed('revocDefType must be CL_ACCUM')
    if (tag.includes(':') || tag.includes('/')) return failed('a registry tag must not contain ":" or "/"')
    try {
      const namespace = await this.namespaceFor(issuerId)
      const credDef = parseIndyCredentialDefinitionId(credDefId)
      if (credDef.namespace !== undefined && credDef.namespace !== namespace)
        return failed(`credDefId ${credDefId} is not on this platform's ledger (namespace ${namespace})`)
      if (credDef.namespaceIdentifier !== authorDid)
        return failed(`credDefId ${credDefId} is not a credential definition of ${issuerId}`)
      const legacyCredDefId = `${authorDid}:3:CL:${credDef.schemaSeqNo}:${credDef.tag}`
      const legacyId = `${authorDid}:4:${legacyCredDefId}:CL_ACCUM:${tag}`
      const payload = { credDefId: legacyCredDefId, revocDefType, tag, value }
      const transaction = await this.write(agentContext, namespace, 'REVOC_REG_DEF', authorDid, payload, async () => {
        const existing = await this.readRevocationRegistryDefinition(legacyId)
        return canonicalJson(existing.revocationRegistryDefinition.value) === canonicalJson(value)
          ? existing.seqNo
          : undefined
      })
      const revocationRegistryDefinitionId = DID_INDY_PATTERN.test(issuerId)
        ? `${issuerId}/anoncreds/v0/REV_REG_DEF/${credDef.schemaSeqNo}/${credDef.tag}/${tag}`
        : legacyId
      return {
        revocationRegistryDefinitionState: {
          state: 'finished',
          revocationRegistryDefinition: definition,
          revocationRegistryDefinitionId,
        },
        revocationRegistryDefinitionMetadata: { indyLedgerSeqNo: transaction.seqNo, didIndyNamespace: namespace },
        registrationMetadata: {},
      }
    } catch (error) {
      return failed(registrationFailure(error))
    }
  }

  /**
   * The registry's status list at `timestamp` (seconds): the one its latest entry at or before that moment made, its
   * `timestamp` that entry's ledger time. Ids and issuer come in the form asked.
   */
  public async getRevocationStatusList(
    _agentContext: AgentContext,
    revocationRegistryId: string,
    timestamp: number,
  ): Promise<GetRevocationStatusListReturn> {
    const base = { revocationStatusListMetadata: {} }
    if (
      !isUnqualifiedRevocationRegistryId(revocationRegistryId) &&
      !isDidIndyRevocationRegistryId(revocationRegistryId)
    )
      return { ...base, resolutionMetadata: invalid(`${revocationRegistryId} is not an Indy revocation registry id`) }
    if (!Number.isSafeInteger(timestamp) || timestamp < 0)
      return { ...base, resolutionMetadata: invalid('timestamp must be a whole number of seconds') }
    try {
      const namespace = await this.ledger.getNamespace()
      const parsed = parseIndyRevocationRegistryId(revocationRegistryId)
      if (parsed.namespace !== undefined && parsed.namespace !== namespace)
        return { ...base, resolutionMetadata: notOnThisLedger(revocationRegistryId, namespace) }
      const answer = await this.ledger.getRevocationStatusList(revocationRegistryId, timestamp)
      const list = answer.revocationStatusList
      if (list.revRegDefId !== revocationRegistryId || list.timestamp > timestamp)
        return { ...base, resolutionMetadata: invalid(`The ledger answered ${revocationRegistryId} with another list`) }
      return {
        revocationStatusList: { ...list } satisfies AnonCredsRevocationStatusList,
        resolutionMetadata: {},
        revocationStatusListMetadata: { indyLedgerSeqNo: answer.seqNo, didIndyNamespace: namespace },
      }
    } catch (error) {
      return { ...base, resolutionMetadata: resolutionFailure(error) }
    }
  }

  /**
   * Publishes a status list as a REVOC_REG_ENTRY: the difference from the list on the ledger now (before the first
   * entry, every index issued), with the new accumulator and the current one it moves from. When another entry got
   * there first (the ledger answers that the accumulator moved), the difference is taken again from the new current
   * list, once: the list given is the registry's whole state, so it stays right whatever came in between.
   */
  public async registerRevocationStatusList(
    agentContext: AgentContext,
    options: RegisterRevocationStatusListOptions,
  ): Promise<RegisterRevocationStatusListReturn> {
    const { revocationStatusList: list } = options
    const failed = (reason: string): RegisterRevocationStatusListReturn => ({
      revocationStatusListState: { state: 'failed', reason, revocationStatusList: list },
      revocationStatusListMetadata: {},
      registrationMetadata: {},
    })
    const { issuerId, revRegDefId, revocationList, currentAccumulator } = list
    const authorDid = unqualifiedIndyDid(issuerId)
    if (!authorDid || issuerId.startsWith('did:sov:'))
      return failed(`issuerId ${issuerId} must be a did:indy DID or an unqualified Indy DID`)
    if (!isUnqualifiedRevocationRegistryId(revRegDefId) && !isDidIndyRevocationRegistryId(revRegDefId))
      return failed(`revRegDefId ${revRegDefId} is not an Indy revocation registry id`)
    if (typeof currentAccumulator !== 'string' || currentAccumulator === '')
      return failed('currentAccumulator must be the accumulator of the list')
    try {
      const namespace = await this.namespaceFor(issuerId)
      const parsed = parseIndyRevocationRegistryId(revRegDefId)
      if (parsed.namespace !== undefined && parsed.namespace !== namespace)
        return failed(`revRegDefId ${revRegDefId} is not on this platform's ledger (namespace ${namespace})`)
      if (parsed.namespaceIdentifier !== authorDid)
        return failed(`revRegDefId ${revRegDefId} is not a registry of ${issuerId}`)
      const legacyId = legacyRevocationRegistryIdOf(parsed)
      const { maxCredNum } = (await this.readRevocationRegistryDefinition(legacyId)).revocationRegistryDefinition.value
      if (!Array.isArray(revocationList) || revocationList.length !== maxCredNum)
        return failed(`revocationList must have the registry's maxCredNum (${maxCredNum}) entries`)
      if (revocationList.some((bit) => bit !== 0 && bit !== 1)) return failed('revocationList must hold only 0 and 1')
      let transaction: Pick<LedgerTransaction, 'seqNo'>
      for (let round = 1; ; round += 1) {
        const current = await this.currentStatusList(legacyId)
        const payload = { revRegDefId: legacyId, revocDefType: 'CL_ACCUM', value: entryValue(list, current) }
        try {
          transaction = await this.write(agentContext, namespace, 'REVOC_REG_ENTRY', authorDid, payload, async () => {
            const latest = await this.currentStatusList(legacyId)
            return latest?.currentAccumulator === currentAccumulator &&
              canonicalJson(latest.revocationList.slice(1)) === canonicalJson(revocationList.slice(1))
              ? latest.seqNo
              : undefined
          })
          break
        } catch (error) {
          if (round === 2 || !isAccumulatorMoved(error)) throw error
        }
      }
      const txnTime = (await this.ledger.getTransaction(transaction.seqNo)).txnTime
      return {
        revocationStatusListState: {
          state: 'finished',
          revocationStatusList: { ...list, timestamp: Math.floor(Date.parse(txnTime) / 1000) },
        },
        revocationStatusListMetadata: { indyLedgerSeqNo: transaction.seqNo, didIndyNamespace: namespace },
        registrationMetadata: {},
      }
    } catch (error) {
      return failed(registrationFailure(error))
    }
  }

  /** The registry's status list now, or undefined before its first entry. */
  private async currentStatusList(
    legacyId: string,
  ): Promise<(AnonCredsRevocationStatusList & { seqNo: number }) | undefined> {
    try {
      const answer = await this.ledger.getRevocationStatusList(legacyId)
      return { ...answer.revocationStatusList, seqNo: answer.seqNo }
    } catch (error) {
      if (error instanceof LedgerHttpError && error.status === 404) return undefined
      throw error
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
      if (error instanceof LedgerHttpError && error.status === 409 && !isAccumulatorMoved(error)) {
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

  private async readRevocationRegistryDefinition(legacyId: string): Promise<StoredRevocationRegistryDefinition> {
    const kept = this.revocationRegistryDefinitions.get(legacyId)
    if (kept) return kept
    const answer = await this.ledger.getRevocationRegistryDefinition(legacyId)
    const { issuerId, revocDefType, tag, credDefId, value } = answer.revocationRegistryDefinition
    const stored: StoredRevocationRegistryDefinition = {
      revocationRegistryDefinition: {
        issuerId: unqualifiedIndyDid(issuerId) ?? issuerId,
        revocDefType,
        credDefId,
        tag,
        value,
      },
      seqNo: answer.seqNo,
    }
    this.revocationRegistryDefinitions.set(legacyId, stored)
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

/**
 * The REVOC_REG_ENTRY value that takes the ledger's list `current` (undefined: none yet, every index issued) to
 * `list`. Index 0 is no credential (anoncreds-rs' bit 0): never sent.
 */
function entryValue(
  list: { revocationList: number[]; currentAccumulator: string },
  current: { revocationList: number[]; currentAccumulator: string } | undefined,
) {
  const issued: number[] = []
  const revoked: number[] = []
  for (let index = 1; index < list.revocationList.length; index += 1) {
    const before = current?.revocationList[index] ?? 0
    const after = list.revocationList[index]
    if (before !== after) (after === 1 ? revoked : issued).push(index)
  }
  return {
    accum: list.currentAccumulator,
    ...(current ? { prevAccum: current.currentAccumulator } : {}),
    ...(issued.length > 0 ? { issued } : {}),
    ...(revoked.length > 0 ? { revoked } : {}),
  }
}

function isAccumulatorMoved(error: unknown): boolean {
  return error instanceof LedgerHttpError && error.status === 409 && error.message.includes(LEDGER_ACCUMULATOR_MOVED)
}

function legacyRevocationRegistryIdOf(parsed: ReturnType<typeof parseIndyRevocationRegistryId>): string {
  const did = parsed.namespaceIdentifier
  return `${did}:4:${did}:3:CL:${parsed.schemaSeqNo}:${parsed.credentialDefinitionTag}:CL_ACCUM:${parsed.revocationRegistryTag}`
}

function didIndyCredentialDefinitionIdOf(credDefId: string, namespace: string): string {
  if (!isUnqualifiedCredentialDefinitionId(credDefId)) return credDefId
  const parsed = parseIndyCredentialDefinitionId(credDefId)
  return `did:indy:${namespace}:${parsed.namespaceIdentifier}/anoncreds/v0/CLAIM_DEF/${parsed.schemaSeqNo}/${parsed.tag}`
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
