import { CredoError, W3cJsonLdCredentialService } from '@credo-ts/core'
import {
  DidCommDifPresentationExchangeProofFormatService,
  type DidCommProofFormatProcessPresentationOptions,
} from '@credo-ts/didcomm'

import { checkCredentialStatus } from '../jsonld/status-list-check'
import { type DefinitionWithFormats, formatViolations } from './format-conformance'

type ProcessPresentationOptions = DidCommProofFormatProcessPresentationOptions
type AgentContextOf = Parameters<DidCommDifPresentationExchangeProofFormatService['processPresentation']>[0]

/**
 * Credo's Presentation Exchange proof format with the definition's `format` enforced (format-conformance.ts)
 * before Credo's own checks. A violation throws: Credo's v2 protocol then ends the exchange `abandoned` with this
 * error's message as the record's `errorMessage` and sends the holder a problem report, so neither side waits.
 * A presentation Credo finds invalid whose credential's status list says revoked or suspended ends the same way,
 * with that reason.
 */
export class FormatEnforcingPresentationExchangeProofFormatService extends DidCommDifPresentationExchangeProofFormatService {
  public override async processPresentation(
    agentContext: AgentContextOf,
    options: ProcessPresentationOptions,
  ): Promise<boolean> {
    const request = options.requestAttachment.getDataAsJson<{ presentation_definition?: DefinitionWithFormats }>()
    const presentation = options.attachment.getDataAsJson<unknown>()
    const definition = request.presentation_definition ?? {}
    const problems =
      typeof presentation === 'string' ? jwtViolations(definition) : formatViolations(definition, presentation)
    if (problems.length > 0) {
      throw new CredoError(`Presentation does not match the requested format: ${problems.join('; ')}`)
    }
    if (await super.processPresentation(agentContext, options)) return true
    // Credo answers false without a reason; a revoked or suspended credential is worth naming (issue 25 item 4).
    const reason = await statusFailure(agentContext, presentation)
    if (reason) throw new CredoError(`Presentation does not verify: ${reason}`)
    return false
  }
}

/** Why a presented JSON-LD credential's Bitstring Status List check fails, if one does. */
async function statusFailure(agentContext: AgentContextOf, presentation: unknown): Promise<string | undefined> {
  if (typeof presentation !== 'object' || presentation === null) return undefined
  const inner = (presentation as { presentation?: unknown }).presentation ?? presentation
  const credentials = (inner as { verifiableCredential?: unknown }).verifiableCredential
  const service = agentContext.dependencyManager.resolve(W3cJsonLdCredentialService)
  for (const credential of Array.isArray(credentials) ? credentials : [credentials]) {
    if (typeof credential !== 'object' || credential === null || !('credentialStatus' in credential)) continue
    const check = await checkCredentialStatus(agentContext, credential as Record<string, unknown>, (list) =>
      service.verifyCredential(agentContext, { credential: list }),
    )
    if (!check.ok) return check.reason
  }
  return undefined
}

/** A JWT or SD-JWT presentation where the definition designates formats but no JWT one. */
function jwtViolations(definition: DefinitionWithFormats): string[] {
  const designations = [definition.format, ...(definition.input_descriptors ?? []).map((d) => d.format)]
  return designations.some(
    (format) =>
      format &&
      Object.keys(format).length > 0 &&
      !Object.keys(format).some((key) => key.startsWith('jwt') || key.includes('sd')),
  )
    ? ['the presentation is a JWT; the requested formats name no JWT format']
    : []
}
