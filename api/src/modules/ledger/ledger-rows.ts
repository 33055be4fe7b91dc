import type { LedgerTransactionType } from '@idplane/common/agent-contract/ledger'
import type { StoredAnchor } from './ledger-anchor'

/** The ledger's rows as the database returns them, and how they become what the module works with. */

/** A transaction as stored and answered (txnTime as an ISO string: the form that is hashed). */
export interface StoredTransaction {
  seqNo: number
  type: LedgerTransactionType
  authorDid: string
  objectId: string | null
  payload: Record<string, unknown>
  signature: string
  /** The author's binding its signature covers; null on transactions written before bindings existed. */
  lastSeqNo: number | null
  prevHash: string
  hash: string
  txnTime: string
  requestedByOrgId: string | null
}

export interface TransactionRow {
  seq_no: string | number
  type: LedgerTransactionType
  author_did: string
  object_id: string | null
  payload: Record<string, unknown> | string
  signature: string
  last_seq_no: string | number | null
  prev_hash: string
  hash: string
  txn_time: Date | string
  requested_by_org_id: string | null
}

export interface HeadAndAnchorRow {
  head_seq_no: string | number | null
  head_hash: string | null
  anchor_seq_no: string | number | null
  anchor_hash: string | null
  anchor_signature: string | null
  anchored_at: Date | string | null
}

/** Every column of a transaction row, in the order inserts bind them. */
export const COLUMNS =
  'seq_no, type, author_did, object_id, payload, signature, last_seq_no, prev_hash, hash, txn_time, requested_by_org_id'

export function toTransaction(row: TransactionRow): StoredTransaction {
  return {
    seqNo: Number(row.seq_no),
    type: row.type,
    authorDid: row.author_did,
    objectId: row.object_id,
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload,
    signature: row.signature,
    lastSeqNo: row.last_seq_no === null ? null : Number(row.last_seq_no),
    prevHash: row.prev_hash,
    hash: row.hash,
    txnTime: new Date(row.txn_time).toISOString(),
    requestedByOrgId: row.requested_by_org_id,
  }
}

export function toAnchor(row: Partial<HeadAndAnchorRow>): StoredAnchor | undefined {
  if (row.anchor_seq_no == null || !row.anchor_hash || !row.anchor_signature || !row.anchored_at) return undefined
  return {
    seqNo: Number(row.anchor_seq_no),
    hash: row.anchor_hash,
    signature: row.anchor_signature,
    anchoredAt: new Date(row.anchored_at).toISOString(),
  }
}
