import type { AgentContext } from '@credo-ts/core'
import {
  OpenId4VcVerifierApi,
  OpenId4VcVerifierRepository,
  type OpenId4VciGetVerificationSession,
  type OpenId4VpCreateAuthorizationRequestOptions,
} from '@credo-ts/openid4vc'
import { InvalidStateError } from '@idplane/common'

import { X509CertificatesService } from '../x509/x509-certificates.service'
import { CredentialTemplateRepository } from './credential-template.record'

/** The verifier that asks wallets for the presentations an issuer's templates require: `issuance-<issuerId>`. */
export function issuanceVerifierId(issuerId: string): string {
  return `issuance-${issuerId}`
}

/**
 * Credo's hook for the authorization code flow with a presentation: when a wallet asks to be authorized for
 * templates of type `presentation`, the agent makes an OID4VP request for their DCQL query (the templates of one
 * offer share it) and grants their scopes once it is answered. The request is signed with the active verification
 * certificate when there is one, else unsigned (`redirect_uri` client identifier).
 */
export const verificationSessionForIssuance: OpenId4VciGetVerificationSession = async ({
  agentContext,
  issuanceSession,
  requestedCredentialConfigurations,
  scopes,
}) => {
  const templates = agentContext.resolve(CredentialTemplateRepository)
  const needing = []
  for (const configurationId of Object.keys(requestedCredentialConfigurations)) {
    const template = await templates.findById(agentContext, configurationId)
    if (template?.authorization.type === 'presentation' && scopes.includes(template.id)) needing.push(template)
  }
  const [first] = needing
  if (!first || first.authorization.type !== 'presentation') {
    throw new InvalidStateError('None of the requested credentials is authorized by a presentation')
  }
  const verifierId = await ensureVerifier(agentContext, issuanceVerifierId(issuanceSession.issuerId))
  const created = await agentContext.resolve(OpenId4VcVerifierApi).createAuthorizationRequest({
    verifierId,
    requestSigner: await requestSigner(agentContext),
    dcql: { query: first.authorization.dcql as never },
    responseMode: 'direct_post.jwt',
    version: 'v1',
  })
  return { ...created, scopes: needing.map((template) => template.id) }
}

async function ensureVerifier(agentContext: AgentContext, verifierId: string): Promise<string> {
  const existing = await agentContext
    .resolve(OpenId4VcVerifierRepository)
    .findSingleByQuery(agentContext, { verifierId })
  if (!existing) await agentContext.resolve(OpenId4VcVerifierApi).createVerifier({ verifierId })
  return verifierId
}

async function requestSigner(
  agentContext: AgentContext,
): Promise<OpenId4VpCreateAuthorizationRequestOptions['requestSigner']> {
  const certificates = agentContext.resolve(X509CertificatesService)
  const [active] = await certificates.list(agentContext, { purpose: 'verification', status: 'active' })
  if (!active) return { method: 'none' }
  return { method: 'x5c', x5c: certificates.signingChain(active), clientIdPrefix: 'x509_san_dns' }
}
