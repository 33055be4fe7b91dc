import { type AgentContext, DcqlService, DifPresentationExchangeService } from '@credo-ts/core'
import { type FieldError, InvalidInputError } from '@idplane/common'

import {
  RESPONSE_MODES,
  type RequestSigner,
  type ResponseMode,
  type VerificationQuery,
} from './verification-template.record'

/** How a presentation request is made, whether from a verification template or given inline. */
export interface PresentationRequestOptions {
  query: VerificationQuery
  responseMode?: ResponseMode
  signer?: RequestSigner
  isHaip?: boolean
}

/** Bounds of a request's lifetime in seconds (one minute to one day). */
export const REQUEST_EXPIRY_BOUNDS = { min: 60, max: 24 * 60 * 60 } as const

/**
 * Checks the shape of request options, the query with Credo's own validators (DCQL, Presentation Exchange v2), and
 * the HAIP rules (DCQL, `direct_post.jwt`, an x509 signer). Returns the options with HAIP's and the defaults applied.
 * @throws {InvalidInputError}
 */
export function checkPresentationRequestOptions(
  agentContext: AgentContext,
  options: PresentationRequestOptions,
  fieldPrefix = '',
): Required<Pick<PresentationRequestOptions, 'query' | 'responseMode'>> & PresentationRequestOptions {
  const problems: FieldError[] = []
  const problem = (field: string, message: string) => problems.push({ field: `${fieldPrefix}${field}`, message })
  const query = options?.query
  if (query?.type === 'dcql') {
    try {
      agentContext.resolve(DcqlService).validateDcqlQuery(query.dcql)
    } catch (error) {
      problem('query.dcql', `is not a valid DCQL query: ${reasonOf(error)}`)
    }
  } else if (query?.type === 'presentation-exchange') {
    try {
      agentContext.resolve(DifPresentationExchangeService).validatePresentationDefinition(query.definition as never)
    } catch (error) {
      problem('query.definition', `is not a valid presentation definition: ${reasonOf(error)}`)
    }
  } else {
    problem('query.type', "must be 'dcql' or 'presentation-exchange'")
  }
  const responseMode = options?.responseMode ?? 'direct_post.jwt'
  if (!(RESPONSE_MODES as readonly unknown[]).includes(responseMode))
    problem('responseMode', `must be one of ${RESPONSE_MODES.join(', ')}`)
  const signer = options?.signer
  if (signer !== undefined) {
    if (signer.method === 'did') {
      if (typeof signer.did !== 'string' || !signer.did.startsWith('did:'))
        problem('signer.did', 'must be a DID of the organization')
    } else if (signer.method !== 'x5c') problem('signer.method', "must be 'x5c' or 'did'")
  }
  if (options?.isHaip !== undefined && typeof options.isHaip !== 'boolean') problem('isHaip', 'must be a boolean')
  if (options?.isHaip) {
    if (query?.type !== 'dcql') problem('query.type', 'HAIP requests use DCQL')
    if (options.responseMode !== undefined && options.responseMode !== 'direct_post.jwt')
      problem('responseMode', 'HAIP requests use direct_post.jwt')
    if (signer !== undefined && signer.method !== 'x5c')
      problem('signer.method', 'HAIP requests are signed with an x509 certificate')
  }
  if (problems.length > 0) throw new InvalidInputError('Invalid presentation request', problems)
  return { ...options, query, responseMode, ...(options.isHaip ? { signer: { method: 'x5c' as const } } : {}) }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  // Validator messages can be long (zod issue lists); the first line names the problem.
  return message.split('\n')[0].slice(0, 300)
}
