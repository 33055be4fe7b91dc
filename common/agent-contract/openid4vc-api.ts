/**
 * Request and answer bodies of the agent's OpenID4VC admin operations (operations/openid4vc.ts): x509 certificates,
 * OID4VCI issuers, credential templates and offers, OID4VP verifiers, verification templates and presentation
 * sessions. Field names follow the agent's services (agent/src/openid4vc); the platform API passes them through.
 * Deep checks (claims, DCQL queries, names) are the agent's: one place reports every problem by field.
 */

export type X509KeyTypeName = 'P-256' | 'Ed25519'
export type X509PurposeName = 'issuance' | 'verification' | 'authority'
export type X509StatusName = 'active' | 'inactive'

export interface X509Name {
  commonName: string
  organization?: string
  organizationalUnit?: string
  country?: string
  stateOrProvince?: string
  locality?: string
}

export interface CreateX509CertificateRequest {
  keyType: X509KeyTypeName
  purpose: X509PurposeName
  subject: X509Name
  sanDnsNames?: string[]
  sanUriNames?: string[]
  /** ISO 8601; now when absent. */
  notBefore?: string
  /** ISO 8601; a year after notBefore (or the issuer certificate's end) when absent. */
  notAfter?: string
  /** An active `authority` certificate of the organization signs it; self-signed when absent. */
  issuerCertificateId?: string
}

export interface ImportX509CertificateRequest {
  purpose: X509PurposeName
  /** PEM (leaf first, then the certificates above it) or one base64 DER certificate. */
  certificate: string
  /** PKCS#8 PEM or a private JWK. */
  privateKey: string | Record<string, unknown>
}

export interface ListX509CertificatesQuery {
  purpose?: X509PurposeName
  status?: X509StatusName
}

export interface X509CertificateJson {
  id: string
  keyType: X509KeyTypeName
  purpose: X509PurposeName
  status: X509StatusName
  /** base64 DER. */
  certificate: string
  /** The certificates above it, base64 DER, nearest first. */
  chain: string[]
  subject: string
  issuer: string
  serialNumber: string
  notBefore: string
  notAfter: string
  sanDnsNames: string[]
  sanUriNames: string[]
  issuerCertificateId?: string
  isImported: boolean
  createdAt: string
}

export interface IssuerDisplayJson {
  name: string
  locale?: string
  logoUri?: string
  logoAltText?: string
}

export interface IssuerRequest {
  /** The public id in the issuer's URL; a uuid when absent. */
  issuerId?: string
  display?: IssuerDisplayJson[]
  /** Batch issuance: most copies of one credential per request. @default 1 */
  batchSize?: number
  authorizationServers?: string[]
}

export type UpdateIssuerRequest = Omit<IssuerRequest, 'issuerId'>

export interface OpenId4VcIssuerJson {
  /** The record id. */
  id: string
  /** The public id (path of the issuer's URL). */
  issuerId: string
  /** `credential_issuer`: where wallets find the metadata (`/.well-known/openid-credential-issuer` + path). */
  credentialIssuer: string
  display?: IssuerDisplayJson[]
  batchSize: number
  authorizationServers: string[]
  /** One per template. */
  credentialConfigurationIds: string[]
  createdAt: string
}

export interface TemplateClaimJson {
  path: string[]
  mandatory?: boolean
  selectivelyDisclosable?: boolean
  display?: { name: string; locale?: string }[]
}

export type TemplateSignerJson = { method: 'did'; did: string } | { method: 'x5c' }

export type TemplateAuthorizationJson =
  | { type: 'pre-authorized' }
  | { type: 'presentation'; dcql: Record<string, unknown> }
  | { type: 'external'; authorizationServerUrl: string }

export interface CredentialTemplateRequest {
  name: string
  description?: string
  format: 'dc+sd-jwt' | 'mso_mdoc' | 'jwt_vc_json'
  vct?: string
  doctype?: string
  types?: string[]
  claims: TemplateClaimJson[]
  signer: TemplateSignerJson
  display?: Record<string, unknown>[]
  validityDays?: number
  authorization?: TemplateAuthorizationJson
}

export type UpdateCredentialTemplateRequest = Partial<CredentialTemplateRequest>

export interface CredentialTemplateJson extends CredentialTemplateRequest {
  id: string
  issuerId: string
  authorization: TemplateAuthorizationJson
  createdAt: string
}

/** Where a dc+sd-jwt credential's status is: its `status.status_list` claim (draft-ietf-oauth-status-list 6.1). */
export interface CredentialStatusListJson {
  idx: number
  uri: string
  /**
   * The entries of a batch's further copies in the same list (copy 2, 3, ...): each copy has its own, so a verifier
   * cannot link two copies by their status. Without it (offers made before 2026-11-29) every copy carries `idx`.
   */
  copyIdx?: number[]
  /**
   * An x5c template's list belongs to this issuance certificate (the one active when the offer was made): the
   * credential is signed with it, and refused when another one is active by then (the list would not verify).
   */
  certificateId?: string
}

export interface CredentialOfferRequest {
  /** `status`: dc+sd-jwt only; the API allocates it (docs/decisions.md, "Token Status List"). */
  credentials: { templateId: string; claims: Record<string, unknown>; status?: CredentialStatusListJson }[]
  txCode?: { length?: number; inputMode?: 'numeric' | 'text'; description?: string }
  expiresInSeconds?: number
}

export interface ListCredentialOffersQuery {
  issuerId?: string
  state?: string
}

export interface CredentialOfferJson {
  id: string
  issuerId: string
  /** Credo's issuance-session state: OfferCreated ... Completed, or Error. */
  state: string
  /** The templates offered (credential configuration ids). */
  credentialConfigurationIds: string[]
  /** The templates issued so far. */
  issuedCredentials: string[]
  isPreAuthorized: boolean
  hasTxCode: boolean
  errorMessage?: string
  expiresAt?: string
  createdAt: string
  updatedAt?: string
}

export interface CreatedCredentialOfferJson extends CredentialOfferJson {
  /** `openid-credential-offer://?credential_offer_uri=...`: the link or QR code payload for the wallet. */
  offerUri: string
  /** The transaction code the holder types in, given to them on another channel; only in this answer. */
  txCode?: string
}

/**
 * A status list token's signer: a DID, or an x509 issuance certificate: `certificateId` names the one whose
 * credentials point into the list (active or not: a list outlives its certificate's rotation); without it, the active
 * one (lists made before 2026-11-29).
 */
export type StatusListSignerJson = { method: 'did'; did: string } | { method: 'x5c'; certificateId?: string }

/** A status list token to sign with a template's signer (the key its credentials are signed with). */
export interface SignStatusListTokenRequest {
  signer: StatusListSignerJson
  /** The token's claims (`sub`, `iat`, `ttl`, `status_list`), signed as given. */
  payload: Record<string, unknown>
}

export interface SignedStatusListTokenJson {
  /** The compact JWT, header `typ: statuslist+jwt`. */
  jwt: string
}

export interface VerifierRequest {
  verifierId?: string
  clientName?: string
  logoUri?: string
}

export type UpdateVerifierRequest = Omit<VerifierRequest, 'verifierId'>

export interface VerifierJson {
  id: string
  verifierId: string
  clientName?: string
  logoUri?: string
  createdAt: string
}

export type VerificationQueryJson =
  | { type: 'dcql'; dcql: Record<string, unknown> }
  | { type: 'presentation-exchange'; definition: Record<string, unknown> }

export type RequestSignerJson = { method: 'x5c' } | { method: 'did'; did: string }

export interface PresentationRequestOptionsJson {
  query: VerificationQueryJson
  responseMode?: 'direct_post' | 'direct_post.jwt'
  signer?: RequestSignerJson
  isHaip?: boolean
}

export interface VerificationTemplateRequest extends PresentationRequestOptionsJson {
  name: string
  description?: string
}

export interface VerificationTemplateJson extends VerificationTemplateRequest {
  id: string
  createdAt: string
}

export interface PresentationRequestRequest extends Partial<PresentationRequestOptionsJson> {
  verifierId: string
  /** A verification template instead of query, responseMode, signer and isHaip. */
  templateId?: string
  expiresInSeconds?: number
}

export interface ListPresentationsQuery {
  verifierId?: string
  state?: string
}

export interface DisclosedCredentialJson {
  queryId: string
  format: string
  issuer?: string
  issuerCertificateSubject?: string
  type?: string | string[]
  claims: Record<string, unknown>
}

export interface PresentationSessionJson {
  id: string
  verifierId: string
  /** Credo's verification-session state: RequestCreated, RequestUriRetrieved, ResponseVerified, or Error. */
  state: string
  authorizationRequestUri?: string
  errorMessage?: string
  /** What the holder disclosed, once the response is verified. */
  disclosed?: DisclosedCredentialJson[]
  expiresAt?: string
  createdAt: string
  updatedAt?: string
}

export interface CreatedPresentationRequestJson extends PresentationSessionJson {
  /** `openid4vp://?client_id=...&request_uri=...`: the link or QR code payload for the wallet. */
  requestUri: string
}

// The holder side (a cloud wallet's tenant of the base wallet, X-Tenant-Id): agent/src/openid4vc/holder.

export type JsonPath = (string | number | null)[]

export interface ResolveCredentialOfferRequest {
  /** `openid-credential-offer://?credential_offer_uri=...` (or `credential_offer=`), as the issuer shows it. */
  offerUri: string
}

export interface OfferedCredentialJson {
  configurationId: string
  format: string
  name?: string
  /** vct (SD-JWT VC), doctype (mdoc) or the W3C types, as the issuer's metadata declares them. */
  type?: string | string[]
  /** The claims the issuer declares for it; the values arrive with the credential. */
  claims: { path: JsonPath; mandatory?: boolean; name?: string }[]
}

export interface CredentialOfferSummaryJson {
  credentialIssuer: string
  issuerName?: string
  credentials: OfferedCredentialJson[]
  /** The pre-authorized code flow; otherwise the issuer authorizes the wallet (by a presentation). */
  isPreAuthorized: boolean
  /** Present when the offer needs a transaction code, sent to the holder out of band. */
  txCode?: { length?: number; inputMode?: string; description?: string }
}

export interface CredentialSelectionJson {
  /** The credential to present; the first that answers the query when absent. */
  credentialId?: string
  /** Requested claims not to disclose, as paths of the query (mdoc: namespace, element); the verifier decides. */
  withhold?: string[][]
  /** Leave this query unanswered (an optional one). */
  omit?: boolean
}

export interface AcceptCredentialOfferRequest extends ResolveCredentialOfferRequest {
  txCode?: string
  /** @default every offered configuration */
  configurationIds?: string[]
  /** Key type of the holder keys the credentials are bound to. @default 'P-256' */
  keyType?: X509KeyTypeName
  /** Credentials per configuration, each bound to its own key (at most the issuer's batch size). @default 1 */
  batchSize?: number
  /** Offers authorized by a presentation: the holder's selections for the issuer's request. */
  presentation?: { selections?: Record<string, CredentialSelectionJson> }
}

export interface HeldCredentialJson {
  id: string
  format: 'dc+sd-jwt' | 'mso_mdoc' | 'jwt_vc_json' | 'ldp_vc'
  /** vct, docType, or the W3C types. */
  type: string | string[]
  /** `iss` of an SD-JWT VC, the issuer of a W3C credential. */
  issuer?: string
  /** The subject of the certificate that signed it (mdoc, SD-JWT VC with x5c). */
  issuerCertificateSubject?: string
  /** Copies kept for one-time presentation (batch issuance). */
  instances: number
  claims: Record<string, unknown>
  createdAt: string
}

export interface ResolveAuthorizationRequestRequest {
  /** `openid4vp://?client_id=...&request_uri=...`, as the verifier shows it. */
  requestUri: string
}

export interface RequestedCredentialQueryJson {
  /** The DCQL credential query id (or PE input descriptor id) that selections are keyed by. */
  id: string
  format?: string
  type?: string | string[]
  claims?: { id?: string; path: JsonPath; values?: unknown[] }[]
  /** Combinations of claim ids that satisfy the query, the verifier's preference first. */
  claimSets?: string[][]
  isRequired: boolean
  /** Held credentials that answer the query, with the claims they would disclose by default. */
  candidates: { credentialId: string; format: string; requestedClaims: unknown }[]
}

export interface AuthorizationRequestSummaryJson {
  /** Names the kept request in the answer (a verifier serves its request object once). */
  requestId: string
  verifier: { clientId: string; clientIdPrefix: string }
  responseMode?: string
  queries: RequestedCredentialQueryJson[]
  /** The wallet holds what every required part of the request asks for. */
  canBeSatisfied: boolean
  /** Until when the request can be answered. */
  expiresAt: string
}

export interface AcceptAuthorizationRequestRequest {
  /** A request kept by the resolve operation. */
  requestId?: string
  /** A request to fetch and answer at once, without a consent step. */
  requestUri?: string
  /** Per query id: which credential, which requested claims to withhold, or to leave it out. */
  selections?: Record<string, CredentialSelectionJson>
}

export interface AuthorizationResponseJson {
  /** The verifier's HTTP status for the response. */
  status: number
  /** Where the verifier sends the holder next, when it says. */
  redirectUri?: string
}

export interface TrustAnchorRequest {
  /** One certificate: PEM or base64 DER. */
  certificate: string
  label?: string
}

export interface TrustAnchorJson {
  id: string
  /** base64 DER. */
  certificate: string
  fingerprint: string
  subject: string
  notBefore: string
  notAfter: string
  label?: string
  createdAt: string
}
