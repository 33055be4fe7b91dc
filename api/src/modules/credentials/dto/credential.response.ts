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
  RECORD_CREDENTIAL_TYPES,
  REVOCATION_STATUSES,
  SUSPENSION_STATUSES,
  type RevocationStatus,
  type SuspensionStatus,
  type CredentialSummary,
  type RecordCredentialType,
  type CredentialRecord,
} from '../credential.entity'
import { STATUS_PURPOSES, type StatusPurpose } from '@idplane/common/bitstring-status-list'

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
  credentialType: RecordCredentialType
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
  /** JSON-LD issued with a status: its status list's id and index and the entry's purpose (else null). */
  statusListId: string | null
  statusListIndex: number | null
  /** An OpenID4VC batch's further copies: their indices in the same list (else null). */
  statusListCopyIndices: number[] | null
  statusPurpose: StatusPurpose | null
  /** True once a suspension is published (a proof then fails until it is reinstated and published). */
  suspended: boolean
  /** `pending`, `suspended`, `reinstating` (reinstatement not yet published), or null. */
  suspensionStatus: SuspensionStatus | null
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
    statusListId: record.statusListId ?? null,
    statusListIndex: record.statusListIndex ?? null,
    statusListCopyIndices: record.statusListCopyIndices ?? null,
    statusPurpose: record.statusPurpose ?? null,
    suspended: record.suspensionStatus === 'suspended' || record.suspensionStatus === 'reinstating',
    suspensionStatus: record.suspensionStatus ?? null,
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
  credentialType: oneOf(RECORD_CREDENTIAL_TYPES),
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
  statusListId: nullable(string),
  statusListIndex: nullable(integer),
  statusListCopyIndices: nullable(arrayOf(integer)),
  statusPurpose: nullable(oneOf(STATUS_PURPOSES)),
  suspended: boolean,
  suspensionStatus: nullable(oneOf(SUSPENSION_STATUSES)),
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
  revocationRegistryId: string | null
  statusListCredential: string | null
  revokedIndices: number[]
  credentialRecordIds: string[]
}>('PublishedRevocations', {
  revocationRegistryId: nullable(string),
  statusListCredential: nullable(string),
  revokedIndices: arrayOf(integer),
  credentialRecordIds: arrayOf(string),
})
