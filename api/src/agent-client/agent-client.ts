import type {
  AcceptOfferRequest,
  AnonCredsCredentialDefinitionResponse,
  AnonCredsSchemaResponse,
  CreateAnonCredsCredentialDefinitionRequest,
  CreateAnonCredsSchemaRequest,
  AcceptProofRequestRequest,
  AgentStatusFacts,
  AnswerQuestionRequest,
  AskQuestionRequest,
  BasicMessageRecordJson,
  ConnectionQuery,
  ConnectionRecordJson,
  CreateDidRequest,
  CreateInvitationRequest,
  CreateTenantRequest,
  CreatedDid,
  CreatedInvitation,
  CredentialCheck,
  CredentialRecordJson,
  DidListEntry,
  ExchangeQuery,
  OfferCredentialRequest,
  OobCredentialOffer,
  OobOfferCredentialRequest,
  OobProofRequest,
  OobRequestProofRequest,
  ProofFormData,
  ProofRecordJson,
  ProofVerification,
  QuestionAnswerRecordJson,
  ReceiveInvitationRequest,
  ReceiveInvitationUrlRequest,
  ReceivedInvitation,
  RequestProofRequest,
  ResolvedCredentialDefinition,
  SendBasicMessageRequest,
  SignCredentialRequest,
  TenantResponse,
  VerifyCredentialRequest,
} from '@idplane/common/agent-contract/admin-api'
import { AGENT_STATUS_PATH } from '@idplane/common/agent-contract/admin-api'
import { UpstreamError } from '@idplane/common'
import { requestAgent, segment, type AgentCall, type AgentRequestOptions, type AgentTarget } from './agent-request'

/**
 * One organization's agent, through its admin API (agent/src/admin/*.controller.ts; types in
 * common/agent-contract/admin-api.ts). Every method answers the `data` of the agent's envelope.
 * Each method @throws InvalidInputError / NotFoundError / ConflictError carrying the agent's message when the agent
 * refuses the input (4xx), and UpstreamError (502) when it cannot be reached, times out or fails.
 */
export class AgentClient {
  public constructor(
    private readonly target: AgentTarget,
    private readonly options: AgentRequestOptions,
  ) {}

  public get orgId(): string {
    return this.target.orgId
  }

  /** The same agent acting on one of its base-wallet tenants (X-Tenant-Id). */
  public forTenant(tenantId: string): AgentClient {
    return new AgentClient({ ...this.target, tenantId }, this.options)
  }

  /** The same agent with another timeout for the calls that follow (a long proof verification). */
  public withTimeout(timeoutMs: number): AgentClient {
    return new AgentClient(this.target, { ...this.options, timeoutMs })
  }

  /** GET /agent: label and endpoints; 503 (UpstreamError) until the agent is initialized. */
  public getStatus(): Promise<AgentStatusFacts> {
    return this.call({ operation: 'getStatus', method: 'GET', path: AGENT_STATUS_PATH })
  }

  // --- DIDs and W3C signing ---

  /** @throws UpstreamError also when the answer names no DID (the caller records it). */
  public async createDid(body: CreateDidRequest): Promise<CreatedDid> {
    const created = await this.call<CreatedDid | undefined>({
      operation: 'createDid',
      method: 'POST',
      path: '/dids',
      body,
    })
    if (typeof created?.did !== 'string') throw new UpstreamError('The agent answered createDid without a DID')
    return created
  }

  public listDids(): Promise<DidListEntry[]> {
    return this.call({ operation: 'listDids', method: 'GET', path: '/dids' })
  }

  public signCredential(body: SignCredentialRequest): Promise<Record<string, unknown>> {
    return this.call({ operation: 'signCredential', method: 'POST', path: '/w3c/sign', body })
  }

  public verifyCredential(body: VerifyCredentialRequest): Promise<CredentialCheck> {
    return this.call({ operation: 'verifyCredential', method: 'POST', path: '/w3c/verify', body })
  }

  // --- Connections ---

  public createInvitation(body: CreateInvitationRequest = {}): Promise<CreatedInvitation> {
    return this.call({ operation: 'createInvitation', method: 'POST', path: '/oob/create-invitation', body })
  }

  public receiveInvitationUrl(body: ReceiveInvitationUrlRequest): Promise<ReceivedInvitation> {
    return this.call({ operation: 'receiveInvitationUrl', method: 'POST', path: '/oob/receive-invitation-url', body })
  }

  public receiveInvitation(body: ReceiveInvitationRequest): Promise<ReceivedInvitation> {
    return this.call({ operation: 'receiveInvitation', method: 'POST', path: '/oob/receive-invitation', body })
  }

  public listConnections(query: ConnectionQuery = {}): Promise<ConnectionRecordJson[]> {
    return this.call({ operation: 'listConnections', method: 'GET', path: '/connections', query })
  }

  public getConnection(connectionId: string): Promise<ConnectionRecordJson> {
    return this.call({ operation: 'getConnection', method: 'GET', path: `/connections/${segment(connectionId)}` })
  }

  /** Responder: answers a DID Exchange request waiting for it; ConflictError (409) when none waits. */
  public acceptConnectionRequest(connectionId: string): Promise<ConnectionRecordJson> {
    const path = `/connections/${segment(connectionId)}/accept-request`
    return this.call({ operation: 'acceptConnectionRequest', method: 'POST', path })
  }

  public deleteConnection(connectionId: string): Promise<{ id: string }> {
    const path = `/connections/${segment(connectionId)}`
    return this.call({ operation: 'deleteConnection', method: 'DELETE', path })
  }

  // --- Basic messages and question-answer ---

  public sendBasicMessage(connectionId: string, body: SendBasicMessageRequest): Promise<BasicMessageRecordJson> {
    const path = `/basic-messages/${segment(connectionId)}`
    return this.call({ operation: 'sendBasicMessage', method: 'POST', path, body })
  }

  public listBasicMessages(connectionId: string): Promise<BasicMessageRecordJson[]> {
    const path = `/basic-messages/${segment(connectionId)}`
    return this.call({ operation: 'listBasicMessages', method: 'GET', path })
  }

  public askQuestion(connectionId: string, body: AskQuestionRequest): Promise<QuestionAnswerRecordJson> {
    const path = `/question-answer/question/${segment(connectionId)}`
    return this.call({ operation: 'askQuestion', method: 'POST', path, body })
  }

  public answerQuestion(questionAnswerId: string, body: AnswerQuestionRequest): Promise<QuestionAnswerRecordJson> {
    const path = `/question-answer/answer/${segment(questionAnswerId)}`
    return this.call({ operation: 'answerQuestion', method: 'POST', path, body })
  }

  public listQuestions(): Promise<QuestionAnswerRecordJson[]> {
    return this.call({ operation: 'listQuestions', method: 'GET', path: '/question-answer' })
  }

  // --- Credentials (Issue Credential v2, W3C JSON-LD) ---

  public offerCredential(body: OfferCredentialRequest): Promise<CredentialRecordJson> {
    return this.call({ operation: 'offerCredential', method: 'POST', path: '/credentials/offer', body })
  }

  public offerCredentialOutOfBand(body: OobOfferCredentialRequest): Promise<OobCredentialOffer> {
    return this.call({ operation: 'offerCredentialOutOfBand', method: 'POST', path: '/credentials/oob/offer', body })
  }

  /** Holder side (cloud wallets). */
  public acceptCredentialOffer(body: AcceptOfferRequest): Promise<CredentialRecordJson> {
    return this.call({ operation: 'acceptCredentialOffer', method: 'POST', path: '/credentials/accept-offer', body })
  }

  public listCredentials(query: ExchangeQuery = {}): Promise<CredentialRecordJson[]> {
    return this.call({ operation: 'listCredentials', method: 'GET', path: '/credentials', query })
  }

  public getCredential(credentialRecordId: string): Promise<CredentialRecordJson> {
    const path = `/credentials/${segment(credentialRecordId)}`
    return this.call({ operation: 'getCredential', method: 'GET', path })
  }

  public deleteCredential(credentialRecordId: string): Promise<{ id: string }> {
    const path = `/credentials/${segment(credentialRecordId)}`
    return this.call({ operation: 'deleteCredential', method: 'DELETE', path })
  }

  public getCredentialFormData(credentialRecordId: string): Promise<Record<string, unknown>> {
    const path = `/credentials/${segment(credentialRecordId)}/form-data`
    return this.call({ operation: 'getCredentialFormData', method: 'GET', path })
  }

  // --- Proofs (Present Proof v2, DIF Presentation Exchange) ---

  public requestProof(body: RequestProofRequest): Promise<ProofRecordJson> {
    return this.call({ operation: 'requestProof', method: 'POST', path: '/proofs/request', body })
  }

  public requestProofOutOfBand(body: OobRequestProofRequest): Promise<OobProofRequest> {
    return this.call({ operation: 'requestProofOutOfBand', method: 'POST', path: '/proofs/oob/request', body })
  }

  /** Holder side (cloud wallets). */
  public acceptProofRequest(body: AcceptProofRequestRequest): Promise<ProofRecordJson> {
    return this.call({ operation: 'acceptProofRequest', method: 'POST', path: '/proofs/accept-request', body })
  }

  /** Accepts a received presentation and reports the result; ConflictError (409) before one arrived. */
  public verifyProof(proofRecordId: string): Promise<ProofVerification> {
    const path = `/proofs/${segment(proofRecordId)}/verify`
    return this.call({ operation: 'verifyProof', method: 'POST', path })
  }

  public listProofs(query: ExchangeQuery = {}): Promise<ProofRecordJson[]> {
    return this.call({ operation: 'listProofs', method: 'GET', path: '/proofs', query })
  }

  public getProof(proofRecordId: string): Promise<ProofRecordJson> {
    return this.call({ operation: 'getProof', method: 'GET', path: `/proofs/${segment(proofRecordId)}` })
  }

  public deleteProof(proofRecordId: string): Promise<{ id: string }> {
    return this.call({ operation: 'deleteProof', method: 'DELETE', path: `/proofs/${segment(proofRecordId)}` })
  }

  public getProofFormData(proofRecordId: string): Promise<ProofFormData> {
    const path = `/proofs/${segment(proofRecordId)}/form-data`
    return this.call({ operation: 'getProofFormData', method: 'GET', path })
  }

  // --- AnonCreds objects, through whatever registry the agent has ---

  /** ConflictError when the registry holds another object under the schema's identifier. */
  public createAnonCredsSchema(body: CreateAnonCredsSchemaRequest): Promise<AnonCredsSchemaResponse> {
    return this.call({ operation: 'createAnonCredsSchema', method: 'POST', path: '/anoncreds/schemas', body })
  }

  /** NotFoundError when no registry of the agent has it, InvalidInputError when the id is malformed. */
  public getAnonCredsSchema(schemaId: string): Promise<AnonCredsSchemaResponse> {
    const path = `/anoncreds/schemas/${segment(schemaId)}`
    return this.call({ operation: 'getAnonCredsSchema', method: 'GET', path })
  }

  /** Generates the keys (seconds): callers give it a long timeout (withTimeout). */
  public createAnonCredsCredentialDefinition(
    body: CreateAnonCredsCredentialDefinitionRequest,
  ): Promise<AnonCredsCredentialDefinitionResponse> {
    const path = '/anoncreds/credential-definitions'
    return this.call({ operation: 'createAnonCredsCredentialDefinition', method: 'POST', path, body })
  }

  /** The credential definitions the agent created (with their private keys in its wallet). */
  public listAnonCredsCredentialDefinitions(): Promise<AnonCredsCredentialDefinitionResponse[]> {
    const path = '/anoncreds/credential-definitions'
    return this.call({ operation: 'listAnonCredsCredentialDefinitions', method: 'GET', path })
  }

  /** A credential definition and its schema as the agent's AnonCreds registry resolves them; NotFoundError if not. */
  public resolveCredentialDefinition(credentialDefinitionId: string): Promise<ResolvedCredentialDefinition> {
    return this.call({
      operation: 'resolveCredentialDefinition',
      method: 'GET',
      path: '/anoncreds/credential-definition',
      query: { credentialDefinitionId },
    })
  }

  // --- Tenants of a base wallet (cloud wallets) ---

  public createTenant(body: CreateTenantRequest): Promise<TenantResponse> {
    return this.call({ operation: 'createTenant', method: 'POST', path: '/tenants', body })
  }

  public listTenants(): Promise<TenantResponse[]> {
    return this.call({ operation: 'listTenants', method: 'GET', path: '/tenants' })
  }

  public getTenant(tenantId: string): Promise<TenantResponse> {
    return this.call({ operation: 'getTenant', method: 'GET', path: `/tenants/${segment(tenantId)}` })
  }

  public deleteTenant(tenantId: string): Promise<{ id: string }> {
    return this.call({ operation: 'deleteTenant', method: 'DELETE', path: `/tenants/${segment(tenantId)}` })
  }

  private call<T>(call: AgentCall): Promise<T> {
    return requestAgent<T>(this.target, call, this.options)
  }
}
