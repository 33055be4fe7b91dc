import type { HolderService } from './holder/holder.service'
import type { CredentialOffersService } from './issuer/credential-offers.service'
import type { CredentialTemplatesService } from './issuer/credential-templates.service'
import type { IssuersService } from './issuer/issuers.service'
import type { PresentationsService } from './verifier/presentations.service'
import type { VerificationTemplatesService } from './verifier/verification-templates.service'
import type { VerifiersService } from './verifier/verifiers.service'
import type { X509CertificatesService } from './x509/x509-certificates.service'

/**
 * The OpenID4VC services by name, registered by IdplaneOpenId4VcModule under this token. The admin API finds them
 * through it (and learns that OpenID4VC is off when it is not registered) without importing `@credo-ts/openid4vc`,
 * which an agent without AGENT_OPENID4VC never loads. Type-only imports above keep it so.
 */
export const OPENID4VC_SERVICES = Symbol('IdplaneOpenId4VcServices')

export interface OpenId4VcServices {
  readonly x509: X509CertificatesService
  readonly issuers: IssuersService
  readonly templates: CredentialTemplatesService
  readonly offers: CredentialOffersService
  readonly verifiers: VerifiersService
  readonly verificationTemplates: VerificationTemplatesService
  readonly presentations: PresentationsService
  readonly holder: HolderService
}
