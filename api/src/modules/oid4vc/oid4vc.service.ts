import { injectable } from 'inversify'
import type {
  CredentialOfferRequest,
  CredentialTemplateRequest,
  UpdateCredentialTemplateRequest,
} from '@idplane/common/agent-contract/openid4vc-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type { CreateOid4vcOfferDto, ListOid4vcOffersQuery } from './dto/credential-offer.dto'
import type { CreateCredentialTemplateDto, UpdateCredentialTemplateDto } from './dto/credential-template.dto'
import type { CreateOid4vcIssuerDto, UpdateOid4vcIssuerDto } from './dto/issuer.dto'
import type {
  CreatedOid4vcOfferResponse,
  CredentialTemplateResponse,
  Oid4vcIssuerResponse,
  Oid4vcOfferResponse,
} from './dto/oid4vc.response'
import { toCreatedOfferResponse, toIssuerResponse, toOfferResponse, toTemplateResponse } from './oid4vc.mapper'

/**
 * OID4VCI issuance through the organization's agent (agent/src/openid4vc/issuer): issuers, credential templates
 * (the issuer's credential configurations) and offers (Credo's issuance sessions). The agent keeps the records and
 * checks the content; nothing is stored platform-side. Every method @throws NotFoundError when the organization has
 * no agent (or the agent lacks the record), InvalidStateError while the agent is not ready, InvalidInputError with
 * the agent's fields, NotImplementedError (501) when the agent runs without OpenID4VC, UpstreamError when it fails.
 */
@injectable()
export class Oid4vcService {
  public constructor(private readonly agents: AgentClients) {}

  /** @throws ConflictError for an issuer id in use */
  public async createIssuer(orgId: string, body: CreateOid4vcIssuerDto): Promise<Oid4vcIssuerResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    // Every field is optional: an empty body reaches here absent.
    return toIssuerResponse(await agent.createIssuer({ ...body }))
  }

  public async listIssuers(orgId: string): Promise<Oid4vcIssuerResponse[]> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return (await agent.listIssuers()).map(toIssuerResponse)
  }

  public async getIssuer(orgId: string, issuerId: string): Promise<Oid4vcIssuerResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toIssuerResponse(await agent.getIssuer(issuerId))
  }

  public async updateIssuer(
    orgId: string,
    issuerId: string,
    body: UpdateOid4vcIssuerDto,
  ): Promise<Oid4vcIssuerResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toIssuerResponse(await agent.updateIssuer(issuerId, { ...body }))
  }

  /** Removes the issuer and its templates; its offers no longer redeem. */
  public async deleteIssuer(orgId: string, issuerId: string): Promise<void> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    await agent.deleteIssuer(issuerId)
  }

  /** @throws ConflictError for a name the issuer already uses */
  public async createTemplate(
    orgId: string,
    issuerId: string,
    body: CreateCredentialTemplateDto,
  ): Promise<CredentialTemplateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    // The DTO checks shapes; the combinations (signer by format, type fields) are the agent's to check.
    const request = body as CredentialTemplateRequest
    return toTemplateResponse(await agent.createTemplate(issuerId, request))
  }

  public async listTemplates(orgId: string, issuerId: string): Promise<CredentialTemplateResponse[]> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return (await agent.listTemplates(issuerId)).map(toTemplateResponse)
  }

  public async getTemplate(orgId: string, issuerId: string, templateId: string): Promise<CredentialTemplateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toTemplateResponse(await agent.getTemplate(issuerId, templateId))
  }

  /** @throws ConflictError for a name another template of the issuer uses */
  public async updateTemplate(
    orgId: string,
    issuerId: string,
    templateId: string,
    body: UpdateCredentialTemplateDto,
  ): Promise<CredentialTemplateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    const changes = body as UpdateCredentialTemplateRequest
    const json = await agent.updateTemplate(issuerId, templateId, changes)
    return toTemplateResponse(json)
  }

  public async deleteTemplate(orgId: string, issuerId: string, templateId: string): Promise<void> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    await agent.deleteTemplate(issuerId, templateId)
  }

  /** The offer URI for the wallet, and the transaction code (only in this answer) when the offer asks for one. */
  public async createOffer(
    orgId: string,
    issuerId: string,
    body: CreateOid4vcOfferDto,
  ): Promise<CreatedOid4vcOfferResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    const request: CredentialOfferRequest = body
    return toCreatedOfferResponse(await agent.createOffer(issuerId, request))
  }

  public async listOffers(orgId: string, query: ListOid4vcOffersQuery): Promise<Oid4vcOfferResponse[]> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    const found = await agent.listOffers({ issuerId: query.issuerId, state: query.state })
    return found.map(toOfferResponse)
  }

  public async getOffer(orgId: string, offerId: string): Promise<Oid4vcOfferResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toOfferResponse(await agent.getOffer(offerId))
  }

  /** Its codes no longer redeem (the wallet gets `invalid_grant`). */
  public async deleteOffer(orgId: string, offerId: string): Promise<void> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    await agent.deleteOffer(offerId)
  }
}
