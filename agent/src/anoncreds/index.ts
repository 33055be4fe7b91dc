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
