import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  nullable,
  object,
  optional,
  string,
  unchecked,
  uuid,
} from '../../../infra/http/data-schema'
import type { ProofRecord } from '../proof.entity'

/** A proof record as the API shows it (spec: Proof record, plus the fields docs/decisions.md "Proofs" lists). */
export interface ProofResponse {
  id: string
  state: string
  role: string
  connectionId: string | null
  threadId: string
  protocolVersion: string
  isVerified: boolean | null
  errorMessage: string | null
  outOfBandId: string | null
  requestType: string | null
  createdAt: string
  updatedAt: string
}

/** `GET /orgs/:orgId/proofs/:proofId`: the record and what was exchanged, from the agent. */
export interface ProofDetailResponse extends ProofResponse {
  /** The request and the submitted presentation (Credo's format data), null when the agent no longer has them. */
  proofData: Record<string, unknown> | null
}

/** `GET /orgs/:orgId/verified-proofs/:proofId`. */
export interface VerifiedProofResponse {
  proofId: string
  state: string
  /** true or false once a presentation was checked; null before. */
  isVerified: boolean | null
  /** `verified`, `not-verified` or `pending`. */
  verificationStatus: string
  errorMessage: string | null
  /** The `credentialSubject` of each presented credential; AnonCreds: one object of every revealed value. */
  revealed: Record<string, unknown>[]
  /** AnonCreds: each revealed attribute by referent (empty for Presentation Exchange). */
  revealedAttributes: { referent: string; name: string; value: string }[]
  /** AnonCreds: each group of attributes revealed from one credential. */
  revealedAttributeGroups: { referent: string; values: Record<string, string> }[]
  /** AnonCreds: what each predicate states (`age >= 18`); the value itself stays hidden. */
  predicates: {
    referent: string
    name: string
    condition: string
    value: number
    statement: string
    /** true once the presentation verified; false when it did not (or before). */
    satisfied: boolean
  }[]
  /**
   * AnonCreds: the `non_revoked` interval the request asked for (seconds since the epoch), and each presented
   * credential whose non-revocation was proven, with the time of the registry's status list it was proven against
   * (empty when the request asked for none). Presentation Exchange: `statusLists`, each W3C Bitstring Status List
   * entry of the presented credentials that the verification checked.
   */
  revocationChecks: RevocationChecks
}

export interface RevocationChecks {
  nonRevoked: { from: number | null; to: number } | null
  credentials: {
    credentialDefinitionId: string
    revocationRegistryId: string
    statusListTimestamp: number
    checkedAt: string
  }[]
  /**
   * Presentation Exchange proofs only (absent for AnonCreds): each `BitstringStatusListEntry` of the presented
   * credentials, checked when the presentation was verified (empty before, and when no credential carries one).
   */
  statusLists?: StatusListCheck[]
}

export interface StatusListCheck {
  /** The presented credential's `id`, null when it has none. */
  credentialId: string | null
  issuer: string | null
  statusListCredential: string
  statusListIndex: number
  statusPurpose: string
}

/** One out-of-band request of `POST /orgs/:orgId/proofs/oob`. */
export interface OobProofResponse {
  /** The address it was mailed to, when `emailId` was given. */
  email?: string
  /** The short URL unless `isShortenUrl` is false. */
  invitationUrl: string
  /** The full `?oob=` URL. */
  longInvitationUrl: string
  outOfBandId: string
  proofRecord: ProofResponse
}

export interface DeletedProofsResponse {
  deletedRecords: number
}

export function toProofResponse(record: ProofRecord): ProofResponse {
  return {
    id: record.id,
    state: record.state,
    role: record.role,
    connectionId: record.connectionId ?? null,
    threadId: record.threadId,
    protocolVersion: record.protocolVersion,
    isVerified: record.isVerified ?? null,
    errorMessage: record.errorMessage ?? null,
    outOfBandId: record.outOfBandId ?? null,
    requestType: record.requestType ?? null,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  }
}

const PROOF_PROPERTIES = {
  id: uuid,
  state: string,
  role: string,
  connectionId: nullable(string),
  threadId: string,
  protocolVersion: string,
  isVerified: nullable(boolean),
  errorMessage: nullable(string),
  outOfBandId: nullable(string),
  requestType: nullable(string),
  createdAt: dateTime,
  updatedAt: dateTime,
}

export const PROOF_SCHEMA = object<ProofResponse>('ProofRecord', PROOF_PROPERTIES)

const JSON_OBJECT = unchecked<Record<string, unknown>>('JsonObject', { type: 'object', additionalProperties: true })

export const PROOF_DETAIL_SCHEMA = object<ProofDetailResponse>('ProofRecordWithData', {
  ...PROOF_PROPERTIES,
  proofData: nullable(JSON_OBJECT),
})

export const VERIFIED_PROOF_SCHEMA = object<VerifiedProofResponse>('VerifiedProof', {
  proofId: uuid,
  state: string,
  isVerified: nullable(boolean),
  verificationStatus: string,
  errorMessage: nullable(string),
  revealed: arrayOf(JSON_OBJECT),
  revealedAttributes: arrayOf(object('RevealedAttribute', { referent: string, name: string, value: string })),
  revealedAttributeGroups: arrayOf(
    object('RevealedAttributeGroup', {
      referent: string,
      values: unchecked<Record<string, string>>('RevealedValues', {
        type: 'object',
        additionalProperties: { type: 'string' },
      }),
    }),
  ),
  predicates: arrayOf(
    object('ProvenPredicate', {
      referent: string,
      name: string,
      condition: string,
      value: integer,
      statement: string,
      satisfied: boolean,
    }),
  ),
  revocationChecks: object<RevocationChecks>('RevocationChecks', {
    nonRevoked: nullable(object('NonRevokedInterval', { from: nullable(integer), to: integer })),
    credentials: arrayOf(
      object('RevocationCheck', {
        credentialDefinitionId: string,
        revocationRegistryId: string,
        statusListTimestamp: integer,
        checkedAt: dateTime,
      }),
    ),
    statusLists: optional(
      arrayOf(
        object<StatusListCheck>('StatusListCheck', {
          credentialId: nullable(string),
          issuer: nullable(string),
          statusListCredential: string,
          statusListIndex: integer,
          statusPurpose: string,
        }),
      ),
    ),
  }),
})

export const OOB_PROOF_SCHEMA = object<OobProofResponse>('OobProofRequest', {
  email: optional(string),
  invitationUrl: string,
  longInvitationUrl: string,
  outOfBandId: string,
  proofRecord: PROOF_SCHEMA,
})

export const DELETED_PROOFS_SCHEMA = object<DeletedProofsResponse>('DeletedProofRecords', { deletedRecords: integer })
