import { type FieldError, InvalidInputError } from '@idplane/common'

import {
  CREDENTIAL_FORMATS,
  type CredentialDisplay,
  type CredentialFormat,
  type TemplateAuthorization,
  type TemplateClaim,
  type TemplateSigner,
} from './credential-template.record'

/** What a caller gives to create or replace a template. */
export interface CredentialTemplateInput {
  name: string
  description?: string
  format: CredentialFormat
  vct?: string
  doctype?: string
  types?: string[]
  claims: TemplateClaim[]
  signer: TemplateSigner
  display?: CredentialDisplay[]
  validityDays?: number
  /** @default { type: 'pre-authorized' } */
  authorization?: TemplateAuthorization
}

/** SD-JWT VC claims the issuer sets itself (RFC 9901 and SD-JWT VC registered claims), and the SD-JWT markers. */
const RESERVED_SD_JWT_CLAIMS = new Set([
  'iss',
  'iat',
  'nbf',
  'exp',
  'cnf',
  'vct',
  'vct#integrity',
  'status',
  '_sd',
  '_sd_alg',
  '...',
])
/** jwt_vc_json: `id` of the subject is the holder's DID. */
const RESERVED_SUBJECT_CLAIMS = new Set(['id'])

const MAX_CLAIMS = 100
const MAX_PATH_DEPTH = 5
const MAX_TEXT = 256

/**
 * Checks a template and returns it with defaults applied. Every problem is reported at once, by field.
 * @throws {InvalidInputError}
 */
export function checkTemplateInput(
  input: CredentialTemplateInput,
): Required<Pick<CredentialTemplateInput, 'authorization'>> & CredentialTemplateInput {
  const problems: FieldError[] = []
  const problem = (field: string, message: string) => problems.push({ field, message })
  if (!isText(input.name)) problem('name', `must be a string of 1 to ${MAX_TEXT} characters`)
  if (input.description !== undefined && !isText(input.description, 2000)) problem('description', 'must be a string')
  if (!(CREDENTIAL_FORMATS as readonly unknown[]).includes(input.format)) {
    problem('format', `must be one of ${CREDENTIAL_FORMATS.join(', ')}`)
  }
  checkTypeFields(input, problem)
  checkClaims(input, problem)
  checkSigner(input, problem)
  if (input.display !== undefined) checkDisplay(input.display, problem)
  if (
    input.validityDays !== undefined &&
    !(Number.isInteger(input.validityDays) && input.validityDays >= 1 && input.validityDays <= 36500)
  ) {
    problem('validityDays', 'must be a whole number of days from 1 to 36500')
  }
  const authorization = input.authorization ?? { type: 'pre-authorized' }
  checkAuthorization(authorization, problem)
  if (problems.length > 0) throw new InvalidInputError('Invalid credential template', problems)
  return { ...input, authorization }
}

function checkTypeFields(input: CredentialTemplateInput, problem: (field: string, message: string) => void): void {
  const only = (field: 'vct' | 'doctype' | 'types', format: CredentialFormat) => {
    if (input[field] !== undefined && input.format !== format) problem(field, `is only for ${format} templates`)
  }
  only('vct', 'dc+sd-jwt')
  only('doctype', 'mso_mdoc')
  only('types', 'jwt_vc_json')
  if (input.format === 'dc+sd-jwt' && !isText(input.vct))
    problem('vct', 'is required for dc+sd-jwt (the credential type)')
  if (input.format === 'mso_mdoc' && !isText(input.doctype))
    problem('doctype', 'is required for mso_mdoc (the document type)')
  if (input.format === 'jwt_vc_json') {
    const types = input.types
    if (
      !Array.isArray(types) ||
      types.length < 2 ||
      types[0] !== 'VerifiableCredential' ||
      !types.every((t) => isText(t))
    ) {
      problem('types', "must list 'VerifiableCredential' first, then the credential's own type")
    }
  }
}

function checkClaims(input: CredentialTemplateInput, problem: (field: string, message: string) => void): void {
  if (!Array.isArray(input.claims) || input.claims.length === 0 || input.claims.length > MAX_CLAIMS) {
    problem('claims', `must list 1 to ${MAX_CLAIMS} claims`)
    return
  }
  const seen = new Set<string>()
  input.claims.forEach((claim, index) => {
    const field = `claims[${index}]`
    const path = claim?.path
    if (
      !Array.isArray(path) ||
      path.length === 0 ||
      path.length > MAX_PATH_DEPTH ||
      !path.every((p) => isText(p, 128))
    ) {
      problem(`${field}.path`, `must be 1 to ${MAX_PATH_DEPTH} member names`)
      return
    }
    const key = JSON.stringify(path)
    if (seen.has(key)) problem(`${field}.path`, 'names a claim twice')
    seen.add(key)
    if (input.format === 'mso_mdoc' && path.length !== 2)
      problem(`${field}.path`, 'must be [namespace, elementIdentifier] for mso_mdoc')
    if (input.format === 'dc+sd-jwt' && RESERVED_SD_JWT_CLAIMS.has(path[0]))
      problem(`${field}.path`, `'${path[0]}' is set by the issuer`)
    if (input.format === 'jwt_vc_json' && RESERVED_SUBJECT_CLAIMS.has(path[0]))
      problem(`${field}.path`, "'id' is the holder's DID")
    if (claim.mandatory !== undefined && typeof claim.mandatory !== 'boolean')
      problem(`${field}.mandatory`, 'must be a boolean')
    if (claim.selectivelyDisclosable !== undefined) {
      if (typeof claim.selectivelyDisclosable !== 'boolean')
        problem(`${field}.selectivelyDisclosable`, 'must be a boolean')
      else if (input.format !== 'dc+sd-jwt' && claim.selectivelyDisclosable) {
        // mdoc elements are always disclosed one by one; JWT VC claims never are.
        problem(`${field}.selectivelyDisclosable`, 'applies to dc+sd-jwt templates only')
      }
    }
    if (claim.display !== undefined) {
      if (
        !Array.isArray(claim.display) ||
        !claim.display.every((d) => isText(d?.name) && (d.locale === undefined || isText(d.locale, 35)))
      ) {
        problem(`${field}.display`, 'must be a list of { name, locale? }')
      }
    }
  })
}

function checkSigner(input: CredentialTemplateInput, problem: (field: string, message: string) => void): void {
  const signer = input.signer
  if (signer?.method === 'did') {
    if (!isText(signer.did, 2048) || !signer.did.startsWith('did:'))
      problem('signer.did', 'must be a DID of the organization')
    if (input.format === 'mso_mdoc') problem('signer.method', 'mso_mdoc is signed with the x509 certificate (x5c)')
  } else if (signer?.method === 'x5c') {
    if (input.format === 'jwt_vc_json') problem('signer.method', 'jwt_vc_json is signed with a DID')
  } else {
    problem('signer.method', "must be 'did' or 'x5c'")
  }
}

function checkDisplay(display: CredentialDisplay[], problem: (field: string, message: string) => void): void {
  if (!Array.isArray(display) || display.length > 20) {
    problem('display', 'must be a list of at most 20 entries')
    return
  }
  display.forEach((entry, index) => {
    const field = `display[${index}]`
    if (!isText(entry?.name)) problem(`${field}.name`, 'is required')
    for (const key of ['locale', 'description', 'backgroundColor', 'textColor', 'logoAltText'] as const) {
      if (entry?.[key] !== undefined && !isText(entry[key], 2000)) problem(`${field}.${key}`, 'must be a string')
    }
    if (entry?.logoUri !== undefined && !/^(https:\/\/|data:)/.test(String(entry.logoUri))) {
      problem(`${field}.logoUri`, 'must be an https or data URL')
    }
  })
}

function checkAuthorization(
  authorization: TemplateAuthorization,
  problem: (field: string, message: string) => void,
): void {
  switch (authorization?.type) {
    case 'pre-authorized':
      return
    case 'presentation':
      if (
        typeof authorization.dcql !== 'object' ||
        authorization.dcql === null ||
        !Array.isArray(authorization.dcql.credentials)
      ) {
        problem('authorization.dcql', 'must be a DCQL query ({ credentials: [...] })')
      }
      return
    case 'external':
      if (!isHttpUrl(authorization.authorizationServerUrl))
        problem('authorization.authorizationServerUrl', 'must be an http(s) URL')
      return
    default:
      problem('authorization.type', "must be 'pre-authorized', 'presentation' or 'external'")
  }
}

function isText(value: unknown, max = MAX_TEXT): value is string {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= max
}

export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}
