import { injectable } from 'inversify'
import { ConflictError, InvalidInputError, Logger } from '@idplane/common'
import { checkAnchor, ledgerAnchorBytes, type AnchorCheck, type ChainPosition } from './ledger-anchor'
import { verifyChain } from './ledger-chain'
import { checkLedger, checkLedgerAnchor, type LedgerCheck, type LedgerCheckSources } from './ledger-check'
import { LedgerWritesRefusedError } from './ledger-errors'
import { LedgerReferencesRepository } from './ledger-references.repository'
import { LedgerTrustee } from './ledger-trustee'
import type { LedgerInfo } from './ledger-views'
import {
  LedgerRepository,
  type ChainHeadSession,
  type NewTransaction,
  type StoredTransaction,
} from './ledger.repository'

/** Retry-After of a refused write: the anchor is mended by an operator, not by waiting. */
const REFUSED_RETRY_AFTER_SECONDS = 300

/**
 * The chain head and its integrity (docs/decisions.md, "Ledger anchor (issue 23)"): the genesis, the trustee-signed
 * anchor that moves with every append, the check at start and for /health/ready, the whole check of
 * `GET /v1/ledger/verify`, and re-anchoring by an operator. Writers open the head through `openForWrite`.
 */
@injectable()
export class LedgerHead {
  private readonly logger: Logger
  /** The anchor problem last logged (undefined: none; null: not checked yet), so each change is logged once. */
  private loggedProblem: string | undefined | null = null

  public constructor(
    private readonly transactions: LedgerRepository,
    private readonly references: LedgerReferencesRepository,
    private readonly trustee: LedgerTrustee,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'ledger' })
  }

  /**
   * Writes the genesis transaction (the trustee's own NYM, and the first anchor) unless the ledger has one.
   * Logs an error when the genesis names another trustee (its seed changed): the anchor check then refuses writes.
   */
  public async ensureGenesis(): Promise<StoredTransaction> {
    const genesis =
      (await this.transactions.findBySeqNo(1)) ??
      (await this.transactions.underChainHead(async (session) => {
        if (!(await session.head())) await this.anchorAfter(session, await session.insert(this.genesisTransaction()))
        return session.findBySeqNo(1)
      }))
    if (!genesis) throw new Error('The ledger has no genesis transaction after writing it')
    if (genesis.authorDid !== this.trustee.did) {
      this.logger.error('The ledger genesis names another trustee: LEDGER_TRUSTEE_SEED or the secrets key changed', {
        genesisTrustee: genesis.authorDid,
        configuredTrustee: this.trustee.did,
      })
    }
    return genesis
  }

  public async info(): Promise<LedgerInfo> {
    const genesis = await this.ensureGenesis()
    // The genesis is there, so the head is at least the genesis.
    const head = (await this.transactions.head()) ?? genesis
    return {
      namespace: this.trustee.namespace,
      trusteeDid: genesis.authorDid,
      genesisHash: genesis.hash,
      head: { seqNo: head.seqNo, hash: head.hash },
    }
  }

  /**
   * The start-up check (ledger module start): genesis on an empty ledger, the first anchor of a ledger written
   * before anchors (when its chain holds), then the anchor. A ledger whose head does not match its anchor keeps
   * serving reads and refuses writes; the error is logged and shown by /health/ready.
   */
  public async checkAtStart(): Promise<AnchorCheck> {
    await this.ensureGenesis()
    try {
      await this.transactions.underChainHead((session) => this.openForWrite(session))
    } catch (error) {
      if (!(error instanceof LedgerWritesRefusedError)) throw error
    }
    return this.anchorStatus()
  }

  /** Whether the head matches the signed anchor (what /health/ready shows); a change is logged once. */
  public async anchorStatus(): Promise<AnchorCheck> {
    const check = await checkLedgerAnchor(this.checkSources())
    this.note(check)
    return check
  }

  /** The chain in range; reaching the head, also the anchor and the records pointing at the ledger. */
  public async verify(range: { from: number; to?: number }): Promise<LedgerCheck> {
    const check = await checkLedger(this.checkSources(), range)
    if (check.anchor) this.note(check.anchor)
    return check
  }

  /**
   * Makes the head writable, in the writer's session: genesis on an empty ledger; the first anchor of a ledger
   * written before anchors (no transaction carries a binding) when its whole chain verifies; else the anchor must
   * match the head, so that a change made behind the ledger's back is never extended, nor re-anchored.
   * @throws LedgerWritesRefusedError
   */
  public async openForWrite(session: ChainHeadSession): Promise<void> {
    const head = await session.head()
    if (!head) return this.anchorAfter(session, await session.insert(this.genesisTransaction()))
    const anchor = await session.anchor()
    let check = checkAnchor({ namespace: this.trustee.namespace, trusteeVerkey: this.trustee.verkey, head, anchor })
    if (check.isValid) return
    if (!anchor && !(await session.hasBoundTransactions())) {
      const chain = await verifyChain(session, this.trustee.namespace, { from: 1 })
      if (chain.isValid) {
        await this.anchorAfter(session, head)
        this.logger.warn('Anchored a ledger written before anchors existed', { seqNo: head.seqNo, hash: head.hash })
        return
      }
      const { seqNo, reason } = chain.firstInvalid ?? {}
      check = {
        ...check,
        reason: `the ledger has no anchor and its chain does not verify at seqNo ${seqNo} (${reason})`,
      }
    }
    this.note(check)
    throw new LedgerWritesRefusedError(
      `The ledger refuses writes: ${check.reason}. See GET /v1/ledger/verify; an operator must look into it`,
      REFUSED_RETRY_AFTER_SECONDS,
    )
  }

  /** Moves the anchor to `head`, in the session that appended it. */
  public async anchorAfter(session: ChainHeadSession, head: ChainPosition): Promise<void> {
    const signature = this.trustee.sign(ledgerAnchorBytes(this.trustee.namespace, head))
    await session.saveAnchor({ seqNo: head.seqNo, hash: head.hash, signature })
  }

  /**
   * Anchors the current head (`npm run ledger:anchor`): for a ledger whose anchor was lost or no longer matches,
   * after an operator has looked into why. Refused while the chain itself does not verify, and, unless `replace`,
   * while another anchor is there.
   * @throws InvalidInputError (empty ledger, broken chain), ConflictError (another anchor, no `replace`)
   */
  public async anchorCurrentHead(options: {
    replace: boolean
  }): Promise<{ previous: AnchorCheck; anchored: ChainPosition }> {
    return this.transactions.underChainHead(async (session) => {
      const head = await session.head()
      if (!head) throw new InvalidInputError('The ledger is empty: its genesis anchors it when the API starts')
      const chain = await verifyChain(session, this.trustee.namespace, { from: 1 })
      if (!chain.isValid) {
        const { seqNo, reason } = chain.firstInvalid ?? {}
        throw new InvalidInputError(`The chain does not verify at seqNo ${seqNo} (${reason}): not anchoring it`)
      }
      const anchor = await session.anchor()
      const previous = checkAnchor({
        namespace: this.trustee.namespace,
        trusteeVerkey: this.trustee.verkey,
        head,
        anchor,
      })
      if (anchor && !previous.isValid && !options.replace) {
        throw new ConflictError(`The ledger has another anchor (${previous.reason}): pass --replace to replace it`)
      }
      await this.anchorAfter(session, head)
      this.logger.warn('Anchored the ledger head by operator command', { seqNo: head.seqNo, hash: head.hash })
      return { previous, anchored: { seqNo: head.seqNo, hash: head.hash } }
    })
  }

  private genesisTransaction(): NewTransaction {
    const payload = { dest: this.trustee.did, verkey: this.trustee.verkey, role: 'TRUSTEE' }
    // The trustee has no transaction before its genesis NYM: its binding is 0.
    return {
      type: 'NYM',
      authorDid: this.trustee.did,
      objectId: this.trustee.did,
      payload,
      signature: this.trustee.sign(this.trustee.signingBytes('NYM', this.trustee.did, payload, 0)),
      lastSeqNo: 0,
    }
  }

  private checkSources(): LedgerCheckSources {
    return {
      ledger: this.transactions,
      references: this.references,
      namespace: this.trustee.namespace,
      trustee: { did: this.trustee.did, verkey: this.trustee.verkey },
    }
  }

  /** Logs the anchor's state when it changes: an error while writes are refused, info when they are accepted again. */
  private note(check: AnchorCheck): void {
    const problem = check.isValid ? undefined : (check.reason ?? 'the anchor does not verify')
    if (problem === this.loggedProblem) return
    const wasChecked = this.loggedProblem !== null
    this.loggedProblem = problem
    if (problem) {
      this.logger.error('Ledger writes refused: the ledger head does not match its signed anchor', {
        reason: problem,
        head: check.head,
        anchored: check.anchored,
        help: 'GET /v1/ledger/verify or npm run ledger:verify names what changed; docs/deployment.md, "Ledger anchor"',
      })
    } else if (wasChecked) {
      this.logger.info('Ledger anchor verifies: ledger writes accepted', { head: check.head })
    }
  }
}
