/**
 * Identifier checks as anoncreds-rs validates them: a URI (scheme, colon, anything) or the legacy Indy form of
 * the identifier's kind.
 */
import { malformed } from './errors'

const URI_IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9+\-.]*:.+$/
const BASE58 = '[1-9A-HJ-NP-Za-km-z]'
const LEGACY_DID = new RegExp(`^${BASE58}{21,22}$`)
const LEGACY_SCHEMA_ID = new RegExp(`^${BASE58}{21,22}:2:[^:]+:[0-9.]+$`)
const LEGACY_CRED_DEF_ID = new RegExp(
  `^${BASE58}{21,22}:3:CL:(([1-9][0-9]*)|([a-zA-Z0-9]{21,22}:2:[^:]+:[0-9.]+)):([^:]+)?$`,
)

const LEGACY_REV_REG_DEF_ID = new RegExp(
  `^${BASE58}{21,22}:4:${BASE58}{21,22}:3:CL:(([1-9][0-9]*)|([a-zA-Z0-9]{21,22}:2:[^:]+:[0-9.]+)):([^:]+):CL_ACCUM:([^:]+)?$`,
)

export type IdentifierKind = 'issuerId' | 'schemaId' | 'credentialDefinitionId' | 'revocationRegistryDefinitionId'

const LEGACY: Record<IdentifierKind, RegExp> = {
  issuerId: LEGACY_DID,
  schemaId: LEGACY_SCHEMA_ID,
  credentialDefinitionId: LEGACY_CRED_DEF_ID,
  revocationRegistryDefinitionId: LEGACY_REV_REG_DEF_ID,
}

export function isValidIdentifier(kind: IdentifierKind, id: string): boolean {
  return URI_IDENTIFIER.test(id) || LEGACY[kind].test(id)
}

export function isLegacyCredentialDefinitionId(id: string): boolean {
  return LEGACY_CRED_DEF_ID.test(id)
}

export function isLegacyDid(id: string): boolean {
  return LEGACY_DID.test(id)
}

export function isUri(id: string): boolean {
  return URI_IDENTIFIER.test(id)
}

export function assertIdentifier(kind: IdentifierKind, id: string, path: string): string {
  if (!isValidIdentifier(kind, id)) throw malformed(path, `is not a valid ${kind} (a URI or a legacy Indy identifier)`)
  return id
}
