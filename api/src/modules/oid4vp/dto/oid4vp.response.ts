import type {
  CreatedPresentationRequestJson,
  DisclosedCredentialJson,
  PresentationSessionJson,
  VerificationTemplateJson,
  VerifierJson,
} from '@idplane/common/agent-contract/openid4vc-api'
import {
  arrayOf,
  boolean,
  dateTime,
  object,
  oneOf,
  optional,
  recordOf,
  string,
  unchecked,
  uuid,
} from '../../../infra/http/data-schema'
import { RESPONSE_MODES } from './presentation.dto'

export type Oid4vpVerifierResponse = VerifierJson
export type VerificationTemplateResponse = VerificationTemplateJson
export type PresentationSessionResponse = PresentationSessionJson
export type CreatedPresentationRequestResponse = CreatedPresentationRequestJson

export const OID4VP_VERIFIER_SCHEMA = object<Oid4vpVerifierResponse>('Oid4vpVerifier', {
  id: uuid,
  verifierId: string,
  clientName: optional(string),
  logoUri: optional(string),
  createdAt: dateTime,
})

const JSON_OBJECT = { type: 'object', additionalProperties: true } as const

export const VERIFICATION_TEMPLATE_SCHEMA = object<VerificationTemplateResponse>('Oid4vpVerificationTemplate', {
  id: uuid,
  name: string,
  description: optional(string),
  query: unchecked<VerificationTemplateResponse['query']>('Oid4vpVerificationQuery', JSON_OBJECT),
  responseMode: optional(oneOf(RESPONSE_MODES)),
  signer: optional(unchecked<NonNullable<VerificationTemplateResponse['signer']>>('Oid4vpRequestSigner', JSON_OBJECT)),
  isHaip: optional(boolean),
  createdAt: dateTime,
})

const DISCLOSED_SCHEMA = object<DisclosedCredentialJson>('Oid4vpDisclosedCredential', {
  queryId: string,
  format: string,
  issuer: optional(string),
  issuerCertificateSubject: optional(string),
  type: optional(
    unchecked<string | string[]>('Oid4vpCredentialType', {
      oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    }),
  ),
  claims: recordOf(unchecked<unknown>('Oid4vpClaimValue', {})),
})

const SESSION_PROPERTIES = {
  id: uuid,
  verifierId: string,
  state: string,
  authorizationRequestUri: optional(string),
  errorMessage: optional(string),
  disclosed: optional(arrayOf(DISCLOSED_SCHEMA)),
  expiresAt: optional(dateTime),
  createdAt: dateTime,
  updatedAt: optional(dateTime),
}

export const PRESENTATION_SESSION_SCHEMA = object<PresentationSessionResponse>(
  'Oid4vpPresentationSession',
  SESSION_PROPERTIES,
)

export const CREATED_PRESENTATION_REQUEST_SCHEMA = object<CreatedPresentationRequestResponse>(
  'Oid4vpCreatedPresentationRequest',
  { ...SESSION_PROPERTIES, requestUri: string },
)
