import { ledgerSigningBytes } from '@idplane/common/agent-contract/ledger'
import { GENESIS_PREV_HASH, transactionHash, verifyEd25519 } from './ledger-crypto'
import type { StoredTransaction } from './ledger.repository'

export interface ChainCheck {
  isValid: boolean
  checked: number
  firstInvalid?: { seqNo: number; reason: string }
}

/** What the chain check reads: pages of transactions and the NYMs (keys) written up to a point. */
export interface ChainSource {
  list(from: number, limit: number): Promise<StoredTransaction[]>
  findBySeqNo(seqNo: number): Promise<StoredTransaction | undefined>
  nymsUpTo(to: number): Promise<StoredTransaction[]>
}

const PAGE = 500

/**
 * Walks seq numbers `from`..`to` recomputing each hash, the link to the previous hash, the gap-free numbering and
 * the author's signature (with the verkey of the author's NYM written before it; the genesis NYM signs itself).
 * Shared by `GET /v1/ledger/verify` and `npm run ledger:verify`.
 */
export async function verifyChain(
  source: ChainSource,
  namespace: string,
  range: { from: number; to?: number },
): Promise<ChainCheck> {
  const from = range.from
  let previous = from > 1 ? await source.findBySeqNo(from - 1) : undefined
  if (from > 1 && !previous) return { isValid: true, checked: 0 }
  const verkeys = new Map<string, { seqNo: number; verkey: string }>()
  const to = range.to ?? Number.MAX_SAFE_INTEGER
  // NYMs before `from` give the keys of authors whose first write is in range; later NYMs are added as walked.
  if (from > 1) for (const nym of await source.nymsUpTo(from - 1)) rememberNym(verkeys, nym)
  let checked = 0
  let expected = from
  for (;;) {
    const page = await source.list(expected, Math.min(PAGE, to - expected + 1))
    for (const txn of page) {
      const reason = problemOf(txn, expected, previous, verkeys, namespace)
      if (reason) return { isValid: false, checked, firstInvalid: { seqNo: txn.seqNo, reason } }
      if (txn.type === 'NYM') rememberNym(verkeys, txn)
      previous = txn
      expected += 1
      checked += 1
    }
    if (page.length < PAGE || expected > to) return { isValid: true, checked }
  }
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
  previous: StoredTransaction | undefined,
  verkeys: Map<string, { seqNo: number; verkey: string }>,
  namespace: string,
): string | undefined {
  if (txn.seqNo !== expectedSeqNo) return `seqNo ${expectedSeqNo} is missing (next stored is ${txn.seqNo})`
  const expectedPrev = previous ? previous.hash : GENESIS_PREV_HASH
  if (txn.prevHash !== expectedPrev) return 'prevHash does not match the previous transaction hash'
  if (transactionHash(txn) !== txn.hash) return 'hash does not match the transaction contents'
  const isGenesis = txn.seqNo === 1
  const verkey = isGenesis ? (txn.payload as { verkey?: unknown }).verkey : verkeys.get(txn.authorDid)?.verkey
  if (typeof verkey !== 'string') return `author ${txn.authorDid} has no NYM before this transaction`
  const bytes = ledgerSigningBytes({ namespace, type: txn.type, authorDid: txn.authorDid, payload: txn.payload })
  if (!verifyEd25519(bytes, txn.signature, verkey)) return 'signature does not verify with the author verkey'
  return undefined
}
