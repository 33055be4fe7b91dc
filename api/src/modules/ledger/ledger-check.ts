import { checkAnchor, type AnchorCheck, type ChainPosition, type StoredAnchor } from './ledger-anchor'
import { verifyChain, type ChainCheck, type ChainSource } from './ledger-chain'
import {
  checkReferences,
  type LedgerObjectSource,
  type LedgerReferenceSource,
  type ReferenceCheck,
} from './ledger-references'
import type { StoredTransaction } from './ledger.repository'

/**
 * The whole check of `GET /v1/ledger/verify` and `npm run ledger:verify`: the chain, and (when the range reaches the
 * head) the signed anchor and the records that point at the ledger. `isValid` holds only when every part does.
 */
export interface LedgerCheck extends ChainCheck {
  anchor?: AnchorCheck
  references?: ReferenceCheck
}

/** What the check reads, and the trustee this platform holds the key of. */
export interface LedgerCheckSources {
  ledger: ChainSource &
    LedgerObjectSource & {
      headAndAnchor(): Promise<{ head?: ChainPosition; anchor?: StoredAnchor }>
      findBySeqNo(seqNo: number): Promise<StoredTransaction | undefined>
    }
  references: LedgerReferenceSource
  namespace: string
  trustee: { did: string; verkey: string }
}

export async function checkLedger(
  sources: LedgerCheckSources,
  range: { from: number; to?: number },
): Promise<LedgerCheck> {
  const chain = await verifyChain(sources.ledger, sources.namespace, range)
  // A range that stops before the head checks that stretch of the chain only.
  if (range.to !== undefined) return chain
  const anchor = await checkLedgerAnchor(sources)
  const references = await checkReferences(sources.references, sources.ledger, sources.namespace)
  return { ...chain, isValid: chain.isValid && anchor.isValid && references.isValid, anchor, references }
}

/** The anchor against the head (one snapshot), and the genesis against the trustee whose key signs anchors. */
export async function checkLedgerAnchor(sources: Omit<LedgerCheckSources, 'references'>): Promise<AnchorCheck> {
  const { head, anchor } = await sources.ledger.headAndAnchor()
  const check = checkAnchor({ namespace: sources.namespace, trusteeVerkey: sources.trustee.verkey, head, anchor })
  if (!check.isValid) return check
  const genesis = head ? await sources.ledger.findBySeqNo(1) : undefined
  if (genesis && genesis.authorDid !== sources.trustee.did) {
    return {
      ...check,
      isValid: false,
      reason: `the genesis names trustee ${genesis.authorDid}, not this platform's trustee ${sources.trustee.did}`,
    }
  }
  return check
}
