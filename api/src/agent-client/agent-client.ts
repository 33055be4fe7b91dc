import type {
  AcceptOfferRequest,
  AcceptProofRequestRequest,
  AgentStatusFacts,
  AnonCredsCredentialDefinitionResponse,
  AnonCredsCredentialInfo,
  AnonCredsSchemaResponse,
  AnswerQuestionRequest,
  AskQuestionRequest,
  BasicMessageRecordJson,
  ConnectionQuery,
  ConnectionRecordJson,
  CreateAnonCredsCredentialDefinitionRequest,
  CreateAnonCredsSchemaRequest,
  CreateRevocationRegistryRequest,
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
  RevocationRegistryState,
  RevokeCredentialsRequest,
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
import type { AnyAdminOperation, OperationInput, OperationResult } from '@idplane/common/agent-contract/operation'
import { ADMIN_OPERATIONS as OPS } from '@idplane/common/agent-contract/operations'
import { UpstreamError } from '@idplane/common'
import { callOperation, type AgentRequestOptions, type AgentTarget } from './agent-request'

/**
 * One organization's agent, through its admin API. Each method is one declared operation
 * (common/agent-contract/operations/: method, path, types, errors) called through `call`; the agent registers its
 * routes from the same declarations. Every method answers the `data` of the agent's envelope.
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

  /** Any declared operation, under this client's timeout, error mapping and metrics. */
  public call<O extends AnyAdminOperation>(operation: O, input: OperationInput<O>): Promise<OperationResult<O>> {
    return callOperation(this.target, operation, input, this.options)
  }

  /** GET /agent: label and endpoints; 503 (UpstreamError) until the agent is initialized. */
  public getStatus(): Promise<AgentStatusFacts> {
    return this.call(OPS.getStatus, {})
  }

  // --- DIDs and W3C signing ---

  /** @throws UpstreamError also when the answer names no DID (the caller records it). */
  public async createDid(body: CreateDidRequest): Promise<CreatedDid> {
    const created = (await this.call(OPS.createDid, { body })) as CreatedDid | undefined
    if (typeof created?.did !== 'string') throw new UpstreamError('The agent answered createDid without a DID')
    return created
  }

  public listDids(): Promise<DidListEntry[]> {
    return this.call(OPS.listDids, {})
  }

  public signCredential(body: SignCredentialRequest): Promise<Record<string, unknown>> {
    return this.call(OPS.signCredential, { body })
  }

  public verifyCredential(body: VerifyCredentialRequest): Promise<CredentialCheck> {
    return this.call(OPS.verifyCredential, { body })
  }

  // --- Connections ---

  public createInvitation(body: CreateInvitationRequest = {}): Promise<CreatedInvitation> {
    return this.call(OPS.createInvitation, { body })
  }

  public receiveInvitationUrl(body: ReceiveInvitationUrlRequest): Promise<ReceivedInvitation> {
    return this.call(OPS.receiveInvitationUrl, { body })
  }

  public receiveInvitation(body: ReceiveInvitationRequest): Promise<ReceivedInvitation> {
    return this.call(OPS.receiveInvitation, { body })
  }

  public listConnections(query: ConnectionQuery = {}): Promise<ConnectionRecordJson[]> {
    return this.call(OPS.listConnections, { query })
  }

  public getConnection(connectionId: string): Promise<ConnectionRecordJson> {
    return this.call(OPS.getConnection, { params: { connectionId } })
  }

  /** Responder: answers a DID Exchange request waiting for it; ConflictError (409) when none waits. */
  public acceptConnectionRequest(connectionId: string): Promise<ConnectionRecordJson> {
    return this.call(OPS.acceptConnectionRequest, { params: { connectionId } })
  }

  public deleteConnection(connectionId: string): Promise<{ id: string }> {
    return this.call(OPS.deleteConnection, { params: { connectionId } })
  }

  // --- Basic messages and question-answer ---

  public sendBasicMessage(connectionId: string, body: SendBasicMessageRequest): Promise<BasicMessageRecordJson> {
    return this.call(OPS.sendBasicMessage, { params: { connectionId }, body })
  }

  public listBasicMessages(connectionId: string): Promise<BasicMessageRecordJson[]> {
    return this.call(OPS.listBasicMessages, { params: { connectionId } })
  }

  public askQuestion(connectionId: string, body: AskQuestionRequest): Promise<QuestionAnswerRecordJson> {
    return this.call(OPS.askQuestion, { params: { connectionId }, body })
  }

  public answerQuestion(questionAnswerId: string, body: AnswerQuestionRequest): Promise<QuestionAnswerRecordJson> {
    return this.call(OPS.answerQuestion, { params: { questionAnswerId }, body })
  }

  public listQuestions(): Promise<QuestionAnswerRecordJson[]> {
    return this.call(OPS.listQuestions, {})
  }

  // --- Credentials (Issue Credential v2 and v1) ---

  public offerCredential(body: OfferCredentialRequest): Promise<CredentialRecordJson> {
    return this.call(OPS.offerCredential, { body })
  }

  public offerCredentialOutOfBand(body: OobOfferCredentialRequest): Promise<OobCredentialOffer> {
    return this.call(OPS.offerCredentialOutOfBand, { body })
  }

  /** Holder side (cloud wallets). */
  public acceptCredentialOffer(body: AcceptOfferRequest): Promise<CredentialRecordJson> {
    return this.call(OPS.acceptCredentialOffer, { body })
  }

  public listCredentials(query: ExchangeQuery = {}): Promise<CredentialRecordJson[]> {
    return this.call(OPS.listCredentials, { query })
  }

  public getCredential(credentialRecordId: string): Promise<CredentialRecordJson> {
    return this.call(OPS.getCredential, { params: { credentialRecordId } })
  }

  public deleteCredential(credentialRecordId: string): Promise<{ id: string }> {
    return this.call(OPS.deleteCredential, { params: { credentialRecordId } })
  }

  public getCredentialFormData(credentialRecordId: string): Promise<Record<string, unknown>> {
    return this.call(OPS.getCredentialFormData, { params: { credentialRecordId } })
  }

  // --- Proofs (Present Proof v2 and v1) ---

  public requestProof(body: RequestProofRequest): Promise<ProofRecordJson> {
    return this.call(OPS.requestProof, { body })
  }

  public requestProofOutOfBand(body: OobRequestProofRequest): Promise<OobProofRequest> {
    return this.call(OPS.requestProofOutOfBand, { body })
  }

  /** Holder side (cloud wallets). */
  public acceptProofRequest(body: AcceptProofRequestRequest): Promise<ProofRecordJson> {
    return this.call(OPS.acceptProofRequest, { body })
  }

  /** Accepts a received presentation and reports the result; ConflictError (409) before one arrived. */
  public verifyProof(proofRecordId: string): Promise<ProofVerification> {
    return this.call(OPS.verifyProof, { params: { proofRecordId } })
  }

  public listProofs(query: ExchangeQuery = {}): Promise<ProofRecordJson[]> {
    return this.call(OPS.listProofs, { query })
  }

  public getProof(proofRecordId: string): Promise<ProofRecordJson> {
    return this.call(OPS.getProof, { params: { proofRecordId } })
  }

  public deleteProof(proofRecordId: string): Promise<{ id: string }> {
    return this.call(OPS.deleteProof, { params: { proofRecordId } })
  }

  public getProofFormData(proofRecordId: string): Promise<ProofFormData> {
    return this.call(OPS.getProofFormData, { params: { proofRecordId } })
  }

  // --- AnonCreds objects, through whatever registry the agent has ---

  /** ConflictError when the registry holds another object under the schema's identifier. */
  public createAnonCredsSchema(body: CreateAnonCredsSchemaRequest): Promise<AnonCredsSchemaResponse> {
    return this.call(OPS.createAnonCredsSchema, { body })
  }

  /** NotFoundError when no registry of the agent has it, InvalidInputError when the id is malformed. */
  public getAnonCredsSchema(schemaId: string): Promise<AnonCredsSchemaResponse> {
    return this.call(OPS.getAnonCredsSchema, { params: { schemaId } })
  }

  /** Generates the keys (seconds): callers give it a long timeout (withTimeout). */
  public createAnonCredsCredentialDefinition(
    body: CreateAnonCredsCredentialDefinitionRequest,
  ): Promise<AnonCredsCredentialDefinitionResponse> {
    return this.call(OPS.createAnonCredsCredentialDefinition, { body })
  }

  /** The credential definitions the agent created (with their private keys in its wallet). */
  public listAnonCredsCredentialDefinitions(): Promise<AnonCredsCredentialDefinitionResponse[]> {
    return this.call(OPS.listAnonCredsCredentialDefinitions, {})
  }

  /** A credential definition and its schema as the agent's AnonCreds registry resolves them; NotFoundError if not. */
  public resolveCredentialDefinition(credentialDefinitionId: string): Promise<ResolvedCredentialDefinition> {
    return this.call(OPS.resolveCredentialDefinition, { query: { credentialDefinitionId } })
  }

  /**
   * A revocation registry with its tails file and first status list (the tails file takes about a third of a
   * millisecond per entry: callers give it a long timeout, withTimeout).
   */
  public createRevocationRegistry(body: CreateRevocationRegistryRequest): Promise<RevocationRegistryState> {
    return this.call(OPS.createRevocationRegistry, { body })
  }

  /** Revokes indices of one of the agent's registries and publishes the next status list. */
  public revokeAnonCredsCredentials(body: RevokeCredentialsRequest): Promise<RevocationRegistryState> {
    return this.call(OPS.revokeAnonCredsCredentials, { body })
  }

  /** One of the agent's registries with its status list now; NotFoundError for another's. */
  public getRevocationRegistry(revocationRegistryDefinitionId: string): Promise<RevocationRegistryState> {
    return this.call(OPS.getRevocationRegistry, { query: { revocationRegistryDefinitionId } })
  }

  /** The AnonCreds credentials the wallet holds. */
  public listAnonCredsCredentials(): Promise<AnonCredsCredentialInfo[]> {
    return this.call(OPS.listAnonCredsCredentials, {})
  }

  // --- Tenants of a base wallet (cloud wallets) ---

  public createTenant(body: CreateTenantRequest): Promise<TenantResponse> {
    return this.call(OPS.createTenant, { body })
  }

  public listTenants(): Promise<TenantResponse[]> {
    return this.call(OPS.listTenants, {})
  }

  public getTenant(tenantId: string): Promise<TenantResponse> {
    return this.call(OPS.getTenant, { params: { tenantId } })
  }

  public deleteTenant(tenantId: string): Promise<{ id: string }> {
    return this.call(OPS.deleteTenant, { params: { tenantId } })
  }
}
