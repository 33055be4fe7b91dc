import type {
  CreatedCredentialOfferJson,
  CredentialOfferJson,
  CredentialTemplateJson,
  IssuerDisplayJson,
  OpenId4VcIssuerJson,
} from '@idplane/common/agent-contract/openid4vc-api'
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  object,
  oneOf,
  optional,
  string,
  unchecked,
  uri,
  uuid,
} from '../../../infra/http/data-schema'
import { STATUS_PURPOSES, type StatusPurpose } from '@idplane/common/bitstring-status-list'
import { CREDENTIAL_FORMATS } from './credential-template.dto'

/** An OID4VCI issuer as the API shows it (the agent's record: docs/api-usage.md "OpenID4VC"). */
export type Oid4vcIssuerResponse = OpenId4VcIssuerJson
export type CredentialTemplateResponse = CredentialTemplateJson
export type Oid4vcOfferResponse = CredentialOfferJson
/** The Token Status List entry an offer's credential got (`status.status_list` in the SD-JWT VC). */
export interface Oid4vcOfferStatusResponse {
  purpose: StatusPurpose
  statusListId: string
  idx: number
  /** The entries of a batch's further copies in the same list (when the issuer's batchSize is more than 1). */
  copyIdx?: number[]
  uri: string
}

export type CreatedOid4vcOfferResponse = CreatedCredentialOfferJson & { status?: Oid4vcOfferStatusResponse }

const ISSUER_DISPLAY_SCHEMA = object<IssuerDisplayJson>('Oid4vcIssuerDisplay', {
  name: string,
  locale: optional(string),
  logoUri: optional(string),
  logoAltText: optional(string),
})

export const OID4VC_ISSUER_SCHEMA = object<Oid4vcIssuerResponse>('Oid4vcIssuer', {
  id: uuid,
  issuerId: string,
  credentialIssuer: uri,
  display: optional(arrayOf(ISSUER_DISPLAY_SCHEMA)),
  batchSize: integer,
  authorizationServers: arrayOf(string),
  credentialConfigurationIds: arrayOf(string),
  createdAt: dateTime,
})

/** Open JSON the agent checks (claims descriptions, signer, authorization, display): documented as objects. */
const JSON_OBJECT = { type: 'object', additionalProperties: true } as const

export const CREDENTIAL_TEMPLATE_SCHEMA = object<CredentialTemplateResponse>('Oid4vcCredentialTemplate', {
  id: uuid,
  issuerId: string,
  name: string,
  description: optional(string),
  format: oneOf(CREDENTIAL_FORMATS),
  vct: optional(string),
  doctype: optional(string),
  types: optional(arrayOf(string)),
  claims: unchecked<CredentialTemplateResponse['claims']>('Oid4vcTemplateClaims', {
    type: 'array',
    items: JSON_OBJECT,
  }),
  signer: unchecked<CredentialTemplateResponse['signer']>('Oid4vcTemplateSigner', JSON_OBJECT),
  display: optional(
    unchecked<NonNullable<CredentialTemplateResponse['display']>>('Oid4vcCredentialDisplay', {
      type: 'array',
      items: JSON_OBJECT,
    }),
  ),
  validityDays: optional(integer),
  authorization: unchecked<CredentialTemplateResponse['authorization']>('Oid4vcTemplateAuthorization', JSON_OBJECT),
  createdAt: dateTime,
})

const OFFER_PROPERTIES = {
  id: uuid,
  issuerId: string,
  state: string,
  credentialConfigurationIds: arrayOf(string),
  issuedCredentials: arrayOf(string),
  isPreAuthorized: boolean,
  hasTxCode: boolean,
  errorMessage: optional(string),
  expiresAt: optional(dateTime),
  createdAt: dateTime,
  updatedAt: optional(dateTime),
}

export const OID4VC_OFFER_SCHEMA = object<Oid4vcOfferResponse>('Oid4vcCredentialOffer', OFFER_PROPERTIES)

export const CREATED_OID4VC_OFFER_SCHEMA = object<CreatedOid4vcOfferResponse>('Oid4vcCreatedCredentialOffer', {
  ...OFFER_PROPERTIES,
  offerUri: string,
  txCode: optional(string),
  status: optional(
    object<Oid4vcOfferStatusResponse>('Oid4vcOfferStatus', {
      purpose: oneOf(STATUS_PURPOSES),
      statusListId: uuid,
      idx: integer,
      copyIdx: optional(arrayOf(integer)),
      uri,
    }),
  ),
})
