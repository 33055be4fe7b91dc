import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'

import {
  getQualifiedDidIndyCredentialDefinition,
  getQualifiedDidIndySchema,
  getUnQualifiedDidIndyDid,
  isIndyDid,
} from '@credo-ts/anoncreds'
import type {
  AnonCredsCredentialDefinition,
  AnonCredsRegistry,
  AnonCredsSchema,
  GetCredentialDefinitionReturn,
  GetRevocationRegistryDefinitionReturn,
  GetRevocationStatusListReturn,
  GetSchemaReturn,
  RegisterCredentialDefinitionOptions,
  RegisterCredentialDefinitionReturn,
  RegisterRevocationRegistryDefinitionReturn,
  RegisterRevocationStatusListReturn,
  RegisterSchemaOptions,
  RegisterSchemaReturn,
} from '@credo-ts/anoncreds'
import type { AgentContext } from '@credo-ts/core'

const BASE58 = '[1-9A-HJ-NP-Za-km-z]'
const LEGACY_DID = `${BASE58}{21,22}`
const LEGACY_DID_PATTERN = new RegExp(`^${LEGACY_DID}$`)
/** The did:indy namespace legacy objects of this registry belong to, as Credo's legacy `indy` format requires one. */
const INDY_NAMESPACE = 'idplane-test'

/**
 * TEST-ONLY AnonCreds registry: the stand-in the ledger issue replaces. Issuers are `did:key` DIDs or legacy
 * (unqualified) Indy DIDs; nothing is signed or checked. Objects get identifiers under their issuer:
 *   did:key issuers: `<issuerId>/anoncreds/v0/SCHEMA/<name>/<version>` and
 *                    `<issuerId>/anoncreds/v0/CLAIM_DEF/<schema hash>/<tag>`
 *   legacy issuers:  `<did>:2:<name>:<version>` and `<did>:3:CL:<schema number>:<tag>` (the `indy` format and
 *                    Issue Credential / Present Proof v1 accept only these); the schema number stands in for a
 *                    ledger sequence number: derived from the schema id, so every process agrees on it.
 * Objects live in memory and, when a directory is given (AGENT_ANONCREDS_TEST_REGISTRY_DIR), as one JSON file
 * per identifier there, so that separate agent processes on one machine resolve each other's objects.
 * Registering an identifier twice with a different object is refused (a ledger is append-only too).
 */
export class TestAnonCredsRegistry implements AnonCredsRegistry {
  public readonly methodName = 'idplane-test'
  public readonly supportedIdentifier = new RegExp(
    [
      `^did:key:z${BASE58}+(/anoncreds/v0/(SCHEMA|CLAIM_DEF)/[^/]+/[^/]+)?$`,
      `^${LEGACY_DID}$`,
      `^${LEGACY_DID}:2:[^:]+:[0-9.]+$`,
      `^${LEGACY_DID}:3:CL:[1-9][0-9]*:.+$`,
      // Credo names legacy objects by their did:indy form too (it stores a legacy credential's definition so).
      `^did:indy:${INDY_NAMESPACE}:${LEGACY_DID}(/anoncreds/v0/(SCHEMA|CLAIM_DEF)/.+)?$`,
    ].join('|'),
  )
  private readonly objects = new Map<string, unknown>()

  public constructor(private readonly directory?: string) {}

  public async getSchema(_agentContext: AgentContext, schemaId: string): Promise<GetSchemaReturn> {
    const stored = (await this.read(legacyFormOf(schemaId))) as AnonCredsSchema | undefined
    if (!stored) return { schemaId, resolutionMetadata: notFound(schemaId), schemaMetadata: {} }
    if (!LEGACY_DID_PATTERN.test(stored.issuerId))
      return { schemaId, schema: stored, resolutionMetadata: {}, schemaMetadata: {} }
    const schema = isIndyDid(schemaId) ? getQualifiedDidIndySchema(stored, INDY_NAMESPACE) : stored
    return { schemaId, schema, resolutionMetadata: {}, schemaMetadata: { didIndyNamespace: INDY_NAMESPACE } }
  }

  public async registerSchema(
    _agentContext: AgentContext,
    options: RegisterSchemaOptions,
  ): Promise<RegisterSchemaReturn> {
    const { schema } = options
    const isLegacy = LEGACY_DID_PATTERN.test(schema.issuerId)
    if (isLegacy && (schema.name.includes(':') || !/^[0-9.]+$/.test(schema.version))) {
      const reason = 'legacy schema identifiers need a name without ":" and a version of digits and dots'
      return { schemaState: { state: 'failed', reason, schema }, schemaMetadata: {}, registrationMetadata: {} }
    }
    const schemaId = isLegacy
      ? `${schema.issuerId}:2:${schema.name}:${schema.version}`
      : `${schema.issuerId}/anoncreds/v0/SCHEMA/${segment(schema.name)}/${segment(schema.version)}`
    const failure = await this.write(schemaId, schema)
    if (failure)
      return { schemaState: { state: 'failed', reason: failure, schema }, schemaMetadata: {}, registrationMetadata: {} }
    return { schemaState: { state: 'finished', schema, schemaId }, schemaMetadata: {}, registrationMetadata: {} }
  }

  public async getCredentialDefinition(
    _agentContext: AgentContext,
    credentialDefinitionId: string,
  ): Promise<GetCredentialDefinitionReturn> {
    const stored = (await this.read(legacyFormOf(credentialDefinitionId))) as AnonCredsCredentialDefinition | undefined
    if (!stored)
      return {
        credentialDefinitionId,
        resolutionMetadata: notFound(credentialDefinitionId),
        credentialDefinitionMetadata: {},
      }
    if (!LEGACY_DID_PATTERN.test(stored.issuerId))
      return {
        credentialDefinitionId,
        credentialDefinition: stored,
        resolutionMetadata: {},
        credentialDefinitionMetadata: {},
      }
    const credentialDefinition = isIndyDid(credentialDefinitionId)
      ? getQualifiedDidIndyCredentialDefinition(stored, INDY_NAMESPACE)
      : stored
    return {
      credentialDefinitionId,
      credentialDefinition,
      resolutionMetadata: {},
      credentialDefinitionMetadata: { didIndyNamespace: INDY_NAMESPACE },
    }
  }

  public async registerCredentialDefinition(
    _agentContext: AgentContext,
    options: RegisterCredentialDefinitionOptions,
  ): Promise<RegisterCredentialDefinitionReturn> {
    const { credentialDefinition } = options
    const { issuerId, schemaId, tag } = credentialDefinition
    const schemaHash = createHash('sha256').update(schemaId).digest('hex').slice(0, 16)
    const credentialDefinitionId = LEGACY_DID_PATTERN.test(issuerId)
      ? `${issuerId}:3:CL:${schemaNumber(schemaId)}:${tag}`
      : `${issuerId}/anoncreds/v0/CLAIM_DEF/${schemaHash}/${segment(tag)}`
    const failure = await this.write(credentialDefinitionId, credentialDefinition)
    const metadata = { credentialDefinitionMetadata: {}, registrationMetadata: {} }
    if (failure)
      return { credentialDefinitionState: { state: 'failed', reason: failure, credentialDefinition }, ...metadata }
    return {
      credentialDefinitionState: { state: 'finished', credentialDefinition, credentialDefinitionId },
      ...metadata,
    }
  }

  public async getRevocationRegistryDefinition(
    _agentContext: AgentContext,
    revocationRegistryDefinitionId: string,
  ): Promise<GetRevocationRegistryDefinitionReturn> {
    return {
      revocationRegistryDefinitionId,
      resolutionMetadata: { error: 'notFound', message: 'the test registry has no revocation registries' },
      revocationRegistryDefinitionMetadata: {},
    }
  }

  public async registerRevocationRegistryDefinition(): Promise<RegisterRevocationRegistryDefinitionReturn> {
    return {
      revocationRegistryDefinitionState: { state: 'failed', reason: 'revocation is not supported yet' },
      revocationRegistryDefinitionMetadata: {},
      registrationMetadata: {},
    }
  }

  public async getRevocationStatusList(
    _agentContext: AgentContext,
    revocationRegistryId: string,
    _timestamp: number,
  ): Promise<GetRevocationStatusListReturn> {
    return {
      resolutionMetadata: { error: 'notFound', message: `no revocation status list for ${revocationRegistryId}` },
      revocationStatusListMetadata: {},
    }
  }

  public async registerRevocationStatusList(): Promise<RegisterRevocationStatusListReturn> {
    return {
      revocationStatusListState: { state: 'failed', reason: 'revocation is not supported yet' },
      revocationStatusListMetadata: {},
      registrationMetadata: {},
    }
  }

  private fileOf(id: string): string | undefined {
    if (!this.directory) return undefined
    return path.join(this.directory, `${createHash('sha256').update(id).digest('hex')}.json`)
  }

  private async read(id: string): Promise<unknown> {
    if (this.objects.has(id)) return this.objects.get(id)
    const file = this.fileOf(id)
    if (!file) return undefined
    try {
      const stored = JSON.parse(await readFile(file, 'utf8')) as { id: string; object: unknown }
      if (stored.id !== id) return undefined
      this.objects.set(id, stored.object)
      return stored.object
    } catch {
      return undefined
    }
  }

  /** Returns why the object was refused, or undefined when it is stored (or already stored as is). */
  private async write(id: string, object: unknown): Promise<string | undefined> {
    const existing = await this.read(id)
    if (existing !== undefined)
      return JSON.stringify(existing) === JSON.stringify(object) ? undefined : `${id} is already registered`
    this.objects.set(id, object)
    const file = this.fileOf(id)
    if (file && this.directory) {
      await mkdir(this.directory, { recursive: true })
      // Write then rename: a reader in another process never sees half a file.
      const temporary = `${file}.${randomUUID()}.tmp`
      await writeFile(temporary, JSON.stringify({ id, object }))
      await rename(temporary, file)
    }
    return undefined
  }
}

/** Objects are stored under their legacy identifiers; a did:indy form of one names the same object. */
function legacyFormOf(id: string): string {
  return isIndyDid(id) ? getUnQualifiedDidIndyDid(id) : id
}

function notFound(id: string) {
  return { error: 'notFound', message: `${id} is not in the test AnonCreds registry` }
}

/** A legacy schema's stand-in ledger sequence number: 40 bits of its id's hash, never 0. */
function schemaNumber(schemaId: string): number {
  return Number.parseInt(createHash('sha256').update(schemaId).digest('hex').slice(0, 10), 16) + 1
}

/** Names and versions become one path segment. */
function segment(value: string): string {
  return encodeURIComponent(value)
}
