import type {
  AuthorizationRequestSummaryJson,
  AuthorizationResponseJson,
  CredentialOfferSummaryJson,
  HeldCredentialJson,
  JsonPath,
  OfferedCredentialJson,
  RequestedCredentialQueryJson,
} from '@idplane/common/agent-contract/openid4vc-api'
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  object,
  oneOf,
  optional,
  recordOf,
  string,
  unchecked,
  uuid,
} from '../../../infra/http/data-schema'

/*
 * What the cloud wallet's OpenID4VC routes answer: the base wallet agent's holder views
 * (common/agent-contract/openid4vc-api.ts), passed through as the tenant's.
 */

export type WalletOfferSummaryResponse = CredentialOfferSummaryJson
export type WalletHeldCredentialResponse = HeldCredentialJson
export type WalletRequestSummaryResponse = AuthorizationRequestSummaryJson
export type WalletRequestAnswerResponse = AuthorizationResponseJson

const CLAIM_PATH = unchecked<JsonPath>('WalletClaimPath', {
  type: 'array',
  items: { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
  description: 'A claim path (OID4VCI/OID4VP 1.0): names, array indexes, null for every element',
})

const CREDENTIAL_TYPE = unchecked<string | string[]>('WalletCredentialType', {
  oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  description: 'vct (SD-JWT VC), doctype (mdoc) or the W3C types',
})

const ANY_JSON = unchecked<unknown>('WalletJsonValue', {})

const OFFERED_CREDENTIAL = object<OfferedCredentialJson>('WalletOfferedCredential', {
  configurationId: string,
  format: string,
  name: optional(string),
  type: optional(CREDENTIAL_TYPE),
  claims: arrayOf(
    object<OfferedCredentialJson['claims'][number]>('WalletOfferedClaim', {
      path: CLAIM_PATH,
      mandatory: optional(boolean),
      name: optional(string),
    }),
  ),
})

export const WALLET_OFFER_SUMMARY_SCHEMA = object<WalletOfferSummaryResponse>('WalletCredentialOfferSummary', {
  credentialIssuer: string,
  issuerName: optional(string),
  credentials: arrayOf(OFFERED_CREDENTIAL),
  isPreAuthorized: boolean,
  txCode: optional(
    object<NonNullable<CredentialOfferSummaryJson['txCode']>>('WalletOfferTxCode', {
      length: optional(integer),
      inputMode: optional(string),
      description: optional(string),
    }),
  ),
})

export const WALLET_HELD_CREDENTIAL_SCHEMA = object<WalletHeldCredentialResponse>('WalletHeldCredential', {
  id: uuid,
  format: oneOf(['dc+sd-jwt', 'mso_mdoc', 'jwt_vc_json', 'ldp_vc'] as const),
  type: CREDENTIAL_TYPE,
  issuer: optional(string),
  issuerCertificateSubject: optional(string),
  instances: integer,
  claims: recordOf(ANY_JSON),
  createdAt: dateTime,
})

const REQUESTED_QUERY = object<RequestedCredentialQueryJson>('WalletRequestedCredentialQuery', {
  id: string,
  format: optional(string),
  type: optional(CREDENTIAL_TYPE),
  claims: optional(
    arrayOf(
      object<NonNullable<RequestedCredentialQueryJson['claims']>[number]>('WalletRequestedClaim', {
        id: optional(string),
        path: CLAIM_PATH,
        values: optional(arrayOf(ANY_JSON)),
      }),
    ),
  ),
  claimSets: optional(arrayOf(arrayOf(string))),
  isRequired: boolean,
  candidates: arrayOf(
    object<RequestedCredentialQueryJson['candidates'][number]>('WalletRequestCandidate', {
      credentialId: uuid,
      format: string,
      requestedClaims: ANY_JSON,
    }),
  ),
})

export const WALLET_REQUEST_SUMMARY_SCHEMA = object<WalletRequestSummaryResponse>('WalletAuthorizationRequestSummary', {
  requestId: uuid,
  verifier: object<AuthorizationRequestSummaryJson['verifier']>('WalletRequestVerifier', {
    clientId: string,
    clientIdPrefix: string,
  }),
  responseMode: optional(string),
  queries: arrayOf(REQUESTED_QUERY),
  canBeSatisfied: boolean,
  expiresAt: dateTime,
})

export const WALLET_REQUEST_ANSWER_SCHEMA = object<WalletRequestAnswerResponse>('WalletAuthorizationResponse', {
  status: integer,
  redirectUri: optional(string),
})

export interface WalletDeletedResponse {
  id: string
}

export const WALLET_DELETED_SCHEMA = object<WalletDeletedResponse>(undefined, { id: uuid })
