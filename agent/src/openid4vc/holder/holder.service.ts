import {
  type AgentContext,
  DcqlService,
  DidsApi,
  DifPresentationExchangeService,
  injectable,
  Kms,
  MdocRecord,
  MdocRepository,
  SdJwtVcRecord,
  SdJwtVcRepository,
  W3cCredentialRecord,
  W3cCredentialRepository,
} from '@credo-ts/core'
import {
  getScopesFromCredentialConfigurationsSupported,
  OpenId4VciAuthorizationFlow,
  type OpenId4VciCredentialBindingResolver,
  type OpenId4VciRequestTokenResponse,
  type OpenId4VciResolvedCredentialOffer,
  OpenId4VcHolderApi,
  type OpenId4VpResolvedAuthorizationRequest,
  preAuthorizedCodeGrantIdentifier,
} from '@credo-ts/openid4vc'
import { IdplaneError, InvalidInputError, InvalidStateError, NotFoundError, UpstreamError } from '@idplane/common'

import type { X509KeyType } from '../x509/x509-certificate.record'
import { type CredentialSelection, selectDcqlCredentials } from './dcql-selection'
import {
  describeRecord,
  type HeldCredential,
  type OfferSummary,
  type RequestSummary,
  summarizeOffer,
  summarizeRequest,
} from './holder-views'
import { PendingAuthorizationRequestRecord, PendingAuthorizationRequestRepository } from './pending-request.record'

/** The wallet's OAuth 2 client id at issuers' authorization servers (public client, PKCE). */
const WALLET_CLIENT_ID = 'idplane-wallet'
/** Never opened: the presentation-based authorization returns the code directly, not by redirect. */
const WALLET_REDIRECT_URI = 'https://wallet.idplane.invalid/authorized'

/** How long a resolved request without `exp` waits for the holder's answer. */
const PENDING_REQUEST_TTL_MS = 10 * 60 * 1000

/** Most credentials of one configuration the holder asks for at once (bounded by the issuer's batch size). */
export const MAX_HOLDER_BATCH = 10

export interface AcceptOfferInput {
  offerUri: string
  /** Pre-authorized offers that ask for one. */
  txCode?: string
  /** Offers authorized by a presentation: the holder's choice for the issuer's request (else chosen automatically). */
  presentation?: { selections?: Record<string, CredentialSelection> }
  /** @default every offered configuration */
  configurationIds?: string[]
  /** Key type of the holder keys the credentials are bound to. @default 'P-256' */
  keyType?: X509KeyType
  /** Credentials per configuration (each bound to its own key); at most the issuer's batch size. @default 1 */
  batchSize?: number
}

export interface AcceptRequestInput {
  /** A request kept by `resolveRequest`. */
  requestId?: string
  /** A request to fetch and answer at once (no consent step). */
  requestUri?: string
  /** Per query id, which credential to present and which requested claims to withhold; the rest chosen automatically. */
  selections?: Record<string, CredentialSelection>
}

/**
 * The wallet side of OID4VC over Credo's holder module, for the cloud wallet (tenant contexts) and tests: resolve and
 * accept credential offers (pre-authorized, with the transaction code), keep the credentials, resolve authorization
 * requests and answer them with the credentials and claims the holder chooses.
 */
@injectable()
export class HolderService {
  public constructor(
    private readonly sdJwtVcs: SdJwtVcRepository,
    private readonly mdocs: MdocRepository,
    private readonly w3cCredentials: W3cCredentialRepository,
    private readonly pending: PendingAuthorizationRequestRepository,
  ) {}

  /** @throws {InvalidInputError} for an offer that cannot be fetched or parsed */
  public async resolveOffer(agentContext: AgentContext, offerUri: string): Promise<OfferSummary> {
    return summarizeOffer(await this.resolve(agentContext, offerUri))
  }

  /**
   * Redeems an offer, pre-authorized (with its transaction code) or authorized by a presentation the wallet makes, and
   * stores the credentials (verified by Credo on receipt: signature and, for x509-signed ones, a chain to a trust
   * anchor of this context).
   * @throws {InvalidInputError} for a bad offer or transaction code
   * @throws {InvalidStateError} for an offer that needs a web login at the issuer (no browser here)
   * @throws {UpstreamError} when the issuer refuses the credential request or sends credentials that do not verify
   */
  public async acceptOffer(agentContext: AgentContext, input: AcceptOfferInput): Promise<HeldCredential[]> {
    const resolved = await this.resolve(agentContext, input.offerUri)
    const batchSize = input.batchSize ?? 1
    if (!(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= MAX_HOLDER_BATCH)) {
      throw new InvalidInputError('Invalid batch size', [
        { field: 'batchSize', message: `must be a whole number from 1 to ${MAX_HOLDER_BATCH}` },
      ])
    }
    const token = resolved.credentialOfferPayload.grants?.[preAuthorizedCodeGrantIdentifier]
      ? await this.preAuthorizedToken(agentContext, resolved, input.txCode)
      : await this.tokenAfterPresentation(agentContext, resolved, input.presentation ?? {})
    const response = await agentContext
      .resolve(OpenId4VcHolderApi)
      .requestCredentials({
        resolvedCredentialOffer: resolved,
        ...token,
        clientId: WALLET_CLIENT_ID,
        credentialConfigurationIds: input.configurationIds,
        credentialBindingResolver: bindingResolver(input.keyType ?? 'P-256', batchSize),
      })
      .catch((error: unknown) => {
        if (error instanceof IdplaneError) throw error
        // The issuer refused the request, or sent credentials the wallet cannot verify (signature, an x509 chain
        // to none of its trust anchors).
        throw new UpstreamError(`The credentials could not be received: ${messageOf(error)}`, { cause: error })
      })
    const held: HeldCredential[] = []
    for (const { record } of response.credentials) held.push(describeRecord(await this.store(agentContext, record)))
    return held
  }

  private async preAuthorizedToken(
    agentContext: AgentContext,
    resolved: OpenId4VciResolvedCredentialOffer,
    txCode: string | undefined,
  ): Promise<OpenId4VciRequestTokenResponse> {
    const grant = resolved.credentialOfferPayload.grants?.[preAuthorizedCodeGrantIdentifier]
    if (grant?.tx_code && !txCode) {
      throw new InvalidInputError('The offer needs a transaction code', [
        { field: 'txCode', message: 'is required by this offer' },
      ])
    }
    try {
      return await agentContext.resolve(OpenId4VcHolderApi).requestToken({ resolvedCredentialOffer: resolved, txCode })
    } catch (error) {
      throw new InvalidInputError(`The issuer refused the token request: ${messageOf(error)}`, [
        { field: txCode ? 'txCode' : 'offerUri', message: 'was refused by the issuer' },
      ])
    }
  }

  /**
   * The authorization code flow where the issuer authorizes by a presentation (its authorization challenge
   * endpoint): the wallet answers the issuer's OID4VP request with the holder's selections, then redeems the code.
   * An issuer that sends the holder to a web login instead needs a browser, which this wallet does not have.
   */
  private async tokenAfterPresentation(
    agentContext: AgentContext,
    resolved: OpenId4VciResolvedCredentialOffer,
    presentation: { selections?: Record<string, CredentialSelection> },
  ): Promise<OpenId4VciRequestTokenResponse> {
    const holder = agentContext.resolve(OpenId4VcHolderApi)
    const authorization = await holder.resolveOpenId4VciAuthorizationRequest(resolved, {
      clientId: WALLET_CLIENT_ID,
      redirectUri: WALLET_REDIRECT_URI,
      scope: getScopesFromCredentialConfigurationsSupported(resolved.offeredCredentialConfigurations),
    })
    if (authorization.authorizationFlow !== OpenId4VciAuthorizationFlow.PresentationDuringIssuance) {
      throw new InvalidStateError(
        'This offer needs a login at the issuer in a browser; the wallet cannot accept it here',
      )
    }
    const answered = await this.answerRequest(agentContext, {
      payload: (await this.resolveAuthorizationRequest(agentContext, authorization.openid4vpRequestUrl))
        .authorizationRequestPayload as Record<string, unknown>,
      selections: presentation.selections,
    })
    const { authorizationCode } = await holder.retrieveAuthorizationCodeUsingPresentation({
      authSession: authorization.authSession,
      resolvedCredentialOffer: resolved,
      presentationDuringIssuanceSession: answered.presentationDuringIssuanceSession,
    })
    return holder.requestToken({
      resolvedCredentialOffer: resolved,
      code: authorizationCode,
      clientId: WALLET_CLIENT_ID,
      redirectUri: WALLET_REDIRECT_URI,
    })
  }

  public async listCredentials(agentContext: AgentContext): Promise<HeldCredential[]> {
    const records = [
      ...(await this.sdJwtVcs.getAll(agentContext)),
      ...(await this.mdocs.getAll(agentContext)),
      ...(await this.w3cCredentials.getAll(agentContext)),
    ]
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map(describeRecord)
  }

  /**
   * Fetches and verifies an authorization request and keeps it for the holder's answer (a verifier serves its request
   * object once): the summary's `requestId` names it in `acceptRequest`.
   * @throws {InvalidInputError} for a request that cannot be fetched, verified or parsed
   */
  public async resolveRequest(
    agentContext: AgentContext,
    requestUri: string,
  ): Promise<RequestSummary & { requestId: string; expiresAt: string }> {
    const resolved = await this.resolveAuthorizationRequest(agentContext, requestUri)
    const summary = summarizeRequest(resolved)
    const payload = resolved.authorizationRequestPayload as Record<string, unknown>
    const expiresAt =
      typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : new Date(Date.now() + PENDING_REQUEST_TTL_MS)
    const pending = new PendingAuthorizationRequestRecord({
      payload,
      verifier: summary.verifier,
      expiresAt: expiresAt.toISOString(),
    })
    await this.pending.save(agentContext, pending)
    return { requestId: pending.id, expiresAt: pending.expiresAt, ...summary }
  }

  /**
   * Answers an authorization request with the chosen credentials and claims (DCQL; Presentation Exchange requests
   * are answered with Credo's automatic choice); the verifier's answer decides. The request is one kept by
   * `resolveRequest` (`requestId`), or fetched now (`requestUri`).
   * @throws {NotFoundError} for an unknown request id
   * @throws {InvalidInputError} for a bad request or selection
   * @throws {InvalidStateError} when the request expired, the wallet cannot answer it, or the verifier refused the response
   */
  public async acceptRequest(
    agentContext: AgentContext,
    input: AcceptRequestInput,
  ): Promise<{ status: number; redirectUri?: string }> {
    const { payload, pending } = await this.requestToAnswer(agentContext, input)
    let result: Answered
    try {
      result = await this.answerRequest(agentContext, { payload, selections: input.selections })
    } catch (error) {
      // A selection refused before anything was sent keeps the request: the holder may correct it and answer again.
      if (pending && !(error instanceof InvalidInputError)) await this.pending.delete(agentContext, pending)
      throw error
    }
    // One answer per request: a verifier takes a response once.
    if (pending) await this.pending.delete(agentContext, pending)
    return { status: result.status, ...(result.redirectUri ? { redirectUri: result.redirectUri } : {}) }
  }

  private async answerRequest(
    agentContext: AgentContext,
    input: { payload: Record<string, unknown>; selections?: Record<string, CredentialSelection> },
  ): Promise<Answered> {
    const { payload, selections } = input
    const holder = agentContext.resolve(OpenId4VcHolderApi)
    const dcqlQuery = payload.dcql_query
    if (dcqlQuery !== undefined) {
      const queryResult = await agentContext
        .resolve(DcqlService)
        .getCredentialsForRequest(agentContext, dcqlQuery as never)
      const credentials = selectDcqlCredentials(queryResult, selections ?? {}, (result) =>
        holder.selectCredentialsForDcqlRequest(result),
      )
      return answered(
        await holder.acceptOpenId4VpAuthorizationRequest({
          authorizationRequestPayload: payload as never,
          dcql: { credentials },
        }),
      )
    }
    if (selections) {
      throw new InvalidInputError('Selections apply to DCQL requests', [
        { field: 'selections', message: 'only for DCQL requests' },
      ])
    }
    const forRequest = await agentContext
      .resolve(DifPresentationExchangeService)
      .getCredentialsForRequest(agentContext, payload.presentation_definition as never)
    if (!forRequest.areRequirementsSatisfied) {
      throw new InvalidStateError('The wallet holds no credentials answering this request')
    }
    const credentials = holder.selectCredentialsForPresentationExchangeRequest(forRequest)
    return answered(
      await holder.acceptOpenId4VpAuthorizationRequest({
        authorizationRequestPayload: payload as never,
        presentationExchange: { credentials },
      }),
    )
  }

  private async requestToAnswer(
    agentContext: AgentContext,
    input: AcceptRequestInput,
  ): Promise<{ payload: Record<string, unknown>; pending?: PendingAuthorizationRequestRecord }> {
    if (input.requestId !== undefined) {
      const pending = await this.pending.findById(agentContext, input.requestId)
      if (!pending) throw new NotFoundError('Authorization request not found')
      if (new Date(pending.expiresAt).getTime() <= Date.now()) {
        await this.pending.delete(agentContext, pending)
        throw new InvalidStateError('The authorization request has expired')
      }
      return { payload: pending.payload, pending }
    }
    if (input.requestUri === undefined) {
      throw new InvalidInputError('Name the request', [
        { field: 'requestId', message: 'requestId or requestUri is required' },
      ])
    }
    const resolved = await this.resolveAuthorizationRequest(agentContext, input.requestUri)
    return { payload: resolved.authorizationRequestPayload as Record<string, unknown> }
  }

  /** @throws {NotFoundError} */
  public async deleteCredential(agentContext: AgentContext, credentialId: string): Promise<void> {
    for (const repository of [this.sdJwtVcs, this.mdocs, this.w3cCredentials] as const) {
      const record = await repository.findById(agentContext, credentialId)
      if (record) {
        await repository.deleteById(agentContext, credentialId)
        return
      }
    }
    throw new NotFoundError('Credential not found')
  }

  private async resolve(agentContext: AgentContext, offerUri: string): Promise<OpenId4VciResolvedCredentialOffer> {
    if (typeof offerUri !== 'string' || offerUri.length === 0 || offerUri.length > 64 * 1024) {
      throw new InvalidInputError('Invalid offer', [{ field: 'offerUri', message: 'must be a credential offer URI' }])
    }
    try {
      return await agentContext.resolve(OpenId4VcHolderApi).resolveCredentialOffer(offerUri)
    } catch (error) {
      throw new InvalidInputError(
        `The credential offer could not be resolved: ${messageOf(error)}`,
        [{ field: 'offerUri', message: 'could not be resolved' }],
        { cause: error },
      )
    }
  }

  private async resolveAuthorizationRequest(
    agentContext: AgentContext,
    requestUri: string,
  ): Promise<OpenId4VpResolvedAuthorizationRequest> {
    if (typeof requestUri !== 'string' || requestUri.length === 0 || requestUri.length > 64 * 1024) {
      throw new InvalidInputError('Invalid request', [
        { field: 'requestUri', message: 'must be an authorization request URI' },
      ])
    }
    try {
      return await agentContext.resolve(OpenId4VcHolderApi).resolveOpenId4VpAuthorizationRequest(requestUri)
    } catch (error) {
      throw new InvalidInputError(
        `The authorization request could not be resolved: ${messageOf(error)}`,
        [{ field: 'requestUri', message: 'could not be resolved or verified' }],
        { cause: error },
      )
    }
  }

  private async store(
    agentContext: AgentContext,
    record: SdJwtVcRecord | MdocRecord | W3cCredentialRecord | { type: string },
  ): Promise<SdJwtVcRecord | MdocRecord | W3cCredentialRecord> {
    if (record instanceof SdJwtVcRecord) await this.sdJwtVcs.save(agentContext, record)
    else if (record instanceof MdocRecord) await this.mdocs.save(agentContext, record)
    else if (record instanceof W3cCredentialRecord) await this.w3cCredentials.save(agentContext, record)
    else throw new InvalidStateError(`Credentials of record type ${record.type} are not kept by this wallet`)
    return record
  }
}

/**
 * A new key per credential: JWK binding where the issuer takes it (SD-JWT VC, mdoc), a did:key of the key otherwise
 * (W3C JWT VCs bind to a DID).
 */
function bindingResolver(keyType: X509KeyType, batchSize: number): OpenId4VciCredentialBindingResolver {
  return async ({ agentContext, supportsJwk, supportedDidMethods, supportsAllDidMethods, issuerMaxBatchSize }) => {
    const count = Math.max(1, Math.min(batchSize, issuerMaxBatchSize))
    const type =
      keyType === 'P-256' ? ({ kty: 'EC', crv: 'P-256' } as const) : ({ kty: 'OKP', crv: 'Ed25519' } as const)
    if (supportsJwk) {
      const kms = agentContext.resolve(Kms.KeyManagementApi)
      const keys = []
      for (let i = 0; i < count; i++) {
        const { keyId, publicJwk } = await kms.createKey({ type })
        const jwk = Kms.PublicJwk.fromPublicJwk(publicJwk)
        jwk.keyId = keyId
        keys.push(jwk)
      }
      return { method: 'jwk', keys }
    }
    if (supportsAllDidMethods || supportedDidMethods?.includes('did:key')) {
      const dids = agentContext.resolve(DidsApi)
      const didUrls: string[] = []
      for (let i = 0; i < count; i++) {
        const created = await dids.create({ method: 'key', options: { createKey: { type } } })
        const did = created.didState.did
        const document = created.didState.didDocument
        const [method] = document?.verificationMethod ?? []
        if (!did || !method) throw new InvalidStateError('Could not create a did:key to bind the credential to')
        didUrls.push(method.id)
      }
      return { method: 'did', didUrls }
    }
    throw new InvalidStateError('The issuer binds credentials neither to keys nor to did:key')
  }
}

interface Answered {
  status: number
  redirectUri?: string
  /** Set when the request was the issuer's, in the authorization code flow. */
  presentationDuringIssuanceSession?: string
}

function answered(result: {
  ok: boolean
  serverResponse?: { status: number; body?: unknown }
  redirectUri?: string
  presentationDuringIssuanceSession?: string
}): Answered {
  const status = result.serverResponse?.status ?? 0
  if (!result.ok) {
    throw new InvalidStateError(
      `The verifier refused the response (HTTP ${status}): ${JSON.stringify(result.serverResponse?.body ?? null).slice(0, 300)}`,
    )
  }
  return {
    status,
    ...(result.redirectUri ? { redirectUri: result.redirectUri } : {}),
    ...(result.presentationDuringIssuanceSession
      ? { presentationDuringIssuanceSession: result.presentationDuringIssuanceSession }
      : {}),
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 300)
}
