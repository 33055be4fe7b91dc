import type { IncomingMessage, ServerResponse } from 'node:http'

import {
  type AgentContext,
  type DependencyManager,
  Mdoc,
  MdocService,
  type Module,
  X509ModuleConfig,
} from '@credo-ts/core'
import {
  OpenId4VcModule,
  type OpenId4VcIssuerModuleConfigOptions,
  type OpenId4VcVerifierModuleConfigOptions,
} from '@credo-ts/openid4vc'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'

import { HolderService } from './holder/holder.service'
import { PendingAuthorizationRequestRepository } from './holder/pending-request.record'
import { mapCredentialRequest } from './issuer/credential-issuance'
import { CredentialOffersService } from './issuer/credential-offers.service'
import { CredentialTemplateRepository } from './issuer/credential-template.record'
import { CredentialTemplatesService } from './issuer/credential-templates.service'
import { StatusListMdocService } from './issuer/mdoc-status'
import { IssuerRecordRepository } from './issuer/issuer-record.repository'
import { IssuersService } from './issuer/issuers.service'
import { TxCodeAttempts } from './issuer/tx-code-attempts'
import { verificationSessionForIssuance } from './issuer/presentation-authorization'
import { checkMdocStatus } from './verifier/mdoc-status-check'
import { PresentationsService } from './verifier/presentations.service'
import { VerificationTemplateRepository } from './verifier/verification-template.record'
import { VerificationTemplatesService } from './verifier/verification-templates.service'
import { VerifiersService } from './verifier/verifiers.service'
import { OPENID4VC_SERVICES, type OpenId4VcServices } from './openid4vc-services'
import { X509CertificateRepository } from './x509/x509-certificate.record'
import { X509CertificatesService } from './x509/x509-certificates.service'
import { X509TrustAnchorRepository } from './x509/x509-trust-anchor.record'

type Constructor = new (...args: never[]) => unknown

/**
 * Largest body the public endpoints read: authorization responses carry presentations (an mdoc device response,
 * several SD-JWTs, or a JWE of them), above body-parser's 100 kB default.
 * @default '1mb'
 */
const PUBLIC_BODY_LIMIT = '1mb'

/** Path prefixes of the public endpoints on the inbound port, under the agent's endpoint. */
export const OPENID4VCI_PATH = '/oid4vci'
export const OPENID4VP_PATH = '/oid4vp'

export interface OpenId4VcAgentOptions {
  /** The agent's public base URL (AGENT_ENDPOINT): issuers are served under `<base>/oid4vci`, verifiers `<base>/oid4vp`. */
  publicBaseUrl: string
}

/**
 * OpenID4VC and x509 for an agent (AGENT_OPENID4VC): Credo's OpenId4VcModule with issuer, verifier and holder,
 * our credential mapper (templates), the presentation-during-issuance hook, the x509 certificates and trust
 * anchors (also what Credo trusts when it verifies, per agent context), and the service layer the admin API uses.
 * The public endpoints (issuer metadata, token, credential, nonce, authorization requests and responses) are an
 * Express app the inbound port hands every request to that is not DIDComm (`handlePublicRequest`).
 */
export class IdplaneOpenId4VcModule implements Module {
  public readonly credo: OpenId4VcModule<OpenId4VcIssuerModuleConfigOptions, OpenId4VcVerifierModuleConfigOptions>
  private readonly app: Express

  public constructor(options: OpenId4VcAgentOptions) {
    const base = options.publicBaseUrl.replace(/\/+$/, '')
    this.app = express()
    this.app.disable('x-powered-by')
    // Bodies are read here, before Credo's routers (which then leave them): a body that cannot be read is a JSON 400
    // or 413 rather than Credo failing on a request it has not correlated yet.
    this.app.use(
      express.json({ limit: PUBLIC_BODY_LIMIT }),
      express.urlencoded({ extended: false, limit: PUBLIC_BODY_LIMIT }),
    )
    this.app.use(answerUnreadableBody)
    // Before Credo's token endpoint: a pre-authorized offer ends after a few wrong transaction codes.
    this.app.post(`${OPENID4VCI_PATH}/:issuerId/token`, new TxCodeAttempts().guard)
    // Credo's routers expect an issuer or verifier id after their base path.
    this.app.all([OPENID4VCI_PATH, `${OPENID4VCI_PATH}/`, OPENID4VP_PATH, `${OPENID4VP_PATH}/`], answerNotFound)
    this.credo = new OpenId4VcModule({
      app: this.app,
      issuer: {
        baseUrl: `${base}${OPENID4VCI_PATH}`,
        credentialRequestToCredentialMapper: mapCredentialRequest,
        getVerificationSession: verificationSessionForIssuance,
      },
      verifier: { baseUrl: `${base}${OPENID4VP_PATH}` },
    })
  }

  public register(dependencyManager: DependencyManager): void {
    this.credo.register(dependencyManager)
    const singletons: Constructor[] = [
      X509CertificateRepository,
      X509TrustAnchorRepository,
      IssuerRecordRepository,
      CredentialTemplateRepository,
      VerificationTemplateRepository,
      PendingAuthorizationRequestRepository,
      X509CertificatesService,
      IssuersService,
      CredentialTemplatesService,
      CredentialOffersService,
      VerifiersService,
      VerificationTemplatesService,
      PresentationsService,
      HolderService,
    ]
    for (const singleton of singletons) dependencyManager.registerSingleton(singleton)
    // Over Credo's own (registered before this module): mdocs with a status in their MSO.
    dependencyManager.registerSingleton(MdocService, StatusListMdocService)
    // Resolved on first use: the singletons above, shared by the root agent and its tenants.
    const services: OpenId4VcServices = {
      get x509() {
        return dependencyManager.resolve(X509CertificatesService)
      },
      get issuers() {
        return dependencyManager.resolve(IssuersService)
      },
      get templates() {
        return dependencyManager.resolve(CredentialTemplatesService)
      },
      get offers() {
        return dependencyManager.resolve(CredentialOffersService)
      },
      get verifiers() {
        return dependencyManager.resolve(VerifiersService)
      },
      get verificationTemplates() {
        return dependencyManager.resolve(VerificationTemplatesService)
      },
      get presentations() {
        return dependencyManager.resolve(PresentationsService)
      },
      get holder() {
        return dependencyManager.resolve(HolderService)
      },
    }
    dependencyManager.registerInstance(OPENID4VC_SERVICES, services)
    dependencyManager
      .resolve(X509ModuleConfig)
      .setTrustedCertificatesForVerification(async (agentContext: AgentContext, { verification }) => {
        const trusted = await agentContext.resolve(X509CertificatesService).trustedCertificates(agentContext)
        // An mdoc presented to one of our verifiers: its status too (Credo checks it only for SD-JWT VCs). Thrown
        // here, the reason ends the verification session as Credo's own refusals do.
        if (
          verification.type === 'credential' &&
          verification.openId4VcVerificationSessionId !== undefined &&
          verification.credential instanceof Mdoc
        )
          await checkMdocStatus(agentContext, verification.credential, trusted)
        return trusted
      })
  }

  public async initialize(rootAgentContext: AgentContext): Promise<void> {
    await this.credo.initialize(rootAgentContext)
    // After Credo's routes. Credo's routers call next() after answering (to end the agent session), so a request
    // may arrive here answered: it is left alone, since Express's final handler would destroy the kept-alive socket.
    this.app.use((req: Request, res: Response) => {
      if (!res.headersSent) answerNotFound(req, res)
    })
    this.app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      if (res.headersSent) return
      res.status(500).json({ error: 'server_error', error_description: 'An unexpected error occurred on the server.' })
    })
  }

  /** The inbound port's handler for requests that are not DIDComm. */
  public readonly handlePublicRequest = (req: IncomingMessage, res: ServerResponse): void => {
    this.app(req as Request, res as Response)
  }
}

function answerNotFound(_req: Request, res: Response): void {
  res.status(404).json({ error: 'not_found', error_description: 'Not found' })
}

/** Body-parser errors carry the status they mean (400 malformed, 413 too large, 415 charset). */
function answerUnreadableBody(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status !== 'number' || status < 400 || status >= 500) return next(error)
  res.status(status).json({
    error: 'invalid_request',
    error_description: status === 413 ? 'The request body is too large' : 'The request body could not be read',
  })
}
