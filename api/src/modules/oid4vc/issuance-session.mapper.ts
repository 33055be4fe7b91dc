import type { ExchangeReport } from '../../infra/records/exchange-records'
import { sessionIdentityOf, textOf, versionTimeOf } from '../../infra/records/record-order'
import type { Oid4vcOfferResponse } from './dto/oid4vc.response'
import type { IssuanceSessionRecord } from './issuance-session.entity'
import { ISSUANCE_SESSION_STATE_RANK } from './issuance-session.states'
import { toOfferResponse } from './oid4vc.mapper'

/** What the platform keeps of an issuance session: the offer's public facts, never its codes, tokens or nonces. */
export interface IssuanceSessionFields {
  id: string
  issuerId: string
  state: string
  credentialConfigurationIds: string[]
  issuedCredentials: string[]
  isPreAuthorized: boolean
  hasTxCode: boolean
  errorMessage: string | null
  expiresAt: Date | null
  createdAt: Date
  agentUpdatedAt: Date
}

/** The offer grant whose presence makes an offer pre-authorized (OID4VCI 1.0, 4.1.1). */
const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code'

/**
 * A Credo issuance session record's JSON (as the agent's event carries it) as a report; null when it lacks a UUID
 * id, an issuer or a known state. Picks the listed fields only, so no code the record might still hold is copied.
 * Pure.
 */
export function issuanceSessionReportOf(
  record: Record<string, unknown>,
  occurredAt: string,
): ExchangeReport<IssuanceSessionFields> | null {
  const identity = sessionIdentityOf(record, 'issuerId', ISSUANCE_SESSION_STATE_RANK)
  if (!identity) return null
  const { id, ownerId: issuerId, state } = identity
  const versionAt = versionTimeOf(record, occurredAt)
  const offer = objectOf(record.credentialOfferPayload)
  const preAuthorized = objectOf(objectOf(offer?.grants)?.[PRE_AUTHORIZED_GRANT])
  return {
    recordId: id,
    state,
    versionAt,
    fields: {
      id,
      issuerId,
      state,
      credentialConfigurationIds: stringsOf(offer?.credential_configuration_ids),
      issuedCredentials: stringsOf(record.issuedCredentials),
      isPreAuthorized: preAuthorized !== undefined,
      hasTxCode: preAuthorized?.tx_code !== undefined,
      errorMessage: textOf(record, 'errorMessage', 4000),
      expiresAt: instantOf(record.expiresAt),
      createdAt: instantOf(record.createdAt) ?? versionAt,
      agentUpdatedAt: versionAt,
    },
  }
}

/** The row as the offer routes show an offer (`GET .../credential-offer/:id`): the webhook event's record. */
export function toIssuanceSessionEventRecord(row: IssuanceSessionRecord): Oid4vcOfferResponse {
  return toOfferResponse({
    id: row.id,
    issuerId: row.issuerId,
    state: row.state,
    credentialConfigurationIds: row.credentialConfigurationIds,
    issuedCredentials: row.issuedCredentials,
    isPreAuthorized: row.isPreAuthorized,
    hasTxCode: row.hasTxCode,
    errorMessage: row.errorMessage ?? undefined,
    expiresAt: row.expiresAt?.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.agentUpdatedAt.toISOString(),
  })
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}

/** The strings of a JSON array (at most 100, each cut to 200 characters); empty when it is none. */
function stringsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  return value
    .filter((entry): entry is string => typeof entry === 'string')
    .slice(0, 100)
    .map((entry) => entry.slice(0, 200))
}

function instantOf(value: unknown): Date | null {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN
  return Number.isNaN(time) ? null : new Date(time)
}
