import type {
  AcceptAuthorizationRequestRequest,
  AcceptCredentialOfferRequest,
  AuthorizationRequestSummaryJson,
  AuthorizationResponseJson,
  CreatedCredentialOfferJson,
  CreatedPresentationRequestJson,
  CreateX509CertificateRequest,
  CredentialOfferJson,
  CredentialOfferRequest,
  CredentialOfferSummaryJson,
  CredentialTemplateJson,
  CredentialTemplateRequest,
  HeldCredentialJson,
  ImportX509CertificateRequest,
  IssuerRequest,
  ListCredentialOffersQuery,
  ListPresentationsQuery,
  ListX509CertificatesQuery,
  OpenId4VcIssuerJson,
  PresentationRequestRequest,
  PresentationSessionJson,
  SignedStatusListTokenJson,
  SignStatusListTokenRequest,
  ResolveAuthorizationRequestRequest,
  ResolveCredentialOfferRequest,
  TrustAnchorJson,
  TrustAnchorRequest,
  UpdateCredentialTemplateRequest,
  UpdateIssuerRequest,
  UpdateVerifierRequest,
  VerificationTemplateJson,
  VerificationTemplateRequest,
  VerifierJson,
  VerifierRequest,
  X509CertificateJson,
} from '@idplane/common/agent-contract/openid4vc-api'
import { ADMIN_OPERATIONS as OPS } from '@idplane/common/agent-contract/operations'
import type { AgentClient } from './agent-client'

/**
 * One organization's agent, its OpenID4VC operations (common/agent-contract/operations/openid4vc.ts): x509
 * certificates, OID4VCI issuers, templates and offers, OID4VP verifiers, templates and sessions. Kept apart from
 * AgentClient, whose calls (timeout, error mapping, metrics) it uses. Each method @throws as AgentClient's, and
 * NotImplementedError (501) when the agent runs without AGENT_OPENID4VC.
 */
export class OpenId4VcAgentClient {
  public constructor(private readonly agent: AgentClient) {}

  // --- x509 ---

  public createX509Certificate(body: CreateX509CertificateRequest): Promise<X509CertificateJson> {
    return this.agent.call(OPS.createX509Certificate, { body })
  }

  public importX509Certificate(body: ImportX509CertificateRequest): Promise<X509CertificateJson> {
    return this.agent.call(OPS.importX509Certificate, { body })
  }

  public listX509Certificates(query: ListX509CertificatesQuery = {}): Promise<X509CertificateJson[]> {
    return this.agent.call(OPS.listX509Certificates, { query })
  }

  public getX509Certificate(certificateId: string): Promise<X509CertificateJson> {
    return this.agent.call(OPS.getX509Certificate, { params: { certificateId } })
  }

  public activateX509Certificate(certificateId: string): Promise<X509CertificateJson> {
    return this.agent.call(OPS.activateX509Certificate, { params: { certificateId } })
  }

  public deactivateX509Certificate(certificateId: string): Promise<X509CertificateJson> {
    return this.agent.call(OPS.deactivateX509Certificate, { params: { certificateId } })
  }

  // --- OID4VCI issuers, credential templates, offers ---

  public createIssuer(body: IssuerRequest): Promise<OpenId4VcIssuerJson> {
    return this.agent.call(OPS.createOpenId4VcIssuer, { body })
  }

  public listIssuers(): Promise<OpenId4VcIssuerJson[]> {
    return this.agent.call(OPS.listOpenId4VcIssuers, {})
  }

  public getIssuer(issuerId: string): Promise<OpenId4VcIssuerJson> {
    return this.agent.call(OPS.getOpenId4VcIssuer, { params: { issuerId } })
  }

  public updateIssuer(issuerId: string, body: UpdateIssuerRequest): Promise<OpenId4VcIssuerJson> {
    return this.agent.call(OPS.updateOpenId4VcIssuer, { params: { issuerId }, body })
  }

  public async deleteIssuer(issuerId: string): Promise<void> {
    await this.agent.call(OPS.deleteOpenId4VcIssuer, { params: { issuerId } })
  }

  public createTemplate(issuerId: string, body: CredentialTemplateRequest): Promise<CredentialTemplateJson> {
    return this.agent.call(OPS.createCredentialTemplate, { params: { issuerId }, body })
  }

  public listTemplates(issuerId: string): Promise<CredentialTemplateJson[]> {
    return this.agent.call(OPS.listCredentialTemplates, { params: { issuerId } })
  }

  public getTemplate(issuerId: string, templateId: string): Promise<CredentialTemplateJson> {
    return this.agent.call(OPS.getCredentialTemplate, { params: { issuerId, templateId } })
  }

  public updateTemplate(
    issuerId: string,
    templateId: string,
    body: UpdateCredentialTemplateRequest,
  ): Promise<CredentialTemplateJson> {
    return this.agent.call(OPS.updateCredentialTemplate, { params: { issuerId, templateId }, body })
  }

  public async deleteTemplate(issuerId: string, templateId: string): Promise<void> {
    await this.agent.call(OPS.deleteCredentialTemplate, { params: { issuerId, templateId } })
  }

  public createOffer(issuerId: string, body: CredentialOfferRequest): Promise<CreatedCredentialOfferJson> {
    return this.agent.call(OPS.createCredentialOffer, { params: { issuerId }, body })
  }

  /** A Token Status List JWT signed with a template's signer (the key of the SD-JWT VCs pointing into it). */
  public signStatusListToken(body: SignStatusListTokenRequest): Promise<SignedStatusListTokenJson> {
    return this.agent.call(OPS.signStatusListToken, { body })
  }

  public listOffers(query: ListCredentialOffersQuery = {}): Promise<CredentialOfferJson[]> {
    return this.agent.call(OPS.listCredentialOffers, { query })
  }

  public getOffer(offerId: string): Promise<CredentialOfferJson> {
    return this.agent.call(OPS.getCredentialOffer, { params: { offerId } })
  }

  public async deleteOffer(offerId: string): Promise<void> {
    await this.agent.call(OPS.deleteCredentialOffer, { params: { offerId } })
  }

  // --- OID4VP verifiers, presentation sessions, verification templates ---

  public createVerifier(body: VerifierRequest): Promise<VerifierJson> {
    return this.agent.call(OPS.createOpenId4VcVerifier, { body })
  }

  public listVerifiers(): Promise<VerifierJson[]> {
    return this.agent.call(OPS.listOpenId4VcVerifiers, {})
  }

  public getVerifier(verifierId: string): Promise<VerifierJson> {
    return this.agent.call(OPS.getOpenId4VcVerifier, { params: { verifierId } })
  }

  public updateVerifier(verifierId: string, body: UpdateVerifierRequest): Promise<VerifierJson> {
    return this.agent.call(OPS.updateOpenId4VcVerifier, { params: { verifierId }, body })
  }

  public async deleteVerifier(verifierId: string): Promise<void> {
    await this.agent.call(OPS.deleteOpenId4VcVerifier, { params: { verifierId } })
  }

  public createPresentationRequest(body: PresentationRequestRequest): Promise<CreatedPresentationRequestJson> {
    return this.agent.call(OPS.createPresentationRequest, { body })
  }

  public listPresentations(query: ListPresentationsQuery = {}): Promise<PresentationSessionJson[]> {
    return this.agent.call(OPS.listPresentations, { query })
  }

  public getPresentation(sessionId: string): Promise<PresentationSessionJson> {
    return this.agent.call(OPS.getPresentation, { params: { sessionId } })
  }

  public createVerificationTemplate(body: VerificationTemplateRequest): Promise<VerificationTemplateJson> {
    return this.agent.call(OPS.createVerificationTemplate, { body })
  }

  public listVerificationTemplates(): Promise<VerificationTemplateJson[]> {
    return this.agent.call(OPS.listVerificationTemplates, {})
  }

  public replaceVerificationTemplate(
    templateId: string,
    body: VerificationTemplateRequest,
  ): Promise<VerificationTemplateJson> {
    return this.agent.call(OPS.replaceVerificationTemplate, { params: { templateId }, body })
  }

  public async deleteVerificationTemplate(templateId: string): Promise<void> {
    await this.agent.call(OPS.deleteVerificationTemplate, { params: { templateId } })
  }

  // --- x509 trust anchors (an organization's, or a cloud wallet's through forTenant) ---

  public addTrustAnchor(body: TrustAnchorRequest): Promise<TrustAnchorJson> {
    return this.agent.call(OPS.addX509TrustAnchor, { body })
  }

  public listTrustAnchors(): Promise<TrustAnchorJson[]> {
    return this.agent.call(OPS.listX509TrustAnchors, {})
  }

  public removeTrustAnchor(trustAnchorId: string): Promise<{ id: string }> {
    return this.agent.call(OPS.removeX509TrustAnchor, { params: { trustAnchorId } })
  }

  // --- The holder (a cloud wallet: the base wallet's client acting as the tenant) ---

  public resolveCredentialOffer(body: ResolveCredentialOfferRequest): Promise<CredentialOfferSummaryJson> {
    return this.agent.call(OPS.resolveHolderCredentialOffer, { body })
  }

  public acceptCredentialOffer(body: AcceptCredentialOfferRequest): Promise<HeldCredentialJson[]> {
    return this.agent.call(OPS.acceptHolderCredentialOffer, { body })
  }

  public listHeldCredentials(): Promise<HeldCredentialJson[]> {
    return this.agent.call(OPS.listHeldCredentials, {})
  }

  public deleteHeldCredential(credentialId: string): Promise<{ id: string }> {
    return this.agent.call(OPS.deleteHeldCredential, { params: { credentialId } })
  }

  public resolveAuthorizationRequest(
    body: ResolveAuthorizationRequestRequest,
  ): Promise<AuthorizationRequestSummaryJson> {
    return this.agent.call(OPS.resolveHolderAuthorizationRequest, { body })
  }

  public acceptAuthorizationRequest(body: AcceptAuthorizationRequestRequest): Promise<AuthorizationResponseJson> {
    return this.agent.call(OPS.acceptHolderAuthorizationRequest, { body })
  }
}
