import { ledgerSigningBytes } from '@idplane/common/agent-contract/ledger'
import { GENESIS_PREV_HASH, transactionHash, verifyEd25519 } from './ledger-crypto'
import type { StoredTransaction } from './ledger.repository'

export interface ChainCheck {
  isValid: boolean
  checked: number
  firstInvalid?: { seqNo: number; reason: string }
}

/** What the chain check reads: pages of transactions, the NYMs (keys) and the DIDs' bindings up to a point. */
export interface ChainSource {
  list(from: number, limit: number): Promise<StoredTransaction[]>
  findBySeqNo(seqNo: number): Promise<StoredTransaction | undefined>
  nymsUpTo(to: number): Promise<StoredTransaction[]>
  /** Each DID's latest transaction (its NYM or one it authored) before `seqNo`. */
  lastSeqNosBefore(seqNo: number): Promise<Map<string, number>>
}

const PAGE = 500

/** What the walk knows of the transactions before the one it checks. */
interface WalkState {
  previous: StoredTransaction | undefined
  verkeys: Map<string, { seqNo: number; verkey: string }>
  lastSeqNos: Map<string, number>
}

/**
 * Walks seq numbers `from`..`to` recomputing each hash, the link to the previous hash, the gap-free numbering, the
 * author's signature (with the verkey of the author's NYM written before it; the genesis NYM signs itself) and the
 * author's binding (a transaction's lastSeqNo is its author's previous transaction: no replay was appended).
 * Shared by `GET /v1/ledger/verify` and `npm run ledger:verify`.
 */
export async function verifyChain(
  source: ChainSource,
  namespace: string,
  range: { from: number; to?: number },
): Promise<ChainCheck> {
  const from = range.from
  const previous = from > 1 ? await source.findBySeqNo(from - 1) : undefined
  if (from > 1 && !previous) return { isValid: true, checked: 0 }
  const state: WalkState = { previous, verkeys: new Map(), lastSeqNos: new Map() }
  const to = range.to ?? Number.MAX_SAFE_INTEGER
  // Keys and bindings of authors whose first transaction in range was preceded by others; the walk adds its own.
  if (from > 1) {
    for (const nym of await source.nymsUpTo(from - 1)) rememberNym(state.verkeys, nym)
    state.lastSeqNos = await source.lastSeqNosBefore(from)
  }
  let checked = 0
  let expected = from
  for (;;) {
    const page = await source.list(expected, Math.min(PAGE, to - expected + 1))
    for (const txn of page) {
      const reason = problemOf(txn, expected, state, namespace)
      if (reason) return { isValid: false, checked, firstInvalid: { seqNo: txn.seqNo, reason } }
      remember(state, txn)
      expected += 1
      checked += 1
    }
    if (page.length < PAGE || expected > to) return { isValid: true, checked }
  }
}

function remember(state: WalkState, txn: StoredTransaction): void {
  if (txn.type === 'NYM') {
    rememberNym(state.verkeys, txn)
    if (txn.objectId) state.lastSeqNos.set(txn.objectId, txn.seqNo)
  }
  state.lastSeqNos.set(txn.authorDid, txn.seqNo)
  state.previous = txn
}

function rememberNym(verkeys: Map<string, { seqNo: number; verkey: string }>, nym: StoredTransaction): void {
  const { dest, verkey } = nym.payload as { dest?: unknown; verkey?: unknown }
  if (typeof dest === 'string' && typeof verkey === 'string' && !verkeys.has(dest)) {
    verkeys.set(dest, { seqNo: nym.seqNo, verkey })
  }
}

function problemOf(
  txn: StoredTransaction,
  expectedSeqNo: number,
  state: WalkState,
  namespace: string,
): string | undefined {
  if (txn.seqNo !== expectedSeqNo) return `seqNo ${expectedSeqNo} is missing (next stored is ${txn.seqNo})`
  const expectedPrev = state.previous ? state.previous.hash : GENESIS_PREV_HASH
  if (txn.prevHash !== expectedPrev) return 'prevHash does not match the previous transaction hash'
  if (transactionHash(txn) !== txn.hash) return 'hash does not match the transaction contents'
  const isGenesis = txn.seqNo === 1
  const verkey = isGenesis ? (txn.payload as { verkey?: unknown }).verkey : state.verkeys.get(txn.authorDid)?.verkey
  if (typeof verkey !== 'string') return `author ${txn.authorDid} has no NYM before this transaction`
  const bytes = ledgerSigningBytes({
    namespace,
    type: txn.type,
    authorDid: txn.authorDid,
    payload: txn.payload,
    lastSeqNo: txn.lastSeqNo ?? undefined,
  })
  if (!verifyEd25519(bytes, txn.signature, verkey)) return 'signature does not verify with the author verkey'
  const authorLast = state.lastSeqNos.get(txn.authorDid) ?? 0
  if (txn.lastSeqNo !== null && txn.lastSeqNo !== authorLast) {
    return `lastSeqNo ${txn.lastSeqNo} is not the author's previous transaction (${authorLast}): a replayed request`
  }
  return undefined
}
