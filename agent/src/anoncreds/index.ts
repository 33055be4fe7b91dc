/**
 * AnonCreds v1 in TypeScript, JSON-compatible with anoncreds-rs (CL signatures, revocation with CL_ACCUM
 * registries: revocation/index.ts describes that flow). Functions take and return the anoncreds-rs JSON objects;
 * malformed or tampered input throws AnonCredsError (an InvalidInputError, so a 400 when it escapes). No Credo
 * imports: agent/src/formats/anoncreds/ builds on this.
 */
export { createSchema, readSchema, MAX_ATTRIBUTES_COUNT } from './schema'
export {
  createCredentialDefinition,
  readCredentialDefinition,
  readCredentialDefinitionPrivate,
  readKeyCorrectnessProof,
  type CreateCredentialDefinitionOptions,
  type CreateCredentialDefinitionResult,
} from './credential-definition'
export { createCredentialOffer, createNonce, readCredentialOffer } from './credential-offer'
export { createLinkSecret } from './link-secret'
export {
  createCredentialRequest,
  readCredentialRequest,
  readCredentialRequestMetadata,
  type CreateCredentialRequestOptions,
} from './credential-request'
export {
  createCredential,
  processCredential,
  processCredentialOffLoop,
  readCredential,
  credentialAttributeNames,
  type CreateCredentialOptions,
  type CredentialRevocationConfiguration,
  type ProcessCredentialOptions,
} from './credential'
export { attributeCommonView } from './attributes'
export { encodeCredentialAttribute, isEncodingOf } from './encoding'
export { AnonCredsError, type AnonCredsErrorKind } from './errors'
export { isValidIdentifier } from './identifiers'
export type * from './types'

// Presentations (anoncreds-presentation): create and verify AnonCreds v1 presentations.
export {
  createPresentation,
  type CreatePresentationOptions,
  type PresentationCredentialEntry,
  type PresentationCredentialProve,
} from './presentation'
export type {
  IdentifierJson,
  PresentationJson,
  PresentationRequestJson,
  RequestedAttributeJson,
  RequestedPredicateJson,
  RequestedProofJson,
} from './presentation/types'
export { checkPresentation, type PresentationCheck, verifyPresentation, type VerifyPresentationOptions } from './verify'
// Validates a presentation request's shape (admin input before it goes out); throws AnonCredsError.
export { parsePresentationRequest as readPresentationRequest } from './presentation/parse'

// Revocation (revocation/index.ts): registries, tails files, status lists, holder revocation states.
export * from './revocation'
