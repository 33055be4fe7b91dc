import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { type Opt } from '@mikro-orm/core'
import type { StatusPurpose } from '@idplane/common/bitstring-status-list'
import { BaseEntity } from '../../infra/db/base.entity'
import { Organization } from '../orgs/organization.entity'

/** Credential formats of the spec's `credentialType`: INDY (AnonCreds) and JSONLD (W3C). */
export const CREDENTIAL_TYPES = ['INDY', 'JSONLD'] as const
export type CredentialType = (typeof CREDENTIAL_TYPES)[number]
/**
 * Types of the issuance records of OpenID4VC offers with a Token Status List entry: an SD-JWT VC or an mdoc (the
 * record exists so the revoke route can find it; docs/decisions.md, "Token Status List").
 */
export const OPENID4VC_RECORD_TYPES = ['SD_JWT', 'MDOC'] as const
export type OpenId4VcRecordType = (typeof OPENID4VC_RECORD_TYPES)[number]
/** What an issuance record holds: the DIDComm types and the OpenID4VC ones. */
export const RECORD_CREDENTIAL_TYPES = [...CREDENTIAL_TYPES, ...OPENID4VC_RECORD_TYPES] as const
export type RecordCredentialType = (typeof RECORD_CREDENTIAL_TYPES)[number]

export function isOpenId4VcRecordType(type: RecordCredentialType): type is OpenId4VcRecordType {
  return (OPENID4VC_RECORD_TYPES as readonly string[]).includes(type)
}

/** What the platform keeps of the offered credential: enough to recognise it in a list, no attribute values. */
export interface CredentialSummary {
  /** The credential's `type` values, `VerifiableCredential` first as written. */
  types: string[]
  issuer: string | null
  /** Names of the `credentialSubject` claims (values stay in the agent's wallet and the holder's). */
  attributeNames: string[]
}

/**
 * An AnonCreds credential's revocation: `pending` once asked for (recorded before the agent publishes it, so a retry
 * or `revocations/publish` finishes it after a crash), `revoked` once its registry's status list with it is on the
 * ledger.
 */
export const REVOCATION_STATUSES = ['pending', 'revoked'] as const
export type RevocationStatus = (typeof REVOCATION_STATUSES)[number]

/**
 * A JSON-LD credential's suspension (status purpose `suspension`): `pending` (asked for, its status list not yet
 * re-signed), `suspended` (published), `reinstating` (reinstatement asked for, the served list still says suspended);
 * null when not suspended.
 */
export const SUSPENSION_STATUSES = ['pending', 'suspended', 'reinstating'] as const
export type SuspensionStatus = (typeof SUSPENSION_STATUSES)[number]

/**
 * One credential exchange of the organization's agent (spec: Credential issuance record), kept up to date from
 * the agent's `credential` events (credential-records.ts). `credentialRecordId` is the agent's exchange
 * record id, which the API shows as the record's `id`.
 */
@Entity({ tableName: 'issuance_records' })
@Unique({ properties: ['organization', 'credentialRecordId'] })
@Index({ properties: ['organization', 'createdAt'] })
@Index({ properties: ['organization', 'revocationStatus'] })
export class CredentialRecord extends BaseEntity {
  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization

  @Property({ type: 'string', length: 100 })
  credentialRecordId!: string

  @Property({ type: 'string', length: 40 })
  state!: string

  /** `issuer` for offers this platform made; `holder` when the organization's agent received one. */
  @Property({ type: 'string', length: 20 })
  role: Opt<string> = 'issuer'

  @Property({ type: 'string', length: 100, nullable: true })
  connectionId?: string | null

  @Property({ type: 'string', length: 100, nullable: true })
  threadId?: string | null

  @Property({ type: 'string', length: 10, nullable: true })
  protocolVersion?: string | null

  @Property({ type: 'string', length: 10 })
  credentialType: Opt<RecordCredentialType> = 'JSONLD'

  /** INDY only; always null for JSON-LD credentials. */
  @Property({ type: 'string', length: 300, nullable: true })
  credentialDefinitionId?: string | null

  /** JSON-LD: the `credentialSchema.id` the credential names, when it names one. */
  @Property({ type: 'string', length: 2000, nullable: true })
  schemaId?: string | null

  @Property({ type: 'json', columnType: 'jsonb', nullable: true })
  credentialSummary?: CredentialSummary | null

  /** The out-of-band invitation that carried the offer (OOB and e-mail offers). */
  @Property({ type: 'string', length: 100, nullable: true })
  outOfBandId?: string | null

  /** The address an e-mail offer went to. */
  @Property({ type: 'string', length: 320, nullable: true })
  emailId?: string | null

  /** Why the exchange ended in `abandoned` or `declined` (the agent's or the holder's problem report). */
  @Property({ type: 'text', nullable: true })
  errorMessage?: string | null

  /** INDY against a revocable definition: the ledger id of the revocation registry the credential was issued into. */
  @Property({ type: 'string', length: 2048, nullable: true })
  revocationRegistryId?: string | null

  /** Its index in that registry (allocated by the API before the offer, never given to another credential). */
  @Property({ type: 'integer', nullable: true })
  revocationIndex?: number | null

  /** Null until a revocation is asked for (RevocationStatus). */
  @Property({ type: 'string', length: 16, nullable: true })
  revocationStatus?: RevocationStatus | null

  /** When the revocation was asked for. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revocationRequestedAt?: Date | null

  /** When the status list with the revocation was published. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revokedAt?: Date | null

  /** JSON-LD issued with a status (BitstringStatusListEntry): the status list's id (its URL ends with it). */
  @Property({ type: 'uuid', nullable: true })
  statusListId?: string | null

  /** Its index in that list, drawn at random among the free ones when the offer was made. */
  @Property({ type: 'integer', nullable: true })
  statusListIndex?: number | null

  /**
   * An OpenID4VC batch's further copies (an SD-JWT VC per holder key): their indices in the same list, one each, so a
   * verifier cannot link copies by their status; a status change applies to every copy. Null for one copy.
   */
  @Property({ type: 'json', columnType: 'jsonb', nullable: true })
  statusListCopyIndices?: number[] | null

  /** The entry's `statusPurpose`: `revocation` (revoke) or `suspension` (suspend and reinstate). */
  @Property({ type: 'string', length: 16, nullable: true })
  statusPurpose?: StatusPurpose | null

  /** Null unless suspended or asked to be (SuspensionStatus). */
  @Property({ type: 'string', length: 16, nullable: true })
  suspensionStatus?: SuspensionStatus | null

  /** When the status list with the suspension was published. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  suspendedAt?: Date | null

  /** The agent record's own `updatedAt` (or the event's time) of the last state applied: the ordering key. */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentUpdatedAt!: Date
}
