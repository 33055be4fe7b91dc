import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import type { LedgerTransactionType } from '@idplane/common/agent-contract/ledger'
import type { ChainPosition, StoredAnchor } from './ledger-anchor'
import { LEDGER_ANCHOR_ID } from './ledger-anchor.entity'
import type { ChainSource } from './ledger-chain'
import { GENESIS_PREV_HASH, transactionHash } from './ledger-crypto'
import {
  COLUMNS,
  toAnchor,
  toTransaction,
  type HeadAndAnchorRow,
  type StoredTransaction,
  type TransactionRow,
} from './ledger-rows'
import { BaseRepository } from '../../infra/db/base.repository'
import { LedgerTransaction } from './ledger-transaction.entity'

export type { StoredTransaction } from './ledger-rows'

/** What a writer decides while it holds the chain head; the session numbers, chains and hashes it. */
export interface NewTransaction {
  type: LedgerTransactionType
  authorDid: string
  objectId: string | null
  payload: Record<string, unknown>
  signature: string
  lastSeqNo: number
  requestedByOrgId?: string | null
}

/** Reads of the ledger's objects. */
export interface LedgerReader {
  findByObjectId(objectId: string): Promise<StoredTransaction | undefined>
  findBySeqNo(seqNo: number): Promise<StoredTransaction | undefined>
  findNym(did: string): Promise<StoredTransaction | undefined>
  /** The DID's binding: the seqNo of its latest transaction (its NYM or one it authored); 0 when it has none. */
  lastSeqNoOf(did: string): Promise<number>
  /** The latest REVOC_REG_ENTRY of a registry (by its legacy id). */
  latestRevRegEntry(revRegDefId: string): Promise<StoredTransaction | undefined>
}

/**
 * What a writer can do while it holds the chain head: every read and write on the one transaction (and connection)
 * that holds the lock, so the head it reads stays the head until it commits.
 */
export interface ChainHeadSession extends LedgerReader, ChainSource {
  head(): Promise<StoredTransaction | undefined>
  anchor(): Promise<StoredAnchor | undefined>
  /** Whether any transaction carries a binding (was written since bindings and anchors exist). */
  hasBoundTransactions(): Promise<boolean>
  /** Appends `row` after the current head: seq number, previous hash, time and hash are the session's. */
  insert(row: NewTransaction): Promise<StoredTransaction>
  saveAnchor(anchor: { seqNo: number; hash: string; signature: string }): Promise<void>
}

/** pg_advisory_xact_lock key of the one chain head (any constant unique to this purpose in the database). */
const CHAIN_HEAD_LOCK = 7_013_013_001

/**
 * The ledger table and its anchor. Inserts only: there is no update or delete of a transaction here, by design.
 * Writers run under `underChainHead`, which takes a transaction-scoped advisory lock and reads the head under it,
 * so concurrent writers (in this process or another replica) get distinct, gap-free seq numbers, each row's
 * prevHash is its predecessor's hash, and the anchor moves with the head in the same commit.
 */
@injectable()
export class LedgerRepository extends BaseRepository<LedgerTransaction> {
  public constructor(em: EntityManager) {
    super(em, LedgerTransaction)
  }

  /** Runs `work` holding the chain head, in one database transaction: all of it commits, or none. */
  public async underChainHead<T>(work: (session: ChainHeadSession) => Promise<T>): Promise<T> {
    return this.em.fork().transactional(async (em) => {
      await em.execute(`select pg_advisory_xact_lock(${CHAIN_HEAD_LOCK})`)
      return work(this.sessionIn(em))
    })
  }

  /** The head and the anchor in one statement, so in one snapshot (an append commits both at once). */
  public async headAndAnchor(): Promise<{ head?: ChainPosition; anchor?: StoredAnchor }> {
    const [row] = await this.em.fork().execute<HeadAndAnchorRow[]>(
      `select h.seq_no as head_seq_no, h.hash as head_hash, a.seq_no as anchor_seq_no, a.hash as anchor_hash,
              a.signature as anchor_signature, a.anchored_at
         from (select 1 as one) as singleton
         left join lateral (select seq_no, hash from ledger_transactions order by seq_no desc limit 1) as h on true
         left join ledger_anchors as a on a.id = ${LEDGER_ANCHOR_ID}`,
    )
    const head =
      row?.head_seq_no == null || row.head_hash === null
        ? undefined
        : { seqNo: Number(row.head_seq_no), hash: row.head_hash }
    return { head, anchor: row ? toAnchor(row) : undefined }
  }

  public head(): Promise<StoredTransaction | undefined> {
    return headIn(this.em.fork())
  }

  public findBySeqNo(seqNo: number): Promise<StoredTransaction | undefined> {
    return this.readerIn(this.em.fork()).findBySeqNo(seqNo)
  }

  public findByObjectId(objectId: string): Promise<StoredTransaction | undefined> {
    return this.readerIn(this.em.fork()).findByObjectId(objectId)
  }

  public findNym(did: string): Promise<StoredTransaction | undefined> {
    return this.readerIn(this.em.fork()).findNym(did)
  }

  public lastSeqNoOf(did: string): Promise<number> {
    return this.readerIn(this.em.fork()).lastSeqNoOf(did)
  }

  /** The latest ATTRIB about `did` (its author is the DID itself). */
  public async findLatestAttrib(did: string): Promise<StoredTransaction | undefined> {
    const rows = await this.em
      .fork()
      .execute<
        TransactionRow[]
      >(`select ${COLUMNS} from ledger_transactions where type = 'ATTRIB' and author_did = ? order by seq_no desc limit 1`, [did])
    return rows[0] ? toTransaction(rows[0]) : undefined
  }

  /**
   * The REVOC_REG_ENTRY transactions of a registry (legacy id) up to the latest one written before `before`, in
   * chain order: every delta the status list of that moment is made of. Empty when none was written before it.
   */
  public async revRegEntriesBefore(revRegDefId: string, before: Date): Promise<StoredTransaction[]> {
    const rows = await this.em.fork().execute<TransactionRow[]>(
      `select ${COLUMNS} from ledger_transactions
        where type = 'REVOC_REG_ENTRY' and payload->>'revRegDefId' = ?
          and seq_no <= (select max(seq_no) from ledger_transactions
                          where type = 'REVOC_REG_ENTRY' and payload->>'revRegDefId' = ? and txn_time < ?::timestamptz)
        order by seq_no asc`,
      [revRegDefId, revRegDefId, before.toISOString()],
    )
    return rows.map(toTransaction)
  }

  /** Transactions with seqNo >= from, ascending, at most `limit`. */
  public list(from: number, limit: number): Promise<StoredTransaction[]> {
    return chainSourceIn(this.em.fork()).list(from, limit)
  }

  /** Every NYM with seqNo <= `to`: the keys the chain check verifies signatures with. */
  public nymsUpTo(to: number): Promise<StoredTransaction[]> {
    return chainSourceIn(this.em.fork()).nymsUpTo(to)
  }

  public lastSeqNosBefore(seqNo: number): Promise<Map<string, number>> {
    return chainSourceIn(this.em.fork()).lastSeqNosBefore(seqNo)
  }

  /** Which of `objectIds` name a transaction on the ledger. */
  public async existingObjectIds(objectIds: readonly string[]): Promise<Set<string>> {
    if (objectIds.length === 0) return new Set()
    const rows = await this.em
      .fork()
      .execute<
        { object_id: string }[]
      >(`select object_id from ledger_transactions where object_id in (${objectIds.map(() => '?').join(', ')})`, [...objectIds])
    return new Set(rows.map((row) => row.object_id))
  }

  private sessionIn(em: EntityManager): ChainHeadSession {
    const reader = this.readerIn(em)
    let head: StoredTransaction | undefined | null = null
    const currentHead = async () => {
      if (head === null) head = await headIn(em)
      return head
    }
    return {
      ...reader,
      ...chainSourceIn(em),
      head: currentHead,
      anchor: async () => {
        const rows = await em.execute<HeadAndAnchorRow[]>(
          `select seq_no as anchor_seq_no, hash as anchor_hash, signature as anchor_signature, anchored_at
             from ledger_anchors where id = ${LEDGER_ANCHOR_ID}`,
        )
        return rows[0] ? toAnchor(rows[0]) : undefined
      },
      hasBoundTransactions: async () => {
        const rows = await em.execute<{ found: number }[]>(
          'select 1 as found from ledger_transactions where last_seq_no is not null limit 1',
        )
        return rows.length > 0
      },
      insert: async (row) => {
        const inserted = await insertIn(em, row, await currentHead())
        head = inserted
        return inserted
      },
      saveAnchor: async (anchor) => {
        await em.execute(
          `insert into ledger_anchors (id, seq_no, hash, signature, anchored_at) values (${LEDGER_ANCHOR_ID}, ?, ?, ?, ?)
           on conflict (id) do update set seq_no = excluded.seq_no, hash = excluded.hash,
             signature = excluded.signature, anchored_at = excluded.anchored_at`,
          [anchor.seqNo, anchor.hash, anchor.signature, new Date().toISOString()],
        )
      },
    }
  }

  private readerIn(em: EntityManager): LedgerReader {
    const one = async (where: string, params: unknown[]) => {
      const rows = await em.execute<TransactionRow[]>(
        `select ${COLUMNS} from ledger_transactions where ${where} order by seq_no desc limit 1`,
        params,
      )
      return rows[0] ? toTransaction(rows[0]) : undefined
    }
    return {
      findByObjectId: (objectId) => one('object_id = ?', [objectId]),
      findBySeqNo: (seqNo) => one('seq_no = ?', [seqNo]),
      findNym: (did) => one(`type = 'NYM' and object_id = ?`, [did]),
      latestRevRegEntry: (revRegDefId) =>
        one(`type = 'REVOC_REG_ENTRY' and payload->>'revRegDefId' = ?`, [revRegDefId]),
      lastSeqNoOf: async (did) => {
        // Two index lookups: the author's latest (author_did, seq_no) and the DID's NYM (object_id is unique).
        const rows = await em.execute<{ last: string | number | null }[]>(
          `select greatest(
             coalesce((select max(seq_no) from ledger_transactions where author_did = ?), 0),
             coalesce((select seq_no from ledger_transactions where type = 'NYM' and object_id = ?), 0)) as last`,
          [did, did],
        )
        return Number(rows[0]?.last ?? 0)
      },
    }
  }
}

function chainSourceIn(em: EntityManager): ChainSource {
  return {
    list: async (from, limit) => {
      const rows = await em.execute<TransactionRow[]>(
        `select ${COLUMNS} from ledger_transactions where seq_no >= ? order by seq_no asc limit ?`,
        [from, limit],
      )
      return rows.map(toTransaction)
    },
    findBySeqNo: async (seqNo) => {
      const rows = await em.execute<TransactionRow[]>(`select ${COLUMNS} from ledger_transactions where seq_no = ?`, [
        seqNo,
      ])
      return rows[0] ? toTransaction(rows[0]) : undefined
    },
    nymsUpTo: async (to) => {
      const rows = await em.execute<TransactionRow[]>(
        `select ${COLUMNS} from ledger_transactions where type = 'NYM' and seq_no <= ? order by seq_no asc`,
        [to],
      )
      return rows.map(toTransaction)
    },
    lastSeqNosBefore: async (seqNo) => {
      const rows = await em.execute<{ did: string; last: string | number }[]>(
        `select did, max(seq_no) as last from (
           select author_did as did, seq_no from ledger_transactions where seq_no < ?
           union all
           select object_id as did, seq_no from ledger_transactions where type = 'NYM' and seq_no < ?
         ) as bindings group by did`,
        [seqNo, seqNo],
      )
      return new Map(rows.map((row) => [row.did, Number(row.last)]))
    },
  }
}

async function headIn(em: EntityManager): Promise<StoredTransaction | undefined> {
  const rows = await em.execute<TransactionRow[]>(
    `select ${COLUMNS} from ledger_transactions order by seq_no desc limit 1`,
  )
  return rows[0] ? toTransaction(rows[0]) : undefined
}

async function insertIn(
  em: EntityManager,
  row: NewTransaction,
  head: StoredTransaction | undefined,
): Promise<StoredTransaction> {
  const seqNo = head ? head.seqNo + 1 : 1
  const prevHash = head ? head.hash : GENESIS_PREV_HASH
  const txnTime = new Date().toISOString()
  const hash = transactionHash({ ...row, seqNo, prevHash, txnTime })
  const rows = await em.execute<TransactionRow[]>(
    `insert into ledger_transactions (${COLUMNS}) values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?) returning ${COLUMNS}`,
    [
      seqNo,
      row.type,
      row.authorDid,
      row.objectId,
      JSON.stringify(row.payload),
      row.signature,
      row.lastSeqNo,
      prevHash,
      hash,
      txnTime,
      row.requestedByOrgId ?? null,
    ],
  )
  const [stored] = rows
  if (!stored) throw new Error('The ledger insert returned no row')
  return toTransaction(stored)
}
