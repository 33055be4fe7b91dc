import type { ExchangeMapper } from '../../infra/records/exchange-records'
import { textOf, versionTimeOf } from '../../infra/records/record-order'
import { WALLET_RECORD_LIMITS, type WalletRecord, type WalletRecordKind } from './wallet-record.entity'

/** The columns of a wallet's record an agent record gives. */
export type WalletRecordFields = Pick<
  WalletRecord,
  'state' | 'connectionId' | 'threadId' | 'agentCreatedAt' | 'agentUpdatedAt' | 'record'
>

/** The "state" of a basic message (it has none): its direction, which never changes. */
export function walletMessageDirectionOf(record: Record<string, unknown>): 'sent' | 'received' {
  return record.role === 'sender' ? 'sent' : 'received'
}

/**
 * The mapper of one wallet record kind: a record needs an id, and one of an exchange kind a state. A basic message's
 * version is its creation (it never changes: a second report of it is a repeat). Pure.
 */
export function walletReportMapper(kind: WalletRecordKind): ExchangeMapper<WalletRecordFields> {
  return (record, occurredAt) => {
    const recordId = textOf(record, 'id', WALLET_RECORD_LIMITS.id)
    if (!recordId) return null
    const agentUpdatedAt = versionTimeOf(record, occurredAt)
    const agentCreatedAt = versionTimeOf({ createdAt: record.createdAt }, agentUpdatedAt.toISOString())
    const fields = {
      connectionId: textOf(record, 'connectionId', WALLET_RECORD_LIMITS.id),
      threadId: textOf(record, 'threadId', WALLET_RECORD_LIMITS.id),
      agentCreatedAt,
      agentUpdatedAt,
      // NUL characters (which PostgreSQL json cannot hold) never get here: every JSON body refuses them.
      record,
    }
    if (kind === 'basic-message') {
      return {
        recordId,
        state: walletMessageDirectionOf(record),
        versionAt: agentCreatedAt,
        fields: { ...fields, state: null },
      }
    }
    const state = textOf(record, 'state', WALLET_RECORD_LIMITS.state)
    if (!state) return null
    return { recordId, state, versionAt: agentUpdatedAt, fields: { ...fields, state } }
  }
}
