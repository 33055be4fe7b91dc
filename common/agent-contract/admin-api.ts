/**
 * The agent's admin REST API as the platform calls it: the request bodies and the `data` of the answers. Each
 * operation (method, path, these types, its errors) is declared once in `operations/` (operation.ts); the API's
 * AgentClient (api/src/agent-client/) calls the declarations and the agent registers its routes from them
 * (agent/src/admin/admin-routes.ts). The agent's DTO classes (agent/src/admin/dto/) implement the request types, so a
 * field the agent drops or renames fails to compile there. Every answer is an envelope
 * `{ statusCode, message, data }`; errors are `{ statusCode, message, error, errors? }` (common/http-errors.ts).
 * Records are Credo records as their `toJSON()` writes them: the fields the platform reads are named, the rest
 * pass through.
 */

/** The readiness route the API and the operator poll; answers 200 only once the agent is initialized. */
export const AGENT_STATUS_PATH = '/agent'

/** Header naming the base-wallet tenant an admin call acts on (cloud wallets). */
export const TENANT_HEADER = 'X-Tenant-Id'

export interface AgentEnvelope<T> {
  statusCode: number
  message: string
  data?: T
}

/** GET /agent */
export interface AgentStatusFacts {
  label: string
  endpoints: string[]
  isInitialized: boolean
}

export type AutoAccept = 'always' | 'contentApproved' | 'never'

/** Fields every Credo record's JSON has; the others depend on the record type. */
export interface CredoRecordJson {
  id: string
  createdAt: string
  updatedAt?: string
  [field: string]: unknown
}

export interface ConnectionRecordJson extends CredoRecordJson {
  state: string
  role: string
  did?: string
  theirDid?: string
  theirLabel?: string
  alias?: string
  outOfBandId?: string
  threadId?: string
}

export interface OutOfBandRecordJson extends CredoRecordJson {
  state: string
  role: string
  outOfBandInvitation: Record<string, unknown>
}

export interface CredentialRecordJson extends CredoRecordJson {
  state: string
  role: string
  connectionId?: string
  threadId: string
  protocolVersion: string
}

export interface ProofRecordJson extends CredoRecordJson {
  state: string
  role: string
  connectionId?: string
  threadId: string
  protocolVersion: string
  isVerified?: boolean
}

export interface BasicMessageRecordJson extends CredoRecordJson {
  content: string
  sentTime: string
  connectionId: string
  role: string
}

export interface QuestionAnswerRecordJson extends CredoRecordJson {
  questionText: string
  validResponses: { text: string }[]
  state: string
  role: string
  connectionId: string
  threadId: string
  response?: string
}

// --- DIDs (agent/src/admin/dids.controller.ts) ---

/** `indy`: a did:indy DID written to the platform ledger (NYM and endpoint ATTRIB). */
export type AgentDidMethod = 'key' | 'peer' | 'web' | 'indy'

/** POST /dids */
export interface CreateDidRequest {
  method: AgentDidMethod
  keyType?: string
  /** 32 characters, no spaces. */
  seed?: string
  /** 64 hex digits. */
  privatekey?: string
  /** did:web only, required there (or given by `did`). */
  domain?: string
  endpoint?: string
  /**
   * Import this DID instead of making a new one: needs `seed` or `privatekey`, whose key must be the DID's (did:key,
   * did:peer:0, did:indy: the DID the key gives; did:web: served with that key).
   */
  did?: string
}

export interface CreatedDid {
  did: string
  didDocument?: Record<string, unknown>
}

/** GET /dids, one entry */
export interface DidListEntry {
  did: string
  method: string
  createdAt: string
}

/** POST /w3c/sign */
export interface SignCredentialRequest {
  /** Absent: the issuer DID's first assertion method of the proof type's key type (as JSON-LD issuance picks it). */
  verificationMethod?: string
  proofType: string
  credential: Record<string, unknown>
}

/** POST /w3c/verify */
export interface VerifyCredentialRequest {
  credential: Record<string, unknown>
}

export interface CredentialCheck {
  isValid: boolean
  error?: string
}

// --- Connections (agent/src/admin/connections.controller.ts; field formats in docs/agent.md) ---

export interface InvitationRouting {
  endpoints: string[]
  recipientKey: string
  routingKeys?: string[]
}

/** POST /oob/create-invitation; every field optional. */
export interface CreateInvitationRequest {
  label?: string
  alias?: string
  imageUrl?: string
  goalCode?: string
  goal?: string
  handshake?: boolean
  handshakeProtocols?: string[]
  multiUseInvitation?: boolean
  autoAcceptConnection?: boolean
  IsReuseConnection?: boolean
  recipientKey?: string
  invitationDid?: string
  routing?: InvitationRouting
  appendedAttachments?: Record<string, unknown>[]
  messages?: Record<string, unknown>[]
}

export interface CreatedInvitation {
  invitationUrl: string
  invitation: Record<string, unknown>
  outOfBandRecord: OutOfBandRecordJson
}

export interface ReceiveInvitationOptions {
  alias?: string
  label?: string
  imageUrl?: string
  ourDid?: string
  autoAcceptConnection?: boolean
  autoAcceptInvitation?: boolean
  reuseConnection?: boolean
  acceptInvitationTimeoutMs?: number
}

/** POST /oob/receive-invitation-url */
export interface ReceiveInvitationUrlRequest extends ReceiveInvitationOptions {
  invitationUrl: string
}

/** POST /oob/receive-invitation */
export interface ReceiveInvitationRequest extends ReceiveInvitationOptions {
  invitation: Record<string, unknown>
}

export interface ReceivedInvitation {
  outOfBandRecord: OutOfBandRecordJson
  connectionRecord?: ConnectionRecordJson
}

/** GET /connections query; every field optional. */
export interface ConnectionQuery {
  outOfBandId?: string
  alias?: string
  myDid?: string
  theirDid?: string
  theirLabel?: string
}

// --- Basic messages and question-answer (agent/src/admin/messages.controller.ts) ---

/** POST /basic-messages/:connectionId */
export interface SendBasicMessageRequest {
  content: string
}

/** POST /question-answer/question/:connectionId */
export interface AskQuestionRequest {
  question: string
  validResponses: { text: string }[]
  detail?: string
}

/** POST /question-answer/answer/:questionAnswerId */
export interface AnswerQuestionRequest {
  response: string
}

// --- Credentials (agent/src/admin/credentials.controller.ts): Issue Credential v2, W3C JSON-LD ---

export interface JsonLdOfferOptions {
  proofType: string
  proofPurpose: string
}

export interface JsonLdOffer {
  credential: Record<string, unknown>
  options: JsonLdOfferOptions
}

/** An AnonCreds credential offer: the credential definition and each attribute's raw value. */
export interface AnonCredsOffer {
  credentialDefinitionId: string
  attributes: { name: string; value: string; mimeType?: string }[]
  /**
   * A definition that supports revocation issues into a registry of its own, at an index the caller allocated (never
   * twice in one registry; 1 to maxCredNum-1). Both or neither; Issue Credential v2 only (Credo's v1 `indy` format
   * issues without a registry).
   */
  revocationRegistryDefinitionId?: string
  revocationRegistryIndex?: number
}

/**
 * POST /credentials/offer: a W3C JSON-LD offer (`credential` + `options`, Issue Credential v2) or an AnonCreds
 * offer (`credentialFormats.anoncreds`, Issue Credential v2 in the `anoncreds` format or v1 in the `indy` format).
 */
export type OfferCredentialRequest = (JsonLdOffer | AnonCredsOfferRequest) & {
  /** @default 'v2'; 'v1' only with AnonCreds (a JSON-LD offer with 'v1' is refused) */
  protocolVersion?: 'v1' | 'v2'
  connectionId: string
  comment?: string
  goalCode?: string
  autoAcceptCredential?: AutoAccept
}

export interface AnonCredsOfferRequest {
  credentialFormats: { anoncreds: AnonCredsOffer }
  /** @default 'v2' */
  protocolVersion?: 'v1' | 'v2'
}

/** POST /credentials/oob/offer: a JSON-LD or an AnonCreds offer, as POST /credentials/offer. */
export type OobOfferCredentialRequest = (JsonLdOffer | AnonCredsOfferRequest) & {
  /** @default 'v2'; 'v1' only with AnonCreds */
  protocolVersion?: 'v1' | 'v2'
  comment?: string
  label?: string
  imageUrl?: string
  goalCode?: string
  autoAcceptCredential?: AutoAccept
}

export interface OobCredentialOffer extends CreatedInvitation {
  credentialRecord: CredentialRecordJson
}

/** POST /credentials/accept-offer (holder) */
export interface AcceptOfferRequest {
  credentialRecordId: string
  autoAcceptCredential?: AutoAccept
  credentialFormats?: Record<string, unknown>
  comment?: string
}

/** GET /credentials and GET /proofs query */
export interface ExchangeQuery {
  threadId?: string
  connectionId?: string
  state?: string
}

// --- Proofs (agent/src/admin/proofs.controller.ts): Present Proof v2, DIF Presentation Exchange ---

/** An AnonCreds restriction, as in the proof request JSON (`attr::<name>::value` / `::marker` keys allowed). */
export type AnonCredsRestriction = Record<string, string>

/**
 * A `non_revoked` interval in seconds since the epoch: the credential must be shown not revoked at a status list in
 * force within it. Credo holders take `to` alone, or `from` equal to `to` (Aries RFC 0441).
 */
export interface AnonCredsNonRevokedInterval {
  from?: number
  to?: number
}

/** An AnonCreds proof request as its JSON has it, without the nonce (the agent makes it). */
export interface AnonCredsProofRequestInput {
  name?: string
  version?: string
  requested_attributes?: Record<
    string,
    {
      name?: string
      names?: string[]
      restrictions?: AnonCredsRestriction[]
      non_revoked?: AnonCredsNonRevokedInterval
    }
  >
  requested_predicates?: Record<
    string,
    {
      name: string
      p_type: '>=' | '<=' | '>' | '<'
      p_value: number
      restrictions?: AnonCredsRestriction[]
      non_revoked?: AnonCredsNonRevokedInterval
    }
  >
  non_revoked?: AnonCredsNonRevokedInterval
}

/**
 * POST /proofs/request: DIF Presentation Exchange (`presentationDefinition`, Present Proof v2) or AnonCreds
 * (`proofFormats.anoncreds`, Present Proof v2 in the `anoncreds` format or v1 in the `indy` format).
 */
export interface RequestProofRequest {
  connectionId: string
  presentationDefinition?: Record<string, unknown>
  proofFormats?: { anoncreds: AnonCredsProofRequestInput }
  /** @default 'v2'; 'v1' only with AnonCreds */
  protocolVersion?: 'v1' | 'v2'
  comment?: string
  goalCode?: string
  autoAcceptProof?: AutoAccept
  willConfirm?: boolean
}

/** POST /proofs/oob/request: DIF PE or AnonCreds, as POST /proofs/request. */
export interface OobRequestProofRequest {
  presentationDefinition?: Record<string, unknown>
  proofFormats?: { anoncreds: AnonCredsProofRequestInput }
  protocolVersion?: 'v1' | 'v2'
  comment?: string
  goalCode?: string
  label?: string
  autoAcceptProof?: AutoAccept
  /** Name the wallet's standing invitation DID, so a holder connected through it reuses that connection. */
  reuseConnection?: boolean
}

export interface OobProofRequest extends CreatedInvitation {
  proofRecord: ProofRecordJson
}

/** POST /proofs/accept-request (holder) */
export interface AcceptProofRequestRequest {
  proofRecordId: string
  filterByPresentationPreview?: boolean
  filterByNonRevocationRequirements?: boolean
  comment?: string
}

/** POST /proofs/:proofRecordId/verify */
export interface ProofVerification {
  isVerified: boolean
  proofRecord: ProofRecordJson
}

/** GET /proofs/:proofRecordId/form-data */
export interface ProofFormData {
  isVerified: boolean | null
  state: string
  /** The credentialSubject of each presented credential; AnonCreds: one object of all revealed raw values. */
  revealed: unknown[]
  /** AnonCreds presentations: what was proven, by referent (null for other formats). */
  anoncreds: AnonCredsProofSummary | null
  formData: Record<string, unknown>
}

export interface AnonCredsProofSummary {
  revealedAttributes: Record<string, { name: string; raw: string }>
  revealedAttributeGroups: Record<string, Record<string, string>>
  /** The predicates the presentation proves (the values stay hidden). */
  predicates: Record<string, { name: string; p_type: string; p_value: number }>
  selfAttestedAttributes: Record<string, string>
}

// --- AnonCreds objects (agent/src/admin/anoncreds.controller.ts), through the agent's AnonCreds registry ---

/** POST /anoncreds/schemas */
export interface CreateAnonCredsSchemaRequest {
  /**
   * A did:key, or a did:indy / legacy Indy DID this agent created on the platform ledger (the schema is written
   * there); the agent creates one when absent.
   */
  issuerId?: string
  /**
   * Without issuerId: create a legacy (unqualified) Indy DID instead of a did:key, so the schema and its credential
   * definitions get legacy identifiers (required by the `indy` format, i.e. Issue Credential / Present Proof v1).
   */
  legacyIdentifiers?: boolean
  name: string
  version: string
  attributes: string[]
}

export interface AnonCredsSchemaResponse {
  schemaId: string
  schema: { issuerId: string; name: string; version: string; attrNames: string[] }
}

/** GET /anoncreds/schemas/:schemaId answers an AnonCredsSchemaResponse (404 when no registry has it). */

/** POST /anoncreds/credential-definitions */
export interface CreateAnonCredsCredentialDefinitionRequest {
  schemaId: string
  /** @default the schema's issuer */
  issuerId?: string
  /** @default 'default' */
  tag?: string
  /** Adds the revocation keys, so revocation registries can be made for it. @default false */
  supportRevocation?: boolean
}

export interface AnonCredsCredentialDefinitionResponse {
  credentialDefinitionId: string
  credentialDefinition: { issuerId: string; schemaId: string; type: 'CL'; tag: string; value: unknown }
}

/** POST /anoncreds/revocation-registries: a registry for a definition that supports revocation, and its first list. */
export interface CreateRevocationRegistryRequest {
  credentialDefinitionId: string
  /** The registry holds the indices 1 to maximumCredentialNumber-1 (anoncreds-rs' numbering). */
  maximumCredentialNumber: number
  /** @default a fresh one */
  tag?: string
}

/** POST /anoncreds/revocation-registries/revoke: revokes indices and publishes the registry's next status list. */
export interface RevokeCredentialsRequest {
  revocationRegistryDefinitionId: string
  revokedIndices: number[]
}

/** GET /anoncreds/revocation-registry query */
export interface RevocationRegistryQuery {
  revocationRegistryDefinitionId: string
}

/** A registry this agent created, with its status list now on the ledger. */
export interface RevocationRegistryState {
  revocationRegistryDefinitionId: string
  revocationRegistryDefinition: {
    issuerId: string
    revocDefType: 'CL_ACCUM'
    tag: string
    credDefId: string
    value: { maxCredNum: number; publicKeys: unknown; tailsHash: string; tailsLocation: string }
  }
  /** `active` while it issues, `full` once it has no free index (the caller says so). */
  state: string
  /** Seconds since the epoch of the status list in force now. */
  timestamp: number
  revokedIndices: number[]
  revocationStatusList: {
    revRegDefId: string
    issuerId: string
    revocationList: number[]
    currentAccumulator: string
    timestamp: number
  }
}

/** GET /anoncreds/credential-definition query */
export interface ResolveCredentialDefinitionQuery {
  credentialDefinitionId: string
}

/** GET /anoncreds/credentials, one entry: a credential the wallet holds, as Credo describes it. */
export interface AnonCredsCredentialInfo {
  credentialId: string
  /** Raw values by attribute name. */
  attributes: Record<string, string | number>
  schemaId: string
  credentialDefinitionId: string
  revocationRegistryId: string | null
  credentialRevocationId: string | null
  methodName: string
  linkSecretId: string
  createdAt: string
  updatedAt: string
}

/** GET /anoncreds/credential-definition?credentialDefinitionId=: any definition the registry resolves, with its schema. */
export interface ResolvedCredentialDefinition {
  credentialDefinitionId: string
  credentialDefinition: { issuerId: string; schemaId: string; type: string; tag: string }
  schemaId: string
  schema: { issuerId: string; name: string; version: string; attrNames: string[] }
}

// --- Tenants (agent/src/admin/tenants.controller.ts): wallets of the base agent ---

/** POST /tenants */
export interface CreateTenantRequest {
  label: string
  connectionImageUrl?: string
}

export interface TenantResponse {
  id: string
  label: string
  connectionImageUrl?: string
  createdAt: string
}
