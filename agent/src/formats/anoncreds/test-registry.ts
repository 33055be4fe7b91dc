import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'

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

/**
 * TEST-ONLY AnonCreds registry: the stand-in the ledger issue replaces. Issuers are `did:key` DIDs (any DID the
 * agent controls or not: nothing is signed, nothing is checked) and objects get path-style identifiers under them:
 *   `<issuerId>/anoncreds/v0/SCHEMA/<name>/<version>`
 *   `<issuerId>/anoncreds/v0/CLAIM_DEF/<schema hash>/<tag>`
 * Objects live in memory and, when a directory is given (AGENT_ANONCREDS_TEST_REGISTRY_DIR), as one JSON file
 * per identifier there, so that separate agent processes on one machine resolve each other's objects.
 * Registering an identifier twice with a different object is refused (a ledger is append-only too).
 */
export class TestAnonCredsRegistry implements AnonCredsRegistry {
  public readonly methodName = 'idplane-test'
  public readonly supportedIdentifier =
    /^did:key:z[1-9A-HJ-NP-Za-km-z]+(\/anoncreds\/v0\/(SCHEMA|CLAIM_DEF)\/[^/]+\/[^/]+)?$/
  private readonly objects = new Map<string, unknown>()

  public constructor(private readonly directory?: string) {}

  public async getSchema(_agentContext: AgentContext, schemaId: string): Promise<GetSchemaReturn> {
    const schema = (await this.read(schemaId)) as AnonCredsSchema | undefined
    if (!schema) return { schemaId, resolutionMetadata: notFound(schemaId), schemaMetadata: {} }
    return { schemaId, schema, resolutionMetadata: {}, schemaMetadata: {} }
  }

  public async registerSchema(
    _agentContext: AgentContext,
    options: RegisterSchemaOptions,
  ): Promise<RegisterSchemaReturn> {
    const { schema } = options
    const schemaId = `${schema.issuerId}/anoncreds/v0/SCHEMA/${segment(schema.name)}/${segment(schema.version)}`
    const failure = await this.write(schemaId, schema)
    if (failure)
      return { schemaState: { state: 'failed', reason: failure, schema }, schemaMetadata: {}, registrationMetadata: {} }
    return { schemaState: { state: 'finished', schema, schemaId }, schemaMetadata: {}, registrationMetadata: {} }
  }

  public async getCredentialDefinition(
    _agentContext: AgentContext,
    credentialDefinitionId: string,
  ): Promise<GetCredentialDefinitionReturn> {
    const credentialDefinition = (await this.read(credentialDefinitionId)) as AnonCredsCredentialDefinition | undefined
    if (!credentialDefinition)
      return {
        credentialDefinitionId,
        resolutionMetadata: notFound(credentialDefinitionId),
        credentialDefinitionMetadata: {},
      }
    return { credentialDefinitionId, credentialDefinition, resolutionMetadata: {}, credentialDefinitionMetadata: {} }
  }

  public async registerCredentialDefinition(
    _agentContext: AgentContext,
    options: RegisterCredentialDefinitionOptions,
  ): Promise<RegisterCredentialDefinitionReturn> {
    const { credentialDefinition } = options
    const schemaHash = createHash('sha256').update(credentialDefinition.schemaId).digest('hex').slice(0, 16)
    const credentialDefinitionId = `${credentialDefinition.issuerId}/anoncreds/v0/CLAIM_DEF/${schemaHash}/${segment(credentialDefinition.tag)}`
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

function notFound(id: string) {
  return { error: 'notFound', message: `${id} is not in the test AnonCreds registry` }
}

/** Names and versions become one path segment. */
function segment(value: string): string {
  return encodeURIComponent(value)
}
