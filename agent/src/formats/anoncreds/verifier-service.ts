import {
  AnonCredsError as CredoAnonCredsError,
  type AnonCredsVerifierService,
  type VerifyProofOptions,
} from '@credo-ts/anoncreds'
import { type AgentContext, injectable } from '@credo-ts/core'

import { AnonCredsError, checkPresentation } from '../../anoncreds'

/**
 * Credo's AnonCredsVerifierService on our TypeScript AnonCreds library. A presentation that does not verify,
 * or that is malformed, is `false` (with the reason in the log), never an exception: Credo then marks the
 * exchange unverified instead of leaving it half-processed.
 */
@injectable()
export class IdplaneAnonCredsVerifierService implements AnonCredsVerifierService {
  public async verifyProof(agentContext: AgentContext, options: VerifyProofOptions): Promise<boolean> {
    if (Object.keys(options.revocationRegistries ?? {}).length > 0)
      throw new CredoAnonCredsError('AnonCreds revocation is not supported yet')
    try {
      const check = checkPresentation({
        presentation: options.proof,
        presentationRequest: options.proofRequest,
        schemas: options.schemas,
        credentialDefinitions: options.credentialDefinitions,
      })
      if (!check.valid) agentContext.config.logger.info(`AnonCreds presentation does not verify: ${check.reason}`)
      return check.valid
    } catch (error) {
      if (!(error instanceof AnonCredsError)) throw error
      agentContext.config.logger.info(`AnonCreds presentation is malformed: ${error.message}`)
      return false
    }
  }

  public async verifyW3cPresentation(): Promise<never> {
    throw new CredoAnonCredsError('W3C AnonCreds presentations are not supported')
  }
}
