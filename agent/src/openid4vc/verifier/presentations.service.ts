import { type AgentContext, CredoError, DidsApi, injectable, type VerifiablePresentation } from '@credo-ts/core'
import {
  type OpenId4VcVerificationSessionRecord,
  OpenId4VcVerificationSessionRepository,
  OpenId4VcVerificationSessionState,
  OpenId4VcVerifierApi,
  type OpenId4VpCreateAuthorizationRequestOptions,
} from '@credo-ts/openid4vc'
import { InvalidInputError, InvalidStateError, NotFoundError } from '@idplane/common'

import { X509CertificatesService } from '../x509/x509-certificates.service'
import {
  checkPresentationRequestOptions,
  type PresentationRequestOptions,
  REQUEST_EXPIRY_BOUNDS,
} from './presentation-request-input'
import { VerificationTemplatesService } from './verification-templates.service'
import type { RequestSigner } from './verification-template.record'
import { type DisclosedCredential, disclosedCredentials } from './verified-claims'
import { VerifiersService } from './verifiers.service'

export type PresentationRequestInput = { verifierId: string; expiresInSeconds?: number } & (
  | { templateId: string }
  | ({ templateId?: undefined } & PresentationRequestOptions)
)

export interface CreatedPresentationRequest {
  session: OpenId4VcVerificationSessionRecord
  /** The request as a URI for a QR code or a link (`openid4vp://?client_id=...&request_uri=...`). */
  requestUri: string
}

export interface PresentationResult {
  session: OpenId4VcVerificationSessionRecord
  /** Present once the response is verified. */
  disclosed?: DisclosedCredential[]
}

/**
 * OID4VP presentation requests and their sessions. Credo verifies a response when the wallet posts it to the
 * verifier's response endpoint (signature, holder binding, nonce, audience, and the query); the session then ends
 * `ResponseVerified` or `Error` with the reason.
 */
@injectable()
export class PresentationsService {
  public constructor(
    private readonly verifiers: VerifiersService,
    private readonly templates: VerificationTemplatesService,
    private readonly certificates: X509CertificatesService,
    private readonly sessions: OpenId4VcVerificationSessionRepository,
  ) {}

  /**
   * @throws {NotFoundError} for an unknown verifier or template
   * @throws {InvalidInputError} for a bad query or option
   * @throws {InvalidStateError} when the signer cannot sign (no active verification certificate, or one whose DNS
   *   names do not include the verifier's host)
   */
  public async createRequest(
    agentContext: AgentContext,
    input: PresentationRequestInput,
  ): Promise<CreatedPresentationRequest> {
    await this.verifiers.get(agentContext, input.verifierId)
    const options =
      input.templateId !== undefined
        ? await this.templates.get(agentContext, input.templateId)
        : checkPresentationRequestOptions(agentContext, input)
    const { expiresInSeconds } = input
    if (
      expiresInSeconds !== undefined &&
      !(
        Number.isInteger(expiresInSeconds) &&
        expiresInSeconds >= REQUEST_EXPIRY_BOUNDS.min &&
        expiresInSeconds <= REQUEST_EXPIRY_BOUNDS.max
      )
    ) {
      throw new InvalidInputError('Invalid presentation request', [
        {
          field: 'expiresInSeconds',
          message: `must be a whole number from ${REQUEST_EXPIRY_BOUNDS.min} to ${REQUEST_EXPIRY_BOUNDS.max}`,
        },
      ])
    }
    const requestSigner = await this.requestSignerFor(agentContext, options.signer, options.isHaip === true)
    try {
      const { authorizationRequest, verificationSession } = await agentContext
        .resolve(OpenId4VcVerifierApi)
        .createAuthorizationRequest({
          verifierId: input.verifierId,
          requestSigner,
          ...(options.query.type === 'dcql'
            ? { dcql: { query: options.query.dcql as never } }
            : { presentationExchange: { definition: options.query.definition as never } }),
          responseMode: options.responseMode ?? 'direct_post.jwt',
          // Presentation Exchange is not part of OpenID4VP 1.0; Credo offers it with draft 24.
          version: options.query.type === 'dcql' ? 'v1' : 'v1.draft24',
          expirationInSeconds: expiresInSeconds,
        })
      return { session: verificationSession, requestUri: authorizationRequest }
    } catch (error) {
      // Credo refuses an x509_san_dns signer whose certificate does not name the response URL's host.
      if (error instanceof CredoError && /SAN-DNS|san dns|x509/i.test(error.message)) {
        throw new InvalidStateError(`The verification certificate cannot sign this request: ${error.message}`, {
          cause: error,
        })
      }
      throw error
    }
  }

  public async list(
    agentContext: AgentContext,
    filter: { verifierId?: string; state?: OpenId4VcVerificationSessionState } = {},
  ): Promise<OpenId4VcVerificationSessionRecord[]> {
    const query = {
      ...(filter.verifierId ? { verifierId: filter.verifierId } : {}),
      ...(filter.state ? { state: filter.state } : {}),
    }
    const records = await this.sessions.findByQuery(agentContext, query)
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /**
   * The session, with what was disclosed once the response is verified.
   * @throws {NotFoundError}
   */
  public async get(agentContext: AgentContext, sessionId: string): Promise<PresentationResult> {
    const session = await this.sessions.findById(agentContext, sessionId)
    if (!session) throw new NotFoundError('Presentation session not found')
    if (session.state !== OpenId4VcVerificationSessionState.ResponseVerified) return { session }
    const verified = await agentContext.resolve(OpenId4VcVerifierApi).getVerifiedAuthorizationResponse(session.id)
    const presentations: Record<string, VerifiablePresentation[]> = {}
    if (verified.dcql)
      for (const [queryId, list] of Object.entries(verified.dcql.presentations)) presentations[queryId] = list
    if (verified.presentationExchange) {
      for (const entry of verified.presentationExchange.descriptors) {
        presentations[entry.descriptor.id] = [...(presentations[entry.descriptor.id] ?? []), entry.presentation]
      }
    }
    return { session, disclosed: disclosedCredentials(presentations) }
  }

  /** @throws {NotFoundError} */
  public async delete(agentContext: AgentContext, sessionId: string): Promise<void> {
    const session = await this.sessions.findById(agentContext, sessionId)
    if (!session) throw new NotFoundError('Presentation session not found')
    await this.sessions.delete(agentContext, session)
  }

  private async requestSignerFor(
    agentContext: AgentContext,
    signer: RequestSigner | undefined,
    isHaip: boolean,
  ): Promise<OpenId4VpCreateAuthorizationRequestOptions['requestSigner']> {
    if (signer?.method === 'did') {
      return { method: 'did', didUrl: await signingMethodOf(agentContext, signer.did) }
    }
    const active = await this.certificates.list(agentContext, { purpose: 'verification', status: 'active' })
    if (active.length === 0) {
      throw new InvalidStateError(
        signer === undefined
          ? 'Name a signer: the organization has no active x509 certificate for verification'
          : 'The organization has no active x509 certificate for verification',
      )
    }
    const x5c = this.certificates.signingChain(active[0])
    return { method: 'x5c', x5c, clientIdPrefix: isHaip ? 'x509_hash' : 'x509_san_dns' }
  }
}

/** The DID's first authentication method (else its first assertion method): its key signs the request. */
async function signingMethodOf(agentContext: AgentContext, did: string): Promise<string> {
  const [created] = await agentContext.resolve(DidsApi).getCreatedDids({ did })
  if (!created)
    throw new InvalidInputError('Unknown signing DID', [
      { field: 'signer.did', message: 'must be a DID this organization created' },
    ])
  const document = created.didDocument ?? (await agentContext.resolve(DidsApi).resolveDidDocument(did))
  const [first] = document.authentication ?? document.assertionMethod ?? []
  if (first === undefined) throw new InvalidStateError('The signing DID has no authentication or assertion method')
  return typeof first === 'string' ? document.dereferenceKey(first).id : first.id
}
