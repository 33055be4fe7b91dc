import type { AgentContext } from '@credo-ts/core'
import { InvalidInputError, NotImplementedError } from '@idplane/common'
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

import type { CredentialOfferInput } from '../openid4vc/issuer/credential-offers.service'
import { signStatusListToken } from '../openid4vc/issuer/status-list-token'
import type { CredentialTemplateInput } from '../openid4vc/issuer/template-input'
import { OPENID4VC_SERVICES, type OpenId4VcServices } from '../openid4vc/openid4vc-services'
import type { PresentationRequestInput } from '../openid4vc/verifier/presentations.service'
import type { VerificationTemplateInput } from '../openid4vc/verifier/verification-templates.service'
import type { AgentScope } from './agent-scope'
import {
  toCredentialOfferJson,
  toCredentialTemplateJson,
  toIssuerJson,
  toPresentationSessionJson,
  toTrustAnchorJson,
  toVerificationTemplateJson,
  toVerifierJson,
  toX509CertificateJson,
} from './openid4vc-json'

/** Credo's state of a verified presentation session (the enum lives in `@credo-ts/openid4vc`, not loaded here). */
const RESPONSE_VERIFIED = 'ResponseVerified'

/**
 * The admin API's OpenID4VC operations on the services of agent/src/openid4vc, in the wallet of the call's scope.
 * An agent without AGENT_OPENID4VC answers every operation 501.
 */
export class OpenId4VcAdminService {
  // x509

  /** @throws {NotImplementedError} without AGENT_OPENID4VC (every method) */
  public async createCertificate(scope: AgentScope, body: CreateX509CertificateRequest): Promise<X509CertificateJson> {
    const { services, context } = openId4VcOf(scope)
    const record = await services.x509.create(context, {
      ...body,
      notBefore: dateOf(body.notBefore, 'notBefore'),
      notAfter: dateOf(body.notAfter, 'notAfter'),
    })
    return toX509CertificateJson(record)
  }

  public async importCertificate(scope: AgentScope, body: ImportX509CertificateRequest): Promise<X509CertificateJson> {
    const { services, context } = openId4VcOf(scope)
    return toX509CertificateJson(await services.x509.import(context, body))
  }

  public async listCertificates(scope: AgentScope, query: ListX509CertificatesQuery): Promise<X509CertificateJson[]> {
    const { services, context } = openId4VcOf(scope)
    const records = await services.x509.list(context, { purpose: query.purpose, status: query.status })
    return records.map(toX509CertificateJson)
  }

  public async getCertificate(scope: AgentScope, id: string): Promise<X509CertificateJson> {
    const { services, context } = openId4VcOf(scope)
    return toX509CertificateJson(await services.x509.get(context, id))
  }

  public async activateCertificate(scope: AgentScope, id: string): Promise<X509CertificateJson> {
    const { services, context } = openId4VcOf(scope)
    return toX509CertificateJson(await services.x509.activate(context, id))
  }

  public async deactivateCertificate(scope: AgentScope, id: string): Promise<X509CertificateJson> {
    const { services, context } = openId4VcOf(scope)
    return toX509CertificateJson(await services.x509.deactivate(context, id))
  }

  public async addTrustAnchor(scope: AgentScope, body: TrustAnchorRequest): Promise<TrustAnchorJson> {
    const { services, context } = openId4VcOf(scope)
    return toTrustAnchorJson(await services.x509.addTrustAnchor(context, body))
  }

  public async listTrustAnchors(scope: AgentScope): Promise<TrustAnchorJson[]> {
    const { services, context } = openId4VcOf(scope)
    return (await services.x509.listTrustAnchors(context)).map(toTrustAnchorJson)
  }

  public async removeTrustAnchor(scope: AgentScope, id: string): Promise<{ id: string }> {
    const { services, context } = openId4VcOf(scope)
    await services.x509.removeTrustAnchor(context, id)
    return { id }
  }

  // OID4VCI issuers, templates, offers

  public async createIssuer(scope: AgentScope, body: IssuerRequest): Promise<OpenId4VcIssuerJson> {
    const { services, context } = openId4VcOf(scope)
    const record = await services.issuers.create(context, body)
    return toIssuerJson(record, services.issuers.credentialIssuerUrl(record.issuerId))
  }

  public async listIssuers(scope: AgentScope): Promise<OpenId4VcIssuerJson[]> {
    const { services, context } = openId4VcOf(scope)
    const records = await services.issuers.list(context)
    return records.map((record) => toIssuerJson(record, services.issuers.credentialIssuerUrl(record.issuerId)))
  }

  public async getIssuer(scope: AgentScope, issuerId: string): Promise<OpenId4VcIssuerJson> {
    const { services, context } = openId4VcOf(scope)
    const record = await services.issuers.get(context, issuerId)
    return toIssuerJson(record, services.issuers.credentialIssuerUrl(record.issuerId))
  }

  public async updateIssuer(
    scope: AgentScope,
    issuerId: string,
    body: UpdateIssuerRequest,
  ): Promise<OpenId4VcIssuerJson> {
    const { services, context } = openId4VcOf(scope)
    const record = await services.issuers.update(context, issuerId, body)
    return toIssuerJson(record, services.issuers.credentialIssuerUrl(record.issuerId))
  }

  public async deleteIssuer(scope: AgentScope, issuerId: string): Promise<{ id: string }> {
    const { services, context } = openId4VcOf(scope)
    await services.issuers.delete(context, issuerId)
    return { id: issuerId }
  }

  public async createTemplate(
    scope: AgentScope,
    issuerId: string,
    body: CredentialTemplateRequest,
  ): Promise<CredentialTemplateJson> {
    const { services, context } = openId4VcOf(scope)
    const record = await services.templates.create(context, issuerId, body as CredentialTemplateInput)
    return toCredentialTemplateJson(record)
  }

  public async listTemplates(scope: AgentScope, issuerId: string): Promise<CredentialTemplateJson[]> {
    const { services, context } = openId4VcOf(scope)
    return (await services.templates.list(context, issuerId)).map(toCredentialTemplateJson)
  }

  public async getTemplate(scope: AgentScope, issuerId: string, templateId: string): Promise<CredentialTemplateJson> {
    const { services, context } = openId4VcOf(scope)
    return toCredentialTemplateJson(await services.templates.get(context, issuerId, templateId))
  }

  public async updateTemplate(
    scope: AgentScope,
    issuerId: string,
    templateId: string,
    body: UpdateCredentialTemplateRequest,
  ): Promise<CredentialTemplateJson> {
    const { services, context } = openId4VcOf(scope)
    const record = await services.templates.update(
      context,
      issuerId,
      templateId,
      body as Partial<CredentialTemplateInput>,
    )
    return toCredentialTemplateJson(record)
  }

  public async deleteTemplate(scope: AgentScope, issuerId: string, templateId: string): Promise<{ id: string }> {
    const { services, context } = openId4VcOf(scope)
    await services.templates.delete(context, issuerId, templateId)
    return { id: templateId }
  }

  public async createOffer(
    scope: AgentScope,
    issuerId: string,
    body: CredentialOfferRequest,
  ): Promise<CreatedCredentialOfferJson> {
    const { services, context } = openId4VcOf(scope)
    const created = await services.offers.create(context, issuerId, body as CredentialOfferInput)
    return {
      ...toCredentialOfferJson(created.session),
      offerUri: created.offerUri,
      ...(created.txCode ? { txCode: created.txCode } : {}),
    }
  }

  public async signStatusListToken(
    scope: AgentScope,
    body: SignStatusListTokenRequest,
  ): Promise<SignedStatusListTokenJson> {
    const { context } = openId4VcOf(scope)
    return { jwt: await signStatusListToken(context, body.signer, body.payload) }
  }

  public async listOffers(scope: AgentScope, query: ListCredentialOffersQuery): Promise<CredentialOfferJson[]> {
    const { services, context } = openId4VcOf(scope)
    const records = await services.offers.list(context, {
      issuerId: query.issuerId,
      // Credo's state names; an unknown one matches nothing.
      state: query.state as never,
    })
    return records.map(toCredentialOfferJson)
  }

  public async getOffer(scope: AgentScope, offerId: string): Promise<CredentialOfferJson> {
    const { services, context } = openId4VcOf(scope)
    return toCredentialOfferJson(await services.offers.get(context, offerId))
  }

  public async deleteOffer(scope: AgentScope, offerId: string): Promise<{ id: string }> {
    const { services, context } = openId4VcOf(scope)
    await services.offers.delete(context, offerId)
    return { id: offerId }
  }

  // OID4VP verifiers, verification templates, presentations

  public async createVerifier(scope: AgentScope, body: VerifierRequest): Promise<VerifierJson> {
    const { services, context } = openId4VcOf(scope)
    return toVerifierJson(await services.verifiers.create(context, body))
  }

  public async listVerifiers(scope: AgentScope): Promise<VerifierJson[]> {
    const { services, context } = openId4VcOf(scope)
    return (await services.verifiers.list(context)).map(toVerifierJson)
  }

  public async getVerifier(scope: AgentScope, verifierId: string): Promise<VerifierJson> {
    const { services, context } = openId4VcOf(scope)
    return toVerifierJson(await services.verifiers.get(context, verifierId))
  }

  public async updateVerifier(
    scope: AgentScope,
    verifierId: string,
    body: UpdateVerifierRequest,
  ): Promise<VerifierJson> {
    const { services, context } = openId4VcOf(scope)
    return toVerifierJson(await services.verifiers.update(context, verifierId, body))
  }

  public async deleteVerifier(scope: AgentScope, verifierId: string): Promise<{ id: string }> {
    const { services, context } = openId4VcOf(scope)
    await services.verifiers.delete(context, verifierId)
    return { id: verifierId }
  }

  public async createVerificationTemplate(
    scope: AgentScope,
    body: VerificationTemplateRequest,
  ): Promise<VerificationTemplateJson> {
    const { services, context } = openId4VcOf(scope)
    const record = await services.verificationTemplates.create(context, body as VerificationTemplateInput)
    return toVerificationTemplateJson(record)
  }

  public async listVerificationTemplates(scope: AgentScope): Promise<VerificationTemplateJson[]> {
    const { services, context } = openId4VcOf(scope)
    return (await services.verificationTemplates.list(context)).map(toVerificationTemplateJson)
  }

  public async replaceVerificationTemplate(
    scope: AgentScope,
    templateId: string,
    body: VerificationTemplateRequest,
  ): Promise<VerificationTemplateJson> {
    const { services, context } = openId4VcOf(scope)
    const record = await services.verificationTemplates.replace(context, templateId, body as VerificationTemplateInput)
    return toVerificationTemplateJson(record)
  }

  public async deleteVerificationTemplate(scope: AgentScope, templateId: string): Promise<{ id: string }> {
    const { services, context } = openId4VcOf(scope)
    await services.verificationTemplates.delete(context, templateId)
    return { id: templateId }
  }

  public async createPresentationRequest(
    scope: AgentScope,
    body: PresentationRequestRequest,
  ): Promise<CreatedPresentationRequestJson> {
    const { services, context } = openId4VcOf(scope)
    const created = await services.presentations.createRequest(context, body as PresentationRequestInput)
    return { ...toPresentationSessionJson(created.session), requestUri: created.requestUri }
  }

  /** Sessions with the disclosed claims of the verified ones (read back from Credo, which checks them again). */
  public async listPresentations(scope: AgentScope, query: ListPresentationsQuery): Promise<PresentationSessionJson[]> {
    const { services, context } = openId4VcOf(scope)
    const sessions = await services.presentations.list(context, {
      verifierId: query.verifierId,
      state: query.state as never,
    })
    const out: PresentationSessionJson[] = []
    for (const session of sessions) {
      if (session.state !== RESPONSE_VERIFIED) {
        out.push(toPresentationSessionJson(session))
        continue
      }
      out.push(await this.presentationOf(services, context, session.id))
    }
    return out
  }

  public async getPresentation(scope: AgentScope, sessionId: string): Promise<PresentationSessionJson> {
    const { services, context } = openId4VcOf(scope)
    return this.presentationOf(services, context, sessionId)
  }

  private async presentationOf(
    services: OpenId4VcServices,
    context: AgentContext,
    sessionId: string,
  ): Promise<PresentationSessionJson> {
    const result = await services.presentations.get(context, sessionId)
    return toPresentationSessionJson(result.session, result.disclosed)
  }

  // The holder (cloud wallets: a tenant of the base wallet)

  public async resolveOffer(scope: AgentScope, body: { offerUri: string }): Promise<CredentialOfferSummaryJson> {
    const { services, context } = openId4VcOf(scope)
    return services.holder.resolveOffer(context, body.offerUri)
  }

  public async acceptOffer(scope: AgentScope, body: AcceptCredentialOfferRequest): Promise<HeldCredentialJson[]> {
    const { services, context } = openId4VcOf(scope)
    return services.holder.acceptOffer(context, body)
  }

  public async listHeldCredentials(scope: AgentScope): Promise<HeldCredentialJson[]> {
    const { services, context } = openId4VcOf(scope)
    return services.holder.listCredentials(context)
  }

  public async deleteHeldCredential(scope: AgentScope, credentialId: string): Promise<{ id: string }> {
    const { services, context } = openId4VcOf(scope)
    await services.holder.deleteCredential(context, credentialId)
    return { id: credentialId }
  }

  public async resolveAuthorizationRequest(
    scope: AgentScope,
    body: { requestUri: string },
  ): Promise<AuthorizationRequestSummaryJson> {
    const { services, context } = openId4VcOf(scope)
    return services.holder.resolveRequest(context, body.requestUri)
  }

  public async acceptAuthorizationRequest(
    scope: AgentScope,
    body: AcceptAuthorizationRequestRequest,
  ): Promise<AuthorizationResponseJson> {
    const { services, context } = openId4VcOf(scope)
    return services.holder.acceptRequest(context, body)
  }
}

/** @throws {NotImplementedError} when the agent runs without AGENT_OPENID4VC */
function openId4VcOf(scope: AgentScope): { services: OpenId4VcServices; context: AgentContext } {
  const dependencies = scope.agent.dependencyManager
  if (!dependencies.isRegistered(OPENID4VC_SERVICES, true)) {
    throw new NotImplementedError('OpenID4VC is not enabled on this agent (AGENT_OPENID4VC)')
  }
  return { services: dependencies.resolve<OpenId4VcServices>(OPENID4VC_SERVICES), context: scope.agent.context }
}

function dateOf(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined
  const date = new Date(value)
  if (Number.isNaN(date.getTime()))
    throw new InvalidInputError(`Invalid ${field}`, [{ field, message: 'is not a date' }])
  return date
}
