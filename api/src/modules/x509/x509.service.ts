import { injectable } from 'inversify'
import { AgentClients } from '../../agent-client/agent-clients'
import type { CreateX509CertificateDto, ImportX509CertificateDto } from './dto/x509-certificate.dto'
import type { X509CertificateResponse } from './dto/x509-certificate.response'
import type { X509TrustAnchorDto } from './dto/x509-trust-anchor.dto'
import type { X509TrustAnchorResponse } from './dto/x509-trust-anchor.response'
import type { ListX509CertificatesQuery } from './dto/x509.query'
import { toX509CertificateResponse } from './x509.mapper'

/**
 * The organization's x509 certificates, kept by its agent (keys in the agent's KMS; agent/src/openid4vc/x509):
 * used to sign mdocs and SD-JWT VCs of x509 templates, and OID4VP requests (x509_san_dns). Nothing is stored
 * platform-side. Every method @throws NotFoundError when the organization has no agent, InvalidStateError while it
 * is not ready, NotImplementedError (501) when the agent runs without OpenID4VC, and UpstreamError when it fails.
 */
@injectable()
export class X509Service {
  public constructor(private readonly agents: AgentClients) {}

  /** @throws InvalidInputError, NotFoundError (issuer certificate), InvalidStateError (unusable issuer certificate) */
  public async create(orgId: string, body: CreateX509CertificateDto): Promise<X509CertificateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toX509CertificateResponse(await agent.createX509Certificate(body))
  }

  /** @throws InvalidInputError for text that is not a certificate or key, or a key of another certificate */
  public async import(orgId: string, body: ImportX509CertificateDto): Promise<X509CertificateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toX509CertificateResponse(await agent.importX509Certificate(body))
  }

  public async list(orgId: string, query: ListX509CertificatesQuery): Promise<X509CertificateResponse[]> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    const found = await agent.listX509Certificates({ purpose: query.purpose, status: query.status })
    return found.map(toX509CertificateResponse)
  }

  /** @throws NotFoundError */
  public async get(orgId: string, id: string): Promise<X509CertificateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toX509CertificateResponse(await agent.getX509Certificate(id))
  }

  /** @throws NotFoundError; InvalidStateError for an expired certificate */
  public async activate(orgId: string, id: string): Promise<X509CertificateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toX509CertificateResponse(await agent.activateX509Certificate(id))
  }

  /** @throws NotFoundError */
  public async deactivate(orgId: string, id: string): Promise<X509CertificateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toX509CertificateResponse(await agent.deactivateX509Certificate(id))
  }

  /**
   * Trusts a certificate for the organization's verifier: credentials signed by an x5c chain ending in it verify
   * (issue 29 item 6). The organization's own certificates need none.
   * @throws InvalidInputError for text that is not a certificate; ConflictError when it is trusted already
   */
  public async addTrustAnchor(orgId: string, body: X509TrustAnchorDto): Promise<X509TrustAnchorResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return agent.addTrustAnchor(body)
  }

  public async listTrustAnchors(orgId: string): Promise<X509TrustAnchorResponse[]> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return agent.listTrustAnchors()
  }

  /** @throws NotFoundError */
  public async removeTrustAnchor(orgId: string, trustAnchorId: string): Promise<{ id: string }> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return agent.removeTrustAnchor(trustAnchorId)
  }
}
