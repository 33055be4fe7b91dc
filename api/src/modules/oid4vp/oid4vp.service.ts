import { injectable } from 'inversify'
import type {
  PresentationRequestRequest,
  VerificationTemplateRequest,
} from '@idplane/common/agent-contract/openid4vc-api'
import { AgentClients } from '../../agent-client/agent-clients'
import type {
  CreatePresentationRequestDto,
  ListVerifierPresentationsQuery,
  VerificationTemplateDto,
} from './dto/presentation.dto'
import type { CreateOid4vpVerifierDto, UpdateOid4vpVerifierDto } from './dto/verifier.dto'
import type {
  CreatedPresentationRequestResponse,
  Oid4vpVerifierResponse,
  PresentationSessionResponse,
  VerificationTemplateResponse,
} from './dto/oid4vp.response'
import {
  toCreatedPresentationRequestResponse,
  toPresentationSessionResponse,
  toVerificationTemplateResponse,
  toVerifierResponse,
} from './oid4vp.mapper'

/**
 * OID4VP verification through the organization's agent (agent/src/openid4vc/verifier): verifiers, verification
 * templates, authorization requests and their sessions (Credo verifies the response when the wallet posts it; the
 * session then holds the disclosed claims). Every read is answered by the agent (the platform's verification
 * sessions, VerificationSessionRecords, only order the agent's events for the state events and webhooks). Every
 * method @throws NotFoundError when the organization has no agent (or the agent lacks the record),
 * InvalidStateError while it is not ready, InvalidInputError with the agent's fields, NotImplementedError (501) when
 * the agent runs without OpenID4VC and UpstreamError when it fails.
 */
@injectable()
export class Oid4vpService {
  public constructor(private readonly agents: AgentClients) {}

  /** @throws ConflictError for a verifier id in use */
  public async createVerifier(orgId: string, body: CreateOid4vpVerifierDto): Promise<Oid4vpVerifierResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    // Every field is optional: an empty body reaches here absent.
    return toVerifierResponse(await agent.createVerifier({ ...body }))
  }

  /** Every verifier, or the one named (a one-item list; NotFoundError when there is none). */
  public async listVerifiers(orgId: string, verifierId?: string): Promise<Oid4vpVerifierResponse[]> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    if (verifierId !== undefined) {
      return [toVerifierResponse(await agent.getVerifier(verifierId))]
    }
    return (await agent.listVerifiers()).map(toVerifierResponse)
  }

  public async updateVerifier(
    orgId: string,
    verifierId: string,
    body: UpdateOid4vpVerifierDto,
  ): Promise<Oid4vpVerifierResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return toVerifierResponse(await agent.updateVerifier(verifierId, { ...body }))
  }

  /** Its open requests can no longer be answered. */
  public async deleteVerifier(orgId: string, verifierId: string): Promise<void> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    await agent.deleteVerifier(verifierId)
  }

  /**
   * The request as a URI for a link or QR code (`openid4vp://?client_id=...&request_uri=...`).
   * @throws InvalidStateError when the signer cannot sign (no active verification certificate naming the host)
   */
  public async createPresentationRequest(
    orgId: string,
    body: CreatePresentationRequestDto,
  ): Promise<CreatedPresentationRequestResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    // The DTO checks shapes; the query itself (DCQL, PE v2) and HAIP's rules are the agent's to check.
    const request = body as PresentationRequestRequest
    return toCreatedPresentationRequestResponse(await agent.createPresentationRequest(request))
  }

  /** The sessions (oldest first), or the one named by `id`, with the disclosed claims of verified ones. */
  public async listPresentations(
    orgId: string,
    query: ListVerifierPresentationsQuery,
  ): Promise<PresentationSessionResponse[]> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    if (query.id !== undefined) {
      const session = await agent.getPresentation(query.id)
      const matches =
        (query.verifierId === undefined || session.verifierId === query.verifierId) &&
        (query.state === undefined || session.state === query.state)
      return matches ? [toPresentationSessionResponse(session)] : []
    }
    const sessions = await agent.listPresentations({ verifierId: query.verifierId, state: query.state })
    return sessions.map(toPresentationSessionResponse)
  }

  /** @throws ConflictError for a name in use */
  public async createVerificationTemplate(
    orgId: string,
    body: VerificationTemplateDto,
  ): Promise<VerificationTemplateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    const request = body as VerificationTemplateRequest
    return toVerificationTemplateResponse(await agent.createVerificationTemplate(request))
  }

  public async listVerificationTemplates(orgId: string): Promise<VerificationTemplateResponse[]> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    return (await agent.listVerificationTemplates()).map(toVerificationTemplateResponse)
  }

  /** PUT semantics: the whole template is given. @throws ConflictError for a name another template uses */
  public async replaceVerificationTemplate(
    orgId: string,
    templateId: string,
    body: VerificationTemplateDto,
  ): Promise<VerificationTemplateResponse> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    const request = body as VerificationTemplateRequest
    const json = await agent.replaceVerificationTemplate(templateId, request)
    return toVerificationTemplateResponse(json)
  }

  public async deleteVerificationTemplate(orgId: string, templateId: string): Promise<void> {
    const agent = await this.agents.openId4VcForOrg(orgId)
    await agent.deleteVerificationTemplate(templateId)
  }
}
