import type { ExchangeReport } from '../../infra/records/exchange-records'
import type { CredentialRecord } from './credential.entity'
import { isKnownState } from './credential.states'

/** What the platform adds to a record it created itself (offer routes), never overwritten by events. */
export type RecordDetails = Partial<
  Pick<
    CredentialRecord,
    | 'credentialSummary'
    | 'schemaId'
    | 'credentialDefinitionId'
    | 'outOfBandId'
    | 'emailId'
    | 'credentialType'
    | 'revocationRegistryId'
    | 'revocationIndex'
  >
>

/** The keys of RecordDetails (what the write fills in from an offer route). */
export const RECORD_DETAIL_KEYS = [
  'credentialSummary',
  'schemaId',
  'credentialDefinitionId',
  'outOfBandId',
  'emailId',
  'credentialType',
  'revocationRegistryId',
  'revocationIndex',
] as const satisfies readonly (keyof RecordDetails)[]

/** The agent's view of one exchange (a Credo credential exchange record), and the offer route's details. */
export interface IssuanceFields extends RecordDetails {
  createdAt?: Date
  role?: string
  connectionId: string | null
  threadId: string | null
  protocolVersion: string | null
  errorMessage: string | null
}

function text(value: unknown, maxLength: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength ? value : undefined
}

function instant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/**
 * A Credo credential exchange record's JSON as a report; null when it names no record or a state this module does
 * not know (nothing to apply). Its version is its `updatedAt` (its `createdAt` for a new one, or the event's time).
 * Pure.
 */
export function issuanceReportOf(
  record: Record<string, unknown>,
  occurredAt: string,
): ExchangeReport<IssuanceFields> | null {
  const recordId = text(record.id, 100)
  const state = text(record.state, 40)
  if (!recordId || !state || !isKnownState(state)) return null
  return {
    recordId,
    state,
    versionAt: instant(record.updatedAt) ?? instant(record.createdAt) ?? instant(occurredAt) ?? new Date(),
    fields: {
      createdAt: instant(record.createdAt),
      role: text(record.role, 20),
      connectionId: text(record.connectionId, 100) ?? null,
      threadId: text(record.threadId, 100) ?? null,
      protocolVersion: text(record.protocolVersion, 10) ?? null,
      errorMessage: typeof record.errorMessage === 'string' ? record.errorMessage.slice(0, 10_000) : null,
    },
  }
}
