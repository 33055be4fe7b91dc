import type { ServiceIdentifier } from 'inversify'
import type { AgentClient } from '../../agent-client/agent-client'
import type { CredentialDefinition } from './credential-definition.entity'

/**
 * What a revocable definition needs once its keys are registered: its first revocation registry. The revocations
 * module (declared after this one) binds it, so the definition job can make the registry without importing it.
 */
export interface RevocationSetup {
  /**
   * Makes and stores the definition's first registry, unless it has one (a job run that was cut after making it).
   * @param credentialDefinitionId the id the agent registered the definition under
   * @throws the agent's error when the registry cannot be made (the job retries, then marks the definition failed)
   */
  ensureFirstRegistry(
    agent: AgentClient,
    definition: CredentialDefinition,
    credentialDefinitionId: string,
  ): Promise<void>
}

export const REVOCATION_SETUP: ServiceIdentifier<RevocationSetup> = Symbol.for('idplane.RevocationSetup')
