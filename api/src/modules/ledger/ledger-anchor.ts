import { canonicalJson } from '@idplane/common/agent-contract/ledger'
import { verifyEd25519 } from './ledger-crypto'

/** The anchor as stored: the head it names and the trustee's signature of it. */
export interface StoredAnchor {
  seqNo: number
  hash: string
  signature: string
  anchoredAt: string
}

/** A chain position: a transaction's seqNo and hash. */
export interface ChainPosition {
  seqNo: number
  hash: string
}

/** Whether the ledger's head is the one the platform anchored, and if not, why. */
export interface AnchorCheck {
  isValid: boolean
  /** What the anchor names, when there is one. */
  anchored?: ChainPosition
  /** The ledger's last transaction when checked. */
  head?: ChainPosition
  reason?: string
}

/** What the trustee signs to anchor the head (its own domain: never a transaction's signing bytes). */
export function ledgerAnchorBytes(namespace: string, head: ChainPosition): Buffer {
  return Buffer.from(canonicalJson({ namespace, type: 'ANCHOR', seqNo: head.seqNo, hash: head.hash }), 'utf8')
}

/**
 * Compares the head with the anchor and checks the anchor's signature with the trustee key this platform holds
 * (not with a key read from the database, which a database edit could replace). Pure: the caller reads head and
 * anchor in one snapshot.
 */
export function checkAnchor(input: {
  namespace: string
  trusteeVerkey: string
  head: ChainPosition | undefined
  anchor: StoredAnchor | undefined
}): AnchorCheck {
  const { head, anchor } = input
  const seen = {
    ...(head ? { head: { seqNo: head.seqNo, hash: head.hash } } : {}),
    ...(anchor ? { anchored: { seqNo: anchor.seqNo, hash: anchor.hash } } : {}),
  }
  const invalid = (reason: string): AnchorCheck => ({ isValid: false, ...seen, reason })
  if (!anchor) return head ? invalid('the ledger has no anchor') : { isValid: true }
  if (!verifyEd25519(ledgerAnchorBytes(input.namespace, anchor), anchor.signature, input.trusteeVerkey)) {
    return invalid(
      "the anchor's signature does not verify with this platform's trustee key (the anchor was changed, or " +
        'LEDGER_TRUSTEE_SEED, the secrets key or LEDGER_NAMESPACE changed)',
    )
  }
  if (!head) return invalid(`the ledger is empty but its anchor names seqNo ${anchor.seqNo}: every transaction is gone`)
  if (head.seqNo < anchor.seqNo) {
    return invalid(
      `transactions ${head.seqNo + 1}..${anchor.seqNo} are missing: the ledger ends at seqNo ${head.seqNo} but its ` +
        `anchor names seqNo ${anchor.seqNo}`,
    )
  }
  if (head.seqNo > anchor.seqNo) {
    return invalid(
      `transactions ${anchor.seqNo + 1}..${head.seqNo} were not written by the platform: its anchor names seqNo ` +
        `${anchor.seqNo}`,
    )
  }
  if (head.hash !== anchor.hash) return invalid(`transaction ${head.seqNo} is not the one the platform anchored`)
  return { isValid: true, ...seen }
}
