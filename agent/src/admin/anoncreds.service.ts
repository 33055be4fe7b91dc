import { type AnonCredsSchema, AnonCredsRegistryService } from '@credo-ts/anoncreds'
import { TypedArrayEncoder } from '@credo-ts/core'
import type {
  AnonCredsCredentialDefinitionResponse,
  AnonCredsCredentialInfo,
  AnonCredsSchemaResponse,
  CreateAnonCredsCredentialDefinitionRequest,
  CreateAnonCredsSchemaRequest,
  ResolvedCredentialDefinition,
} from '@idplane/common/agent-contract/admin-api'
import { InvalidInputError, NotFoundError } from '@idplane/common'
import { hasControlCharacter } from '@idplane/common/request-input'

import { unqualifiedIndyDid } from '../ledger/indy-dids'
import type { IndyLedgerDidCreateOptions } from '../ledger/indy-did-registrar'
import { LedgerAnonCredsRegistry } from '../ledger/ledger-anoncreds-registry'
import type { AgentScope } from './agent-scope'
import { isLedgerUnavailable, ledgerFailure } from './ledger-failures'

/**
 * AnonCreds schemas and credential definitions, created by this agent and registered through its AnonCreds registry
 * (the platform ledger for did:indy and legacy Indy issuers, agent/src/ledger; the test registry for did:key ones
 * and, in tests, everything it knows: agent/src/formats/anoncreds/test-registry.ts), and the credentials it holds.
 */
export class AnonCredsService {
  /** @throws {InvalidInputError} duplicate attribute names; a registry refusal (ledgerFailure) */
  public async createSchema(scope: AgentScope, body: CreateAnonCredsSchemaRequest): Promise<AnonCredsSchemaResponse> {
    if (new Set(body.attributes).size !== body.attributes.length)
      throw new InvalidInputError('Attribute names must be unique', [
        { field: 'attributes', message: 'has duplicates' },
      ])
    const issuerId =
      body.issuerId ?? (body.legacyIdentifiers ? await createLegacyIssuerDid(scope) : await createIssuerDid(scope))
    const schema: AnonCredsSchema = { issuerId, name: body.name, version: body.version, attrNames: body.attributes }
    const result = await scope.agent.modules.anoncreds.registerSchema({ schema, options: {} })
    const state = result.schemaState
    if (state.state !== 'finished' || !state.schemaId) throw registrationFailed('schema', state)
    return { schemaId: state.schemaId, schema: state.schema }
  }

  /**
   * A schema as the registry resolves it (any issuer's): 404 when no registry of this agent has it, 400 when the
   * registry calls the identifier invalid. The platform reads ledger schemas through this, whatever the registry.
   */
  public async getSchema(scope: AgentScope, schemaId: string): Promise<AnonCredsSchemaResponse> {
    // Spaces are legal in schema names (and so in ids); control characters are in none.
    if (schemaId.length === 0 || schemaId.length > 2048 || hasControlCharacter(schemaId))
      throw new InvalidInputError('schemaId is malformed', [{ field: 'schemaId', message: 'is malformed' }])
    const resolved = await scope.agent.modules.anoncreds.getSchema(schemaId)
    if (resolved.schema) return { schemaId: resolved.schemaId, schema: resolved.schema }
    const { error, message } = resolved.resolutionMetadata
    if (error === 'invalid')
      throw new InvalidInputError(`schemaId is malformed: ${message ?? ''}`, [
        { field: 'schemaId', message: 'is malformed' },
      ])
    // No ledger, or one that cannot answer: not "absent" (501 / 502).
    if (message && isLedgerUnavailable(message)) throw ledgerFailure('schema', message, 'read')
    throw new NotFoundError(`Schema ${schemaId} not found: ${message ?? error ?? ''}`)
  }

  /** Generates the CL keys (two 1024-bit safe primes: seconds) and registers the public part. */
  public async createCredentialDefinition(
    scope: AgentScope,
    body: CreateAnonCredsCredentialDefinitionRequest,
  ): Promise<AnonCredsCredentialDefinitionResponse> {
    const anoncreds = scope.agent.modules.anoncreds
    const schema = await anoncreds.getSchema(body.schemaId)
    if (!schema.schema)
      throw new NotFoundError(`Schema ${body.schemaId} not found: ${schema.resolutionMetadata.message ?? ''}`)
    const result = await anoncreds.registerCredentialDefinition({
      credentialDefinition: {
        issuerId: body.issuerId ?? schema.schema.issuerId,
        schemaId: body.schemaId,
        tag: body.tag ?? 'default',
      },
      options: { supportRevocation: body.supportRevocation === true },
    })
    const state = result.credentialDefinitionState
    if (state.state !== 'finished' || !state.credentialDefinitionId)
      throw registrationFailed('credential definition', state)
    return {
      credentialDefinitionId: state.credentialDefinitionId,
      credentialDefinition: state.credentialDefinition as AnonCredsCredentialDefinitionResponse['credentialDefinition'],
    }
  }

  /** The credential definitions this agent (or tenant) created. */
  public async listCredentialDefinitions(scope: AgentScope): Promise<AnonCredsCredentialDefinitionResponse[]> {
    const records = await scope.agent.modules.anoncreds.getCreatedCredentialDefinitions({})
    return records.map((record) => ({
      credentialDefinitionId: record.credentialDefinitionId,
      credentialDefinition:
        record.credentialDefinition as AnonCredsCredentialDefinitionResponse['credentialDefinition'],
    }))
  }

  /**
   * Any credential definition the registry knows (not only this agent's) with its schema: what an issuer checks an
   * offer's attribute names against. A query parameter, since identifiers hold `/` and `:`.
   */
  public async resolveCredentialDefinition(
    scope: AgentScope,
    credentialDefinitionId: string,
  ): Promise<ResolvedCredentialDefinition> {
    const anoncreds = scope.agent.modules.anoncreds
    const id = credentialDefinitionId
    const definition = await anoncreds.getCredentialDefinition(id)
    if (!definition.credentialDefinition)
      throw new NotFoundError(`Credential definition ${id} not found: ${definition.resolutionMetadata.message ?? ''}`)
    const schemaId = definition.credentialDefinition.schemaId
    const schema = await anoncreds.getSchema(schemaId)
    if (!schema.schema) throw new NotFoundError(`Schema ${schemaId} of credential definition ${id} not found`)
    return {
      credentialDefinitionId: id,
      credentialDefinition: {
        issuerId: definition.credentialDefinition.issuerId,
        schemaId,
        type: definition.credentialDefinition.type,
        tag: definition.credentialDefinition.tag,
      },
      schemaId,
      schema: schema.schema,
    }
  }

  /** The AnonCreds credentials this wallet holds (raw attribute values, identifiers). */
  public async listCredentials(scope: AgentScope): Promise<AnonCredsCredentialInfo[]> {
    return (await scope.agent.modules.anoncreds.getCredentials({})).map((info) => ({
      credentialId: info.credentialId,
      attributes: info.attributes,
      schemaId: info.schemaId,
      credentialDefinitionId: info.credentialDefinitionId,
      revocationRegistryId: info.revocationRegistryId,
      credentialRevocationId: info.credentialRevocationId,
      methodName: info.methodName,
      linkSecretId: info.linkSecretId,
      // As the envelope's JSON wrote the dates before.
      createdAt: new Date(info.createdAt).toISOString(),
      updatedAt: new Date(info.updatedAt).toISOString(),
    }))
  }
}

async function createIssuerDid(scope: AgentScope): Promise<string> {
  const result = await scope.agent.dids.create({
    method: 'key',
    options: { createKey: { type: { kty: 'OKP', crv: 'Ed25519' } } },
  })
  if (result.didState.state !== 'finished') throw new Error(`Could not create an issuer DID: ${result.didState.state}`)
  return result.didState.did
}

/**
 * A legacy (unqualified) Indy DID, as Indy derives one: base58 of the first 16 bytes of a new Ed25519 public key.
 * Its objects get legacy identifiers, which the `indy` format and the v1 protocols require. On the platform ledger
 * the DID is a did:indy one written there first (its NYM lets the ledger check the schema's signature); for the
 * test registry a bare key is enough.
 */
async function createLegacyIssuerDid(scope: AgentScope): Promise<string> {
  const agent = scope.agent
  const registry = agent.dependencyManager
    .resolve(AnonCredsRegistryService)
    .getRegistryForIdentifier(agent.context, LEGACY_DID_SAMPLE)
  if (registry instanceof LedgerAnonCredsRegistry) {
    const result = await agent.dids.create<IndyLedgerDidCreateOptions>({ method: 'indy', options: {} })
    if (result.didState.state !== 'finished')
      throw ledgerFailure('issuer DID', result.didState.state === 'failed' ? result.didState.reason : 'not finished')
    return unqualifiedIndyDid(result.didState.did) as string
  }
  const { publicJwk } = await agent.kms.createKey({ type: { kty: 'OKP', crv: 'Ed25519' } })
  return TypedArrayEncoder.toBase58(Buffer.from(publicJwk.x, 'base64url').subarray(0, 16))
}

/** Any unqualified Indy DID: asks which registry serves legacy identifiers. */
const LEGACY_DID_SAMPLE = 'VGekVpqihCAwQWMtQ7gNTV'

function registrationFailed(what: string, state: { state: string; reason?: string }) {
  return ledgerFailure(what, state.reason ?? state.state)
}
