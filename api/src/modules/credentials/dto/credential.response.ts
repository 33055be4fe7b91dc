import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  nullable,
  object,
  oneOf,
  string,
  unchecked,
  type DataSchema,
} from '../../../infra/http/data-schema'
import {
  CREDENTIAL_TYPES,
  REVOCATION_STATUSES,
  type RevocationStatus,
  type CredentialSummary,
  type CredentialType,
  type CredentialRecord,
} from '../credential.entity'

/** An issuance record as the API shows it (spec: Credential issuance record, plus the fields after `createdAt`). */
export interface CredentialRecordResponse {
  /** The agent's credential exchange record id (`:credentialRecordId`). */
  id: string
  state: string
  connectionId: string | null
  credentialDefinitionId: string | null
  schemaId: string | null
  threadId: string | null
  protocolVersion: string | null
  createdAt: string
  role: string
  credentialType: CredentialType
  credentialSummary: CredentialSummary | null
  outOfBandId: string | null
  emailId: string | null
  errorMessage: string | null
  updatedAt: string
  /** INDY against a revocable definition: the revocation registry's ledger id and the credential's index in it. */
  revocationRegistryId: string | null
  revocationIndex: number | null
  /** True once the revocation is published on the ledger (a proof of non-revocation then fails). */
  revoked: boolean
  /** `pending` (asked for, not yet published: `POST revocations/publish`), `revoked`, or null. */
  revocationStatus: RevocationStatus | null
  revokedAt: string | null
}

/** The single read: the record and what the agent holds now (null when the agent has no such record or is down). */
export interface CredentialRecordDetailResponse extends CredentialRecordResponse {
  agentDetail: { record: Record<string, unknown>; formData: Record<string, unknown> } | null
}

export function toCredentialRecordResponse(record: CredentialRecord): CredentialRecordResponse {
  return {
    id: record.credentialRecordId,
    state: record.state,
    connectionId: record.connectionId ?? null,
    credentialDefinitionId: record.credentialDefinitionId ?? null,
    schemaId: record.schemaId ?? null,
    threadId: record.threadId ?? null,
    protocolVersion: record.protocolVersion ?? null,
    createdAt: record.createdAt.toISOString(),
    role: record.role,
    credentialType: record.credentialType,
    credentialSummary: record.credentialSummary ?? null,
    outOfBandId: record.outOfBandId ?? null,
    emailId: record.emailId ?? null,
    errorMessage: record.errorMessage ?? null,
    updatedAt: record.updatedAt.toISOString(),
    revocationRegistryId: record.revocationRegistryId ?? null,
    revocationIndex: record.revocationIndex ?? null,
    revoked: record.revocationStatus === 'revoked',
    revocationStatus: record.revocationStatus ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
  }
}

const SUMMARY_SCHEMA = object<CredentialSummary>('CredentialSummary', {
  types: arrayOf(string),
  issuer: nullable(string),
  attributeNames: arrayOf(string),
})

const RECORD_PROPERTIES = {
  id: string,
  state: string,
  connectionId: nullable(string),
  credentialDefinitionId: nullable(string),
  schemaId: nullable(string),
  threadId: nullable(string),
  protocolVersion: nullable(string),
  createdAt: dateTime,
  role: string,
  credentialType: oneOf(CREDENTIAL_TYPES),
  credentialSummary: nullable(SUMMARY_SCHEMA),
  outOfBandId: nullable(string),
  emailId: nullable(string),
  errorMessage: nullable(string),
  updatedAt: dateTime,
  revocationRegistryId: nullable(string),
  revocationIndex: nullable(integer),
  revoked: boolean,
  revocationStatus: nullable(oneOf(REVOCATION_STATUSES)),
  revokedAt: nullable(dateTime),
}

export const CREDENTIAL_RECORD_SCHEMA = object<CredentialRecordResponse>('IssuanceRecord', RECORD_PROPERTIES)

const AGENT_DETAIL_SCHEMA: DataSchema<CredentialRecordDetailResponse['agentDetail']> = unchecked(
  'IssuanceAgentDetail',
  {
    type: 'object',
    nullable: true,
    description: "The agent's exchange record and format data (offer, request, issued credential)",
    properties: { record: { type: 'object' }, formData: { type: 'object' } },
  },
)

export const CREDENTIAL_RECORD_DETAIL_SCHEMA = object<CredentialRecordDetailResponse>('IssuanceRecordDetail', {
  ...RECORD_PROPERTIES,
  agentDetail: AGENT_DETAIL_SCHEMA,
})

/** `POST credentials/oob/offer`: the invitation and the record it created. */
export interface OobOfferResponse {
  invitationUrl: string
  /** The platform's short link to the invitation (`isShortenUrl`), else null. */
  shortUrl: string | null
  outOfBandId: string
  invitation: Record<string, unknown>
  record: CredentialRecordResponse
}

export const OOB_OFFER_SCHEMA = object<OobOfferResponse>('OobCredentialOffer', {
  invitationUrl: string,
  shortUrl: nullable(string),
  outOfBandId: string,
  invitation: unchecked('OobInvitation', { type: 'object', description: 'The raw out-of-band invitation' }),
  record: CREDENTIAL_RECORD_SCHEMA,
})

/** `POST credentials/oob/email`: one entry per address. */
export interface EmailOfferResponse {
  emailId: string
  invitationUrl: string
  record: CredentialRecordResponse
}

export const EMAIL_OFFERS_SCHEMA = arrayOf(
  object<EmailOfferResponse>('EmailCredentialOffer', {
    emailId: string,
    invitationUrl: string,
    record: CREDENTIAL_RECORD_SCHEMA,
  }),
)

/** `POST revocations/publish`: what was published, one status list per registry. */
export const PUBLISHED_REVOCATIONS_SCHEMA = object<{
  revocationRegistryId: string
  revokedIndices: number[]
  credentialRecordIds: string[]
}>('PublishedRevocations', {
  revocationRegistryId: string,
  revokedIndices: arrayOf(integer),
  credentialRecordIds: arrayOf(string),
})
