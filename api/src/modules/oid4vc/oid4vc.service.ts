import { injectable } from 'inversify'
import { InvalidInputError, InvalidStateError } from '@idplane/common'
import type {
  CredentialOfferRequest,
  CredentialTemplateRequest,
  UpdateCredentialTemplateRequest,
} from '@idplane/common/agent-contract/openid4vc-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type { OpenId4VcAgentClient } from '../../agent-client/openid4vc-agent-client'
import { CredentialsRepository } from '../credentials/credentials.repository'
import { StatusLists, TOKEN_PROOF_TYPE, x5cSigner } from '../status-lists/status-lists.service'
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
 * checks the content, and every read is answered from there (the platform's issuance sessions,
 * IssuanceSessionRecords, only order the agent's events for the state events and webhooks). Every method @throws
 * NotFoundError when the organization has no agent (or the agent lacks the record), InvalidStateError while the
 * agent is not ready, InvalidInputError with the agent's fields, NotImplementedError (501) when the agent runs
 * without OpenID4VC, UpstreamError when it fails.
 */
@injectable()
export class Oid4vcService {
  public constructor(
    private readonly agents: AgentClients,
    private readonly statusLists: StatusLists,
    private readonly records: CredentialsRepository,
  ) {}

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

  /**
   * The offer URI for the wallet, and the transaction code (only in this answer) when the offer asks for one. A
   * credential asking for a `status` gets a Token Status List entry (an index of the organization's list of its
   * signer and purpose) and the offer an issuance record, which the revoke route changes by the offer id.
   * @throws InvalidInputError for a status on an offer of more than one credential, or on a jwt_vc_json template
   *   (Credo 0.6.3 signs W3C JWT VCs without a status)
   */
  public async createOffer(
    orgId: string,
    issuerId: string,
    body: CreateOid4vcOfferDto,
  ): Promise<CreatedOid4vcOfferResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    const withStatus = body.credentials.findIndex((entry) => entry.status !== undefined)
    if (withStatus < 0) {
      const request: CredentialOfferRequest = {
        ...body,
        credentials: body.credentials.map(({ templateId, claims }) => ({ templateId, claims })),
      }
      return toCreatedOfferResponse(await agent.createOffer(issuerId, request))
    }
    // One record per offer id holds one entry: the revoke route then names exactly the credential it changes.
    if (body.credentials.length > 1)
      throw new InvalidInputError('An offer with a status carries one credential', [
        { field: 'credentials', message: 'must list one credential when it asks for a status' },
      ])
    const [{ templateId, claims, status }] = body.credentials
    const purpose = status?.purpose ?? 'revocation'
    const template = await agent.getTemplate(issuerId, templateId)
    if (template.format !== 'dc+sd-jwt' && template.format !== 'mso_mdoc')
      throw new InvalidInputError(`A status is only for dc+sd-jwt and mso_mdoc credentials, not ${template.format}`, [
        {
          field: `credentials[${withStatus}].status`,
          message: `not implemented for ${template.format}: Credo 0.6.3 signs a W3C JWT VC without a status`,
        },
      ])
    // An x5c template's list (an mdoc's always) is the active issuance certificate's: the agent signs the credential with that one
    // (refusing it if another is active by redemption), and the list keeps being signed by it after a rotation.
    // One entry per copy the issuer may hand out for this offer (batch issuance: one per holder key), so copies
    // cannot be linked by their status; the wallet may take fewer.
    const [certificateId, issuer] = await Promise.all([
      template.signer.method === 'x5c' ? this.activeIssuanceCertificate(agent) : undefined,
      agent.getIssuer(issuerId),
    ])
    const signer = template.signer.method === 'did' ? template.signer.did : x5cSigner(certificateId as string)
    const copies = Math.max(1, issuer.batchSize ?? 1)
    const allocation = await this.statusLists.allocateCopies(orgId, signer, TOKEN_PROOF_TYPE, purpose, 'token', copies)
    const uri = this.statusLists.urlOf(allocation.statusListId)
    const { copyIndices } = allocation
    const created = await agent.createOffer(issuerId, {
      ...body,
      credentials: [
        {
          templateId,
          claims,
          status: {
            idx: allocation.index,
            uri,
            ...(copyIndices.length > 0 ? { copyIdx: copyIndices } : {}),
            ...(certificateId ? { certificateId } : {}),
          },
        },
      ],
    })
    try {
      await this.records.addOpenId4VcOffer(orgId, {
        credentialRecordId: created.id,
        credentialType: template.format === 'mso_mdoc' ? 'MDOC' : 'SD_JWT',
        state: created.state,
        statusListId: allocation.statusListId,
        statusListIndex: allocation.index,
        statusListCopyIndices: copyIndices.length > 0 ? copyIndices : null,
        statusPurpose: purpose,
        agentUpdatedAt: new Date(created.updatedAt ?? created.createdAt),
      })
    } catch (error) {
      // Without its record the credential could never be revoked: withdraw the offer rather than hand it out.
      await agent.deleteOffer(created.id).catch(() => undefined)
      throw error
    }
    return {
      ...toCreatedOfferResponse(created),
      status: {
        purpose,
        statusListId: allocation.statusListId,
        idx: allocation.index,
        ...(copyIndices.length > 0 ? { copyIdx: copyIndices } : {}),
        uri,
      },
    }
  }

  /** @throws InvalidStateError when the organization has no active issuance certificate */
  private async activeIssuanceCertificate(agent: OpenId4VcAgentClient): Promise<string> {
    const [active] = await agent.listX509Certificates({ purpose: 'issuance', status: 'active' })
    if (!active) throw new InvalidStateError('The organization has no active x509 certificate for issuance')
    return active.id
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
