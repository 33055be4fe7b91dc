import {
  AnonCredsError as CredoAnonCredsError,
  AnonCredsRegistryService,
  type AnonCredsProof,
  type AnonCredsProofRequest,
  type AnonCredsVerifierService,
  type VerifyProofOptions,
} from '@credo-ts/anoncreds'
import { type AgentContext, injectable } from '@credo-ts/core'

import { AnonCredsError, checkPresentation } from '../../anoncreds'
import { noteVerificationFailure } from './reason-giving-proof-formats'

/**
 * Credo's AnonCredsVerifierService on our TypeScript AnonCreds library. A presentation that does not verify,
 * or that is malformed, is `false` (with the reason in the log and told to the proof format processing it, which
 * puts it on the proof record: reason-giving-proof-formats.ts), never an exception: Credo then marks the
 * exchange unverified instead of leaving it half-processed. Non-revocation proofs are checked against the status
 * lists Credo resolved at the presentation's timestamps, and each timestamp against the request's `non_revoked`
 * intervals.
 */
@injectable()
export class IdplaneAnonCredsVerifierService implements AnonCredsVerifierService {
  public async verifyProof(agentContext: AgentContext, options: VerifyProofOptions): Promise<boolean> {
    try {
      const revocationRegistryDefinitions: Record<string, unknown> = {}
      const revocationStatusLists: unknown[] = []
      for (const [id, registry] of Object.entries(options.revocationRegistries ?? {})) {
        // A malformed entry is left to the library, which says what is missing.
        revocationRegistryDefinitions[id] = registry?.definition
        revocationStatusLists.push(...Object.values(registry?.revocationStatusLists ?? {}))
      }
      const check = checkPresentation({
        presentation: options.proof,
        presentationRequest: options.proofRequest,
        schemas: options.schemas,
        credentialDefinitions: options.credentialDefinitions,
        revocationRegistryDefinitions,
        revocationStatusLists,
        nonRevokedIntervalOverrides: await intervalOverrides(agentContext, options.proof, options.proofRequest),
      })
      if (check.valid) return true
      const reason = check.proofFails ? withRevocationHint(check.reason, options) : check.reason
      agentContext.config.logger.info(`AnonCreds presentation does not verify: ${reason}`)
      noteVerificationFailure(reason)
      return false
    } catch (error) {
      if (!(error instanceof AnonCredsError)) throw error
      agentContext.config.logger.info(`AnonCreds presentation is malformed: ${error.message}`)
      noteVerificationFailure(`the presentation is malformed: ${error.message}`)
      return false
    }
  }

  public async verifyW3cPresentation(): Promise<never> {
    throw new CredoAnonCredsError('W3C AnonCreds presentations are not supported')
  }
}

/**
 * The reason for a proof that does not hold, naming the status lists that revoke credentials among those its
 * non-revocation proofs were checked against. A revoked credential's non-revocation proof fails inside the one
 * challenge of the whole proof, like a tampered one, and hides its index: the verifier can say that the credential
 * was proven against a list that revokes some, not that it is one of them.
 */
export function withRevocationHint(reason: string, options: VerifyProofOptions): string {
  const revoking: string[] = []
  const identifiers = Array.isArray(options.proof?.identifiers) ? options.proof.identifiers : []
  for (const { rev_reg_id: revRegId, timestamp } of identifiers) {
    if (typeof revRegId !== 'string' || typeof timestamp !== 'number') continue
    const list = options.revocationRegistries?.[revRegId]?.revocationStatusLists?.[timestamp]
    const revoked = Array.isArray(list?.revocationList) ? list.revocationList.filter((bit) => bit === 1).length : 0
    if (revoked > 0) revoking.push(`registry ${revRegId} at ${timestamp} (${revoked} revoked)`)
  }
  if (revoking.length === 0) return reason
  return `the credential is revoked, or the proof was altered: its non-revocation proof does not hold against the status list of ${revoking.join(', ')}; ${reason}`
}

/**
 * A holder proves non-revocation at a status list's timestamp, which is the time the list was published: a request
 * for `from: T` (Credo's holders are asked for from = to) gets a proof at an earlier timestamp when nothing was
 * published between. That earlier timestamp is accepted for `from` when the list in force at `from` is the one proven
 * against (anoncreds-rs' nonrevoke_interval_override, which Credo's verifier computes the same way).
 */
async function intervalOverrides(
  agentContext: AgentContext,
  proof: AnonCredsProof,
  proofRequest: AnonCredsProofRequest,
): Promise<Record<string, Record<string, number>>> {
  const overrides: Record<string, Record<string, number>> = {}
  const identifiers = Array.isArray(proof?.identifiers) ? proof.identifiers : []
  const requested = [
    ...Object.values(proofRequest?.requested_attributes ?? {}),
    ...Object.values(proofRequest?.requested_predicates ?? {}),
  ]
  const froms = new Set<number>()
  for (const item of requested) {
    const from = (item?.non_revoked ?? proofRequest.non_revoked)?.from
    if (typeof from === 'number' && Number.isSafeInteger(from)) froms.add(from)
  }
  if (froms.size === 0) return overrides
  const registries = agentContext.dependencyManager.resolve(AnonCredsRegistryService)
  for (const identifier of identifiers) {
    const { rev_reg_id: revRegId, timestamp } = identifier ?? {}
    if (typeof revRegId !== 'string' || typeof timestamp !== 'number') continue
    for (const from of froms) {
      if (from <= timestamp || overrides[revRegId]?.[String(from)] !== undefined) continue
      try {
        const registry = registries.getRegistryForIdentifier(agentContext, revRegId)
        const { revocationStatusList } = await registry.getRevocationStatusList(agentContext, revRegId, from)
        if (revocationStatusList?.timestamp === timestamp) {
          overrides[revRegId] = { ...overrides[revRegId], [String(from)]: timestamp }
        }
      } catch (error) {
        // No registry for the id, or it cannot answer: no override, so the interval check decides.
        agentContext.config.logger.info(`No status list of ${revRegId} at ${from}: ${(error as Error).message}`)
      }
    }
  }
  return overrides
}
