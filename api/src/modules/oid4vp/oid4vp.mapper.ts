import type {
  CreatedPresentationRequestJson,
  PresentationSessionJson,
  VerificationTemplateJson,
  VerifierJson,
} from '@idplane/common/agent-contract/openid4vc-api'
import type {
  CreatedPresentationRequestResponse,
  Oid4vpVerifierResponse,
  PresentationSessionResponse,
  VerificationTemplateResponse,
} from './dto/oid4vp.response'

/* The agent's OID4VP records as the API answers them: the documented fields only, absent ones left out. */

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T
}

export function toVerifierResponse(json: VerifierJson): Oid4vpVerifierResponse {
  return defined({
    id: json.id,
    verifierId: json.verifierId,
    clientName: json.clientName,
    logoUri: json.logoUri,
    createdAt: json.createdAt,
  })
}

export function toVerificationTemplateResponse(json: VerificationTemplateJson): VerificationTemplateResponse {
  return defined({
    id: json.id,
    name: json.name,
    description: json.description,
    query: json.query,
    responseMode: json.responseMode,
    signer: json.signer,
    isHaip: json.isHaip,
    createdAt: json.createdAt,
  })
}

export function toPresentationSessionResponse(json: PresentationSessionJson): PresentationSessionResponse {
  return defined({
    id: json.id,
    verifierId: json.verifierId,
    state: json.state,
    authorizationRequestUri: json.authorizationRequestUri,
    errorMessage: json.errorMessage,
    disclosed: json.disclosed?.map((entry) =>
      defined({
        queryId: entry.queryId,
        format: entry.format,
        issuer: entry.issuer,
        issuerCertificateSubject: entry.issuerCertificateSubject,
        type: entry.type,
        claims: entry.claims,
      }),
    ),
    expiresAt: json.expiresAt,
    createdAt: json.createdAt,
    updatedAt: json.updatedAt,
  })
}

export function toCreatedPresentationRequestResponse(
  json: CreatedPresentationRequestJson,
): CreatedPresentationRequestResponse {
  return { ...toPresentationSessionResponse(json), requestUri: json.requestUri }
}
