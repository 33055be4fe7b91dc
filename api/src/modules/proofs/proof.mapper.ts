import type { ExchangeReport } from '../../infra/records/exchange-records'
import type { ProofFields } from './proofs.repository'
import { PROOF_STATE_RANK } from './proof.states'

/** A proof report's columns, and what the creating request knows of the record (the agent's events do not). */
export interface ProofReportFields extends ProofFields {
  requestType?: string
  outOfBandId?: string
}

/**
 * A Credo proof exchange record's JSON as a report; null when it lacks what identifies it (a UUID id, a state,
 * a thread) or its state is unknown (record-order: an unknown state creates nothing). Pure.
 */
export function proofReportOf(
  record: Record<string, unknown>,
  occurredAt: string,
): ExchangeReport<ProofReportFields> | null {
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined)
  const id = text(record.id)
  const state = text(record.state)?.slice(0, 30)
  const threadId = text(record.threadId)
  if (!id || !state || !threadId || !/^[0-9a-f-]{36}$/i.test(id)) return null
  if (PROOF_STATE_RANK[state] === undefined) return null
  const instant = (value: unknown) => {
    const time = typeof value === 'string' ? Date.parse(value) : Number.NaN
    return Number.isNaN(time) ? undefined : new Date(time)
  }
  const updatedAt = instant(record.updatedAt) ?? instant(occurredAt) ?? new Date()
  return {
    recordId: id,
    state,
    versionAt: updatedAt,
    fields: {
      id,
      state,
      role: (text(record.role) ?? 'verifier').slice(0, 20),
      connectionId: text(record.connectionId)?.slice(0, 100) ?? null,
      threadId: threadId.slice(0, 200),
      protocolVersion: (text(record.protocolVersion) ?? 'v2').slice(0, 10),
      isVerified: typeof record.isVerified === 'boolean' ? record.isVerified : null,
      errorMessage: text(record.errorMessage)?.slice(0, 4000) ?? null,
      createdAt: instant(record.createdAt) ?? updatedAt,
      agentUpdatedAt: updatedAt,
    },
  }
}
