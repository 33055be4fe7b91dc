import { randomBytes } from 'node:crypto'

import { AnonCredsError as CredoAnonCredsError, dateToTimestamp } from '@credo-ts/anoncreds'
import type {
  CreateRevocationRegistryRequest,
  RevocationRegistryState,
  RevokeCredentialsRequest,
} from '@idplane/common/agent-contract/admin-api'
import { InvalidInputError, NotFoundError } from '@idplane/common'

import { FIRST_REVOCATION_INDEX, lastRevocationIndex } from '../anoncreds'
import {
  storedRevocationRegistry,
  type StoredRevocationRegistry,
} from '../formats/anoncreds/stored-revocation-registry'
import type { AgentScope } from './agent-scope'
import { ledgerFailure } from './ledger-failures'

/**
 * AnonCreds revocation registries of this agent (or tenant): made for one of its credential definitions that
 * supports revocation, their tails file stored by the platform (PlatformTailsFileService) and their status lists
 * published through the AnonCreds registry (the platform ledger). Which index a credential gets is the caller's
 * choice (the API allocates them); this side only refuses indices outside the registry.
 */
export class AnonCredsRevocationService {
  /**
   * Computes the tails file (about a third of a millisecond per entry, in worker threads), registers the definition
   * and publishes its first status list (every index issued, as anoncreds-rs' issuance by default).
   * @throws {NotFoundError} a credential definition this wallet did not create
   * @throws {InvalidInputError} one without revocation keys; a registry refusal (ledgerFailure)
   */
  public async create(scope: AgentScope, body: CreateRevocationRegistryRequest): Promise<RevocationRegistryState> {
    const anoncreds = scope.agent.modules.anoncreds
    const [created] = await anoncreds.getCreatedCredentialDefinitions({
      credentialDefinitionId: body.credentialDefinitionId,
    })
    if (!created)
      throw new NotFoundError(`Credential definition ${body.credentialDefinitionId} was not created by this wallet`)
    if (!created.credentialDefinition.value.revocation)
      throw new InvalidInputError('The credential definition does not support revocation', [
        { field: 'credentialDefinitionId', message: 'was created without supportRevocation' },
      ])
    const issuerId = created.credentialDefinition.issuerId
    const definition = await anoncreds.registerRevocationRegistryDefinition({
      revocationRegistryDefinition: {
        issuerId,
        credentialDefinitionId: body.credentialDefinitionId,
        tag: body.tag ?? randomBytes(6).toString('hex'),
        maximumCredentialNumber: body.maximumCredentialNumber,
      },
      options: {},
    })
    const state = definition.revocationRegistryDefinitionState
    if (state.state !== 'finished' || !state.revocationRegistryDefinitionId)
      throw ledgerFailure('revocation registry definition', reasonOf(state))
    const id = state.revocationRegistryDefinitionId
    const list = await anoncreds.registerRevocationStatusList({
      revocationStatusList: { issuerId, revocationRegistryDefinitionId: id },
      options: {},
    })
    const listState = list.revocationStatusListState
    if (listState.state !== 'finished') throw ledgerFailure('revocation status list', reasonOf(listState))
    return this.get(scope, id)
  }

  /**
   * Revokes the indices (already revoked ones stay so) and publishes the next status list at once; when every index
   * is revoked already, nothing is published and the registry is answered as it is.
   * @throws {NotFoundError} a registry this wallet did not create
   * @throws {InvalidInputError} an index outside the registry; a registry refusal (ledgerFailure)
   */
  public async revoke(scope: AgentScope, body: RevokeCredentialsRequest): Promise<RevocationRegistryState> {
    const id = body.revocationRegistryDefinitionId
    const registry = await ownRegistry(scope, id)
    const last = lastRevocationIndex(registry.definitionRecord.revocationRegistryDefinition.value.maxCredNum)
    const outside = body.revokedIndices.filter((index) => index < FIRST_REVOCATION_INDEX || index > last)
    if (outside.length > 0)
      throw new InvalidInputError(`Indices outside the registry: ${outside.join(', ')}`, [
        { field: 'revokedIndices', message: `must be indices from ${FIRST_REVOCATION_INDEX} to ${last}` },
      ])
    // A revocation already in the list is not published again: a caller that died after the ledger write and before
    // it recorded the revocation retries it, and a second entry with no change would only grow the ledger.
    const current = await this.get(scope, id)
    const revoked = new Set(current.revokedIndices)
    if (body.revokedIndices.every((index) => revoked.has(index))) return current
    const result = await scope.agent.modules.anoncreds.updateRevocationStatusList({
      revocationStatusList: {
        revocationRegistryDefinitionId: id,
        revokedCredentialIndexes: [...new Set(body.revokedIndices)],
      },
      options: {},
    })
    const state = result.revocationStatusListState
    if (state.state !== 'finished') throw ledgerFailure('revocation status list', reasonOf(state))
    return this.get(scope, id)
  }

  /**
   * The registry's definition and its status list now, as the registry resolves them.
   * @throws {NotFoundError} a registry this wallet did not create
   */
  public async get(scope: AgentScope, revocationRegistryDefinitionId: string): Promise<RevocationRegistryState> {
    const registry = await ownRegistry(scope, revocationRegistryDefinitionId)
    const anoncreds = scope.agent.modules.anoncreds
    const { revocationStatusList, resolutionMetadata } = await anoncreds.getRevocationStatusList(
      revocationRegistryDefinitionId,
      dateToTimestamp(new Date()),
    )
    if (!revocationStatusList)
      throw ledgerFailure('revocation status list', resolutionMetadata.message ?? 'not found', 'read')
    return {
      revocationRegistryDefinitionId,
      revocationRegistryDefinition: registry.definitionRecord
        .revocationRegistryDefinition as RevocationRegistryState['revocationRegistryDefinition'],
      state: registry.privateRecord.state,
      timestamp: revocationStatusList.timestamp,
      revokedIndices: revocationStatusList.revocationList.flatMap((bit, index) => (bit === 1 ? [index] : [])),
      revocationStatusList: revocationStatusList as RevocationRegistryState['revocationStatusList'],
    }
  }
}

function reasonOf(state: { state: string; reason?: string }): string {
  return state.reason ?? state.state
}

/** @throws {NotFoundError} when this wallet did not create the registry */
async function ownRegistry(scope: AgentScope, id: string): Promise<StoredRevocationRegistry> {
  try {
    return await storedRevocationRegistry(scope.agent.context, id)
  } catch (error) {
    if (error instanceof CredoAnonCredsError) throw new NotFoundError(error.message)
    throw error
  }
}
