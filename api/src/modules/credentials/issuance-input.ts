import { InvalidInputError, NotFoundError, NotImplementedError, type FieldError } from '@idplane/common'
import { CREDENTIAL_TYPES, type CredentialType } from './issuance-record.entity'

/** Spec: Credential issuance, `credentialType` "INDY default". */
export const DEFAULT_CREDENTIAL_TYPE: CredentialType = 'INDY'

export const INDY_NOT_AVAILABLE = 'AnonCreds (INDY) credentials are not available yet'

/** The fields that carry one credential (an entry of `credentialData`/`credentialOffer`, or the OOB body). */
export interface CredentialContent {
  attributes?: unknown[]
  credential?: Record<string, unknown>
  options?: { proofType: string; proofPurpose: string }
}

/** The members a JSON-LD credential must have (spec: Credential issuance, `credential`). */
const JSONLD_REQUIRED_MEMBERS = ['@context', 'type', 'issuer', 'issuanceDate', 'credentialSubject'] as const

/**
 * The credential type of a request.
 * @throws NotFoundError for a value that is not a credential type (spec: Errors, 404)
 */
export function credentialTypeOf(value: string | undefined): CredentialType {
  if (value === undefined || value === '') return DEFAULT_CREDENTIAL_TYPE
  const type = CREDENTIAL_TYPES.find((known) => known === value)
  if (!type) throw new NotFoundError(`Unknown credentialType "${value}"; use ${CREDENTIAL_TYPES.join(' or ')}`)
  return type
}

/** What the spec requires of each credential for its type (spec: Errors 1, and the body fields). */
export function contentProblems(type: CredentialType, content: CredentialContent, prefix: string): FieldError[] {
  if (type === 'INDY') {
    return content.attributes && content.attributes.length > 0
      ? []
      : [{ field: `${prefix}attributes`, message: 'is required for credentialType INDY' }]
  }
  const problems: FieldError[] = []
  if (!content.credential)
    problems.push({ field: `${prefix}credential`, message: 'is required for credentialType JSONLD' })
  if (!content.options) problems.push({ field: `${prefix}options`, message: 'is required for credentialType JSONLD' })
  for (const member of JSONLD_REQUIRED_MEMBERS) {
    if (content.credential && content.credential[member] === undefined) {
      problems.push({ field: `${prefix}credential.${member}`, message: 'is required in a W3C credential' })
    }
  }
  return problems
}

/**
 * Checks a whole issuance request in the spec's order: the 400s first (for INDY too, so a client gets the same
 * answer it will get once INDY is served), then 501 for INDY.
 * @throws InvalidInputError naming every missing field
 * @throws NotImplementedError for INDY
 */
export function checkIssuanceRequest(
  type: CredentialType,
  request: { credentialDefinitionId?: string; protocolVersion?: string },
  contents: { content: CredentialContent; prefix: string }[],
): void {
  const problems: FieldError[] = []
  if (type === 'INDY' && !request.credentialDefinitionId) {
    problems.push({ field: 'credentialDefinitionId', message: 'is required for credentialType INDY' })
  }
  if (type === 'JSONLD' && request.protocolVersion === 'v1') {
    problems.push({ field: 'protocolVersion', message: 'JSON-LD credentials are issued with protocol v2 only' })
  }
  for (const { content, prefix } of contents) problems.push(...contentProblems(type, content, prefix))
  if (problems.length > 0) throw new InvalidInputError('Invalid issuance request', problems)
  if (type === 'INDY') throw new NotImplementedError(INDY_NOT_AVAILABLE)
}
