import {
  AnonCredsError as CredoAnonCredsError,
  type AnonCredsRevocationRegistryDefinitionPrivateRecord,
  AnonCredsRevocationRegistryDefinitionPrivateRepository,
  type AnonCredsRevocationRegistryDefinitionRecord,
  AnonCredsRevocationRegistryDefinitionRepository,
  getUnqualifiedRevocationRegistryDefinitionId,
  isDidIndyRevocationRegistryId,
  parseIndyRevocationRegistryId,
} from '@credo-ts/anoncreds'
import type { AgentContext } from '@credo-ts/core'

export interface StoredRevocationRegistry {
  definitionRecord: AnonCredsRevocationRegistryDefinitionRecord
  privateRecord: AnonCredsRevocationRegistryDefinitionPrivateRecord
}

/**
 * A registry this agent created (its definition and private part), under the id it was stored with or, for a
 * did:indy id, its legacy form (as credential definitions are found: issuer-service.ts storedDefinition).
 * @throws CredoAnonCredsError when the agent has no such registry
 */
export async function storedRevocationRegistry(
  agentContext: AgentContext,
  revocationRegistryDefinitionId: string,
): Promise<StoredRevocationRegistry> {
  const definitions = agentContext.dependencyManager.resolve(AnonCredsRevocationRegistryDefinitionRepository)
  const privates = agentContext.dependencyManager.resolve(AnonCredsRevocationRegistryDefinitionPrivateRepository)
  for (const id of idForms(revocationRegistryDefinitionId)) {
    const definitionRecord = await definitions.findByRevocationRegistryDefinitionId(agentContext, id)
    if (!definitionRecord) continue
    const privateRecord = await privates.findByRevocationRegistryDefinitionId(agentContext, id)
    if (!privateRecord) break
    return { definitionRecord, privateRecord }
  }
  throw new CredoAnonCredsError(`Revocation registry ${revocationRegistryDefinitionId} is not one this agent created`)
}

function idForms(id: string): string[] {
  if (!isDidIndyRevocationRegistryId(id)) return [id]
  const parsed = parseIndyRevocationRegistryId(id)
  return [
    id,
    getUnqualifiedRevocationRegistryDefinitionId(
      parsed.namespaceIdentifier,
      parsed.schemaSeqNo,
      parsed.credentialDefinitionTag,
      parsed.revocationRegistryTag,
    ),
  ]
}
