import { CredoError } from '@credo-ts/core'
import {
  DidCommDifPresentationExchangeProofFormatService,
  type DidCommProofFormatProcessPresentationOptions,
} from '@credo-ts/didcomm'

import { type DefinitionWithFormats, formatViolations } from './format-conformance'

type ProcessPresentationOptions = DidCommProofFormatProcessPresentationOptions
type AgentContextOf = Parameters<DidCommDifPresentationExchangeProofFormatService['processPresentation']>[0]

/**
 * Credo's Presentation Exchange proof format with the definition's `format` enforced (format-conformance.ts)
 * before Credo's own checks. A violation throws: Credo's v2 protocol then ends the exchange `abandoned` with this
 * error's message as the record's `errorMessage` and sends the holder a problem report, so neither side waits.
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
    return super.processPresentation(agentContext, options)
  }
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
