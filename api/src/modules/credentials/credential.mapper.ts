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
    | 'statusListId'
    | 'statusListIndex'
    | 'statusPurpose'
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
  'statusListId',
  'statusListIndex',
  'statusPurpose',
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

/** Credo's metadata key for the AnonCreds facts of an exchange (`AnonCredsCredentialMetadataKey`). */
const ANONCREDS_METADATA_KEY = '_anoncreds/credential'

/**
 * The registry and index an AnonCreds exchange issues into, from the record's metadata: Credo's AnonCreds format
 * writes them when the offer is made, so an agent event carries them even when the offer route never recorded its
 * answer (the API killed between the agent's answer and its commit). Without them such a record could not be
 * revoked. Pure.
 */
function revocationOf(
  record: Record<string, unknown>,
): Pick<RecordDetails, 'revocationRegistryId' | 'revocationIndex'> {
  const metadata = record.metadata
  if (typeof metadata !== 'object' || metadata === null) return {}
  const anoncreds = (metadata as Record<string, unknown>)[ANONCREDS_METADATA_KEY]
  if (typeof anoncreds !== 'object' || anoncreds === null) return {}
  const { revocationRegistryId, credentialRevocationId } = anoncreds as Record<string, unknown>
  const registry = text(revocationRegistryId, 2048)
  const index = typeof credentialRevocationId === 'string' && /^[1-9]\d{0,8}$/.test(credentialRevocationId)
  if (!registry || !index) return {}
  return { revocationRegistryId: registry, revocationIndex: Number(credentialRevocationId) }
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
      ...revocationOf(record),
    },
  }
}
