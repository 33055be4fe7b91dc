import { isIndyCredentialDefinitionId } from '@idplane/common/ledger-ids'
import { InvalidInputError, NotFoundError, type FieldError } from '@idplane/common'
import type { StatusPurpose } from '@idplane/common/bitstring-status-list'
import { CREDENTIAL_TYPES, type CredentialType } from './credential.entity'

/** Spec: Credential issuance, `credentialType` "INDY default". */
export const DEFAULT_CREDENTIAL_TYPE: CredentialType = 'INDY'

/** The fields that carry one credential (an entry of `credentialData`/`credentialOffer`, or the OOB body). */
export interface CredentialContent {
  attributes?: { name: string; value: string; isRequired?: boolean }[]
  credential?: Record<string, unknown>
  options?: { proofType: string; proofPurpose: string }
  /** JSONLD: issue with a Bitstring Status List entry of this purpose. */
  credentialStatus?: { statusPurpose: StatusPurpose }
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
    if (content.credentialStatus)
      return [
        {
          field: `${prefix}credentialStatus`,
          message: 'is for credentialType JSONLD; AnonCreds revocation follows the credential definition (revocable)',
        },
      ]
    if (!content.attributes || content.attributes.length === 0)
      return [{ field: `${prefix}attributes`, message: 'is required for credentialType INDY' }]
    const problems: FieldError[] = []
    const seen = new Set<string>()
    content.attributes.forEach((attribute, index) => {
      if (seen.has(attribute.name))
        problems.push({ field: `${prefix}attributes[${index}].name`, message: `"${attribute.name}" appears twice` })
      seen.add(attribute.name)
      if (attribute.isRequired === true && attribute.value.trim() === '')
        problems.push({
          field: `${prefix}attributes[${index}].value`,
          message: `"${attribute.name}" is required (isRequired) and must not be empty`,
        })
    })
    return problems
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
 * Checks a whole issuance request in the spec's order, without the agent: missing fields, and what the type and
 * protocol version allow.
 * @throws InvalidInputError naming every field at fault
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
  if (
    type === 'INDY' &&
    request.protocolVersion === 'v1' &&
    request.credentialDefinitionId &&
    !isIndyCredentialDefinitionId(request.credentialDefinitionId)
  ) {
    // The `indy` format carries legacy ids only; a did:indy id is sent in its legacy form (CredDefsService.idForOffer).
    problems.push({
      field: 'protocolVersion',
      message:
        'v1 (the indy format) needs an Indy credential definition id (<did>:3:CL:<schemaSeqNo>:<tag> or its did:indy form); use v2 for this one',
    })
  }
  for (const { content, prefix } of contents) problems.push(...contentProblems(type, content, prefix))
  if (problems.length > 0) throw new InvalidInputError('Invalid issuance request', problems)
}

/**
 * INDY: every entry's attributes against the attribute names of the credential definition's schema. AnonCreds
 * signs a value for each schema attribute, so each must be given (an optional one may be empty), and none other.
 * @throws InvalidInputError naming each missing and each unknown attribute
 */
export function checkIndyAttributes(
  schemaAttributes: readonly string[],
  contents: { content: CredentialContent; prefix: string }[],
): void {
  const known = new Set(schemaAttributes)
  const problems: FieldError[] = []
  for (const { content, prefix } of contents) {
    const given = content.attributes ?? []
    const names = new Set(given.map((attribute) => attribute.name))
    for (const name of schemaAttributes) {
      if (!names.has(name))
        problems.push({ field: `${prefix}attributes`, message: `lacks "${name}", an attribute of the schema` })
    }
    given.forEach((attribute, index) => {
      if (!known.has(attribute.name))
        problems.push({
          field: `${prefix}attributes[${index}].name`,
          message: `"${attribute.name}" is not an attribute of the schema (${schemaAttributes.join(', ')})`,
        })
    })
  }
  if (problems.length > 0)
    throw new InvalidInputError("The attributes do not match the credential definition's schema", problems)
}
