import type { OPENID4VC_OPERATIONS } from '@idplane/common/agent-contract/operations/openid4vc'

import type { AdminController } from './admin-routes'
import {
  AcceptAuthorizationRequestDto,
  AcceptCredentialOfferDto,
  CreateCredentialTemplateDto,
  CreateIssuerDto,
  CreateVerifierDto,
  CreateX509CertificateDto,
  CredentialOfferDto,
  ImportX509CertificateDto,
  ListCredentialOffersQueryDto,
  ListPresentationsQueryDto,
  ListX509CertificatesQueryDto,
  PresentationRequestDto,
  SignStatusListTokenDto,
  ResolveAuthorizationRequestDto,
  ResolveCredentialOfferDto,
  TrustAnchorDto,
  UpdateCredentialTemplateDto,
  UpdateIssuerDto,
  UpdateVerifierDto,
  VerificationTemplateDto,
} from './dto/openid4vc.dto'
import type { OpenId4VcAdminService } from './openid4vc.service'

export function openId4VcController(oid4vc: OpenId4VcAdminService): AdminController<typeof OPENID4VC_OPERATIONS> {
  return {
    createX509Certificate: {
      body: CreateX509CertificateDto,
      handle: ({ scope, body }) => oid4vc.createCertificate(scope, body),
    },
    importX509Certificate: {
      body: ImportX509CertificateDto,
      handle: ({ scope, body }) => oid4vc.importCertificate(scope, body),
    },
    listX509Certificates: {
      query: ListX509CertificatesQueryDto,
      handle: ({ scope, query }) => oid4vc.listCertificates(scope, query),
    },
    getX509Certificate: { handle: ({ scope, params }) => oid4vc.getCertificate(scope, params.certificateId) },
    activateX509Certificate: {
      handle: ({ scope, params }) => oid4vc.activateCertificate(scope, params.certificateId),
    },
    deactivateX509Certificate: {
      handle: ({ scope, params }) => oid4vc.deactivateCertificate(scope, params.certificateId),
    },

    createOpenId4VcIssuer: { body: CreateIssuerDto, handle: ({ scope, body }) => oid4vc.createIssuer(scope, body) },
    listOpenId4VcIssuers: { handle: ({ scope }) => oid4vc.listIssuers(scope) },
    getOpenId4VcIssuer: { handle: ({ scope, params }) => oid4vc.getIssuer(scope, params.issuerId) },
    updateOpenId4VcIssuer: {
      body: UpdateIssuerDto,
      handle: ({ scope, params, body }) => oid4vc.updateIssuer(scope, params.issuerId, body),
    },
    deleteOpenId4VcIssuer: { handle: ({ scope, params }) => oid4vc.deleteIssuer(scope, params.issuerId) },

    createCredentialTemplate: {
      body: CreateCredentialTemplateDto,
      handle: ({ scope, params, body }) => oid4vc.createTemplate(scope, params.issuerId, body),
    },
    listCredentialTemplates: { handle: ({ scope, params }) => oid4vc.listTemplates(scope, params.issuerId) },
    getCredentialTemplate: {
      handle: ({ scope, params }) => oid4vc.getTemplate(scope, params.issuerId, params.templateId),
    },
    updateCredentialTemplate: {
      body: UpdateCredentialTemplateDto,
      handle: ({ scope, params, body }) => oid4vc.updateTemplate(scope, params.issuerId, params.templateId, body),
    },
    deleteCredentialTemplate: {
      handle: ({ scope, params }) => oid4vc.deleteTemplate(scope, params.issuerId, params.templateId),
    },

    createCredentialOffer: {
      body: CredentialOfferDto,
      handle: ({ scope, params, body }) => oid4vc.createOffer(scope, params.issuerId, body),
    },
    signStatusListToken: {
      body: SignStatusListTokenDto,
      handle: ({ scope, body }) => oid4vc.signStatusListToken(scope, body),
    },
    listCredentialOffers: {
      query: ListCredentialOffersQueryDto,
      handle: ({ scope, query }) => oid4vc.listOffers(scope, query),
    },
    getCredentialOffer: { handle: ({ scope, params }) => oid4vc.getOffer(scope, params.offerId) },
    deleteCredentialOffer: { handle: ({ scope, params }) => oid4vc.deleteOffer(scope, params.offerId) },

    createOpenId4VcVerifier: {
      body: CreateVerifierDto,
      handle: ({ scope, body }) => oid4vc.createVerifier(scope, body),
    },
    listOpenId4VcVerifiers: { handle: ({ scope }) => oid4vc.listVerifiers(scope) },
    getOpenId4VcVerifier: { handle: ({ scope, params }) => oid4vc.getVerifier(scope, params.verifierId) },
    updateOpenId4VcVerifier: {
      body: UpdateVerifierDto,
      handle: ({ scope, params, body }) => oid4vc.updateVerifier(scope, params.verifierId, body),
    },
    deleteOpenId4VcVerifier: { handle: ({ scope, params }) => oid4vc.deleteVerifier(scope, params.verifierId) },

    createPresentationRequest: {
      body: PresentationRequestDto,
      handle: ({ scope, body }) => oid4vc.createPresentationRequest(scope, body),
    },
    listPresentations: {
      query: ListPresentationsQueryDto,
      handle: ({ scope, query }) => oid4vc.listPresentations(scope, query),
    },
    getPresentation: { handle: ({ scope, params }) => oid4vc.getPresentation(scope, params.sessionId) },

    createVerificationTemplate: {
      body: VerificationTemplateDto,
      handle: ({ scope, body }) => oid4vc.createVerificationTemplate(scope, body),
    },
    listVerificationTemplates: { handle: ({ scope }) => oid4vc.listVerificationTemplates(scope) },
    replaceVerificationTemplate: {
      body: VerificationTemplateDto,
      handle: ({ scope, params, body }) => oid4vc.replaceVerificationTemplate(scope, params.templateId, body),
    },
    deleteVerificationTemplate: {
      handle: ({ scope, params }) => oid4vc.deleteVerificationTemplate(scope, params.templateId),
    },

    addX509TrustAnchor: { body: TrustAnchorDto, handle: ({ scope, body }) => oid4vc.addTrustAnchor(scope, body) },
    listX509TrustAnchors: { handle: ({ scope }) => oid4vc.listTrustAnchors(scope) },
    removeX509TrustAnchor: {
      handle: ({ scope, params }) => oid4vc.removeTrustAnchor(scope, params.trustAnchorId),
    },

    resolveHolderCredentialOffer: {
      body: ResolveCredentialOfferDto,
      handle: ({ scope, body }) => oid4vc.resolveOffer(scope, body),
    },
    acceptHolderCredentialOffer: {
      body: AcceptCredentialOfferDto,
      handle: ({ scope, body }) => oid4vc.acceptOffer(scope, body),
    },
    listHeldCredentials: { handle: ({ scope }) => oid4vc.listHeldCredentials(scope) },
    deleteHeldCredential: {
      handle: ({ scope, params }) => oid4vc.deleteHeldCredential(scope, params.credentialId),
    },
    resolveHolderAuthorizationRequest: {
      body: ResolveAuthorizationRequestDto,
      handle: ({ scope, body }) => oid4vc.resolveAuthorizationRequest(scope, body),
    },
    acceptHolderAuthorizationRequest: {
      body: AcceptAuthorizationRequestDto,
      handle: ({ scope, body }) => oid4vc.acceptAuthorizationRequest(scope, body),
    },
  }
}
