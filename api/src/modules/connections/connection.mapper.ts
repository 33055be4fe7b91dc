import type { ExchangeReport } from '../../infra/records/exchange-records'
import { textOf, versionTimeOf } from '../../infra/records/record-order'
import { CONNECTION_TEXT_LIMITS, type Connection } from './connection.entity'

/** The columns a Credo connection record's JSON gives. */
export type ConnectionFields = Omit<Connection, 'organization' | 'id' | 'createdAt' | 'updatedAt' | 'connectionId'>

/** A Credo connection record's JSON as a report; null without an id or a state. Pure. */
export function connectionReportOf(
  record: Record<string, unknown>,
  occurredAt: string,
): ExchangeReport<ConnectionFields> | null {
  const recordId = textOf(record, 'id', CONNECTION_TEXT_LIMITS.id)
  const state = textOf(record, 'state', CONNECTION_TEXT_LIMITS.state)
  if (!recordId || !state) return null
  const versionAt = versionTimeOf(record, occurredAt)
  return {
    recordId,
    state,
    versionAt,
    fields: {
      state,
      role: textOf(record, 'role', CONNECTION_TEXT_LIMITS.role),
      did: textOf(record, 'did', CONNECTION_TEXT_LIMITS.did),
      theirDid: textOf(record, 'theirDid', CONNECTION_TEXT_LIMITS.did),
      theirLabel: textOf(record, 'theirLabel', CONNECTION_TEXT_LIMITS.label),
      alias: textOf(record, 'alias', CONNECTION_TEXT_LIMITS.label),
      autoAcceptConnection: typeof record.autoAcceptConnection === 'boolean' ? record.autoAcceptConnection : null,
      protocol: textOf(record, 'protocol', CONNECTION_TEXT_LIMITS.protocol),
      outOfBandId: textOf(record, 'outOfBandId', CONNECTION_TEXT_LIMITS.id),
      threadId: textOf(record, 'threadId', CONNECTION_TEXT_LIMITS.id),
      agentCreatedAt: agentCreatedAt(record, versionAt),
      agentUpdatedAt: versionAt,
    },
  }
}

/** When the agent created the record; its version time when the record does not say. */
function agentCreatedAt(record: Record<string, unknown>, versionAt: Date): Date {
  const createdAt = typeof record.createdAt === 'string' ? Date.parse(record.createdAt) : Number.NaN
  return Number.isNaN(createdAt) ? versionAt : new Date(createdAt)
}
