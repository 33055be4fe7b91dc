import type {
  CreatedCredentialOfferJson,
  CredentialOfferJson,
  CredentialTemplateJson,
  OpenId4VcIssuerJson,
} from '@idplane/common/agent-contract/openid4vc-api'
import type {
  CreatedOid4vcOfferResponse,
  CredentialTemplateResponse,
  Oid4vcIssuerResponse,
  Oid4vcOfferResponse,
} from './dto/oid4vc.response'

/*
 * The agent's OpenID4VC records as the API answers them: the documented fields only (the OpenAPI schemas refuse
 * others), absent optional fields left out.
 */

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T
}

export function toIssuerResponse(json: OpenId4VcIssuerJson): Oid4vcIssuerResponse {
  return defined({
    id: json.id,
    issuerId: json.issuerId,
    credentialIssuer: json.credentialIssuer,
    display: json.display,
    batchSize: json.batchSize,
    authorizationServers: json.authorizationServers,
    credentialConfigurationIds: json.credentialConfigurationIds,
    createdAt: json.createdAt,
  })
}

export function toTemplateResponse(json: CredentialTemplateJson): CredentialTemplateResponse {
  return defined({
    id: json.id,
    issuerId: json.issuerId,
    name: json.name,
    description: json.description,
    format: json.format,
    vct: json.vct,
    doctype: json.doctype,
    types: json.types,
    claims: json.claims,
    signer: json.signer,
    display: json.display,
    validityDays: json.validityDays,
    authorization: json.authorization,
    createdAt: json.createdAt,
  })
}

export function toOfferResponse(json: CredentialOfferJson): Oid4vcOfferResponse {
  return defined({
    id: json.id,
    issuerId: json.issuerId,
    state: json.state,
    credentialConfigurationIds: json.credentialConfigurationIds,
    issuedCredentials: json.issuedCredentials,
    isPreAuthorized: json.isPreAuthorized,
    hasTxCode: json.hasTxCode,
    errorMessage: json.errorMessage,
    expiresAt: json.expiresAt,
    createdAt: json.createdAt,
    updatedAt: json.updatedAt,
  })
}

export function toCreatedOfferResponse(json: CreatedCredentialOfferJson): CreatedOid4vcOfferResponse {
  return defined({ ...toOfferResponse(json), offerUri: json.offerUri, txCode: json.txCode })
}
