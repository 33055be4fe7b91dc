import { AsyncLocalStorage } from 'node:async_hooks'

import { LegacyIndyDidCommProofFormatService } from '@credo-ts/anoncreds'
import { CredoError } from '@credo-ts/core'
import { type DidCommProofFormatService, DidCommProofV2Protocol } from '@credo-ts/didcomm'

/**
 * Why the AnonCreds presentation being processed does not verify. Credo's AnonCredsVerifierService answers a boolean
 * and its protocols record only "Invalid proof" (v1) or "Not all presentations are valid" (v2), so our verifier
 * (verifier-service.ts) tells the reason to the presentation processing it runs under, per call (concurrent
 * verifications each have their own), and that puts it in the proof record's `errorMessage`.
 */
const failures = new AsyncLocalStorage<{ reason?: string }>()

/** Called by the verifier: the reason goes to the presentation being processed, if any is. */
export function noteVerificationFailure(reason: string): void {
  const slot = failures.getStore()
  if (slot) slot.reason = reason
}

/** `run`'s answer and the reason a verification under it noted, if one did. */
export async function withFailureReason<T>(run: () => Promise<T>): Promise<{ result: T; reason?: string }> {
  const slot: { reason?: string } = {}
  const result = await failures.run(slot, run)
  return { result, reason: slot.reason }
}

const failedMessage = (reason: string) => `Presentation does not verify: ${reason}`

type LegacyProcess = LegacyIndyDidCommProofFormatService['processPresentation']

/**
 * Credo's `indy` proof format whose failed verification says why under Present Proof v1: there it throws the reason,
 * which Credo's v1 protocol puts on the abandoned record (after it has stored the presentation). Under v2 (the `indy`
 * format in a v2 exchange) it answers as Credo's does and ReasonGivingProofV2Protocol gives the reason.
 */
export class ReasonGivingLegacyIndyProofFormatService extends LegacyIndyDidCommProofFormatService {
  public override async processPresentation(...args: Parameters<LegacyProcess>): ReturnType<LegacyProcess> {
    if (failures.getStore()) return super.processPresentation(...args)
    const { result: valid, reason } = await withFailureReason(() => super.processPresentation(...args))
    if (!valid && reason) throw new CredoError(failedMessage(reason))
    return valid
  }
}

type ProcessResult = { isValid: boolean; message?: string }
interface Coordinator {
  processPresentation(agentContext: unknown, options: unknown): Promise<ProcessResult>
}

/**
 * Credo's Present Proof v2 whose failed AnonCreds verification says why. Its format coordinator answers "Not all
 * presentations are valid" for a format that answered false, after storing the presentation (which verified-proofs
 * reads, revocation checks included: a format service that threw instead would lose it); the answer here carries the
 * verifier's reason instead. The coordinator is the protocol's private `proofFormatCoordinator` (Credo 0.6.3 exports
 * no way to give one): without it the agent refuses to start rather than lose the reasons silently.
 */
export class ReasonGivingProofV2Protocol<
  Formats extends DidCommProofFormatService[] = DidCommProofFormatService[],
> extends DidCommProofV2Protocol<Formats> {
  public constructor(config: { proofFormats: Formats }) {
    super(config)
    const coordinator = (this as unknown as { proofFormatCoordinator?: Coordinator }).proofFormatCoordinator
    if (typeof coordinator?.processPresentation !== 'function')
      throw new CredoError("Credo's Present Proof v2 has no proofFormatCoordinator to give failure reasons")
    const process = coordinator.processPresentation.bind(coordinator)
    coordinator.processPresentation = async (agentContext, options) => {
      const { result, reason } = await withFailureReason(() => process(agentContext, options))
      return !result.isValid && reason ? { ...result, message: failedMessage(reason) } : result
    }
  }
}
