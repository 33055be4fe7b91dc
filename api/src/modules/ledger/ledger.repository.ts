import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import type { LedgerTransactionType } from '@idplane/common/agent-contract/ledger'
import { GENESIS_PREV_HASH, transactionHash } from './ledger-crypto'

/** A transaction as stored and answered (txnTime as an ISO string: the form that is hashed). */
export interface StoredTransaction {
  seqNo: number
  type: LedgerTransactionType
  authorDid: string
  objectId: string | null
  payload: Record<string, unknown>
  signature: string
  prevHash: string
  hash: string
  txnTime: string
  requestedByOrgId: string | null
}

/** What a writer decides inside the serialized append; the repository numbers, chains and hashes it. */
export interface NewTransaction {
  type: LedgerTransactionType
  authorDid: string
  objectId: string | null
  payload: Record<string, unknown>
  signature: string
  requestedByOrgId?: string | null
}

/** Reads available to a writer while it holds the chain head (same transaction, same connection). */
export interface LedgerReader {
  findByObjectId(objectId: string): Promise<StoredTransaction | undefined>
  findBySeqNo(seqNo: number): Promise<StoredTransaction | undefined>
  findNym(did: string): Promise<StoredTransaction | undefined>
}

/** A writer's decision: append this, or answer with a transaction already on the ledger (idempotent writes). */
export type AppendDecision = { append: NewTransaction } | { existing: StoredTransaction }

interface TransactionRow {
  seq_no: string | number
  type: LedgerTransactionType
  author_did: string
  object_id: string | null
  payload: Record<string, unknown> | string
  signature: string
  prev_hash: string
  hash: string
  txn_time: Date | string
  requested_by_org_id: string | null
}

const COLUMNS =
  'seq_no, type, author_did, object_id, payload, signature, prev_hash, hash, txn_time, requested_by_org_id'
/** pg_advisory_xact_lock key of the one chain head (any constant unique to this purpose in the database). */
const CHAIN_HEAD_LOCK = 7_013_013_001

function toTransaction(row: TransactionRow): StoredTransaction {
  return {
    seqNo: Number(row.seq_no),
    type: row.type,
    authorDid: row.author_did,
    objectId: row.object_id,
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload,
    signature: row.signature,
    prevHash: row.prev_hash,
    hash: row.hash,
    txnTime: new Date(row.txn_time).toISOString(),
    requestedByOrgId: row.requested_by_org_id,
  }
}

/**
 * The ledger table. Inserts only: there is no update or delete here, by design. Appends take a transaction-scoped
 * advisory lock and read the head under it, so concurrent writers (in this process or another replica) get
 * distinct, gap-free seq numbers and each row's prevHash is its predecessor's hash.
 */
@injectable()
export class LedgerRepository {
  public constructor(private readonly em: EntityManager) {}

  /**
   * Runs `decide` while holding the chain head and appends what it returns. `genesis` writes seq 1 first when the
   * ledger is empty, in the same transaction, so however many processes start at once there is one genesis.
   * @returns the appended (or existing) transaction and whether it was appended
   */
  public async append(
    genesis: () => NewTransaction,
    decide: (reader: LedgerReader) => Promise<AppendDecision>,
  ): Promise<{ transaction: StoredTransaction; isNew: boolean }> {
    return this.em.fork().transactional(async (em) => {
      await em.execute(`select pg_advisory_xact_lock(${CHAIN_HEAD_LOCK})`)
      let head = await this.headIn(em)
      if (!head) head = await this.insertIn(em, genesis(), undefined)
      const decision = await decide(this.readerIn(em))
      if ('existing' in decision) return { transaction: decision.existing, isNew: false }
      return { transaction: await this.insertIn(em, decision.append, head), isNew: true }
    })
  }

  /** The genesis transaction, written if the ledger is empty. */
  public async ensureGenesis(genesis: () => NewTransaction): Promise<StoredTransaction> {
    const existing = await this.findBySeqNo(1)
    if (existing) return existing
    return this.em.fork().transactional(async (em) => {
      await em.execute(`select pg_advisory_xact_lock(${CHAIN_HEAD_LOCK})`)
      return (await this.readerIn(em).findBySeqNo(1)) ?? this.insertIn(em, genesis(), undefined)
    })
  }

  public head(): Promise<StoredTransaction | undefined> {
    return this.headIn(this.em.fork())
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

  /** The latest ATTRIB about `did` (its author is the DID itself). */
  public async findLatestAttrib(did: string): Promise<StoredTransaction | undefined> {
    const rows = await this.em
      .fork()
      .execute<
        TransactionRow[]
      >(`select ${COLUMNS} from ledger_transactions where type = 'ATTRIB' and author_did = ? order by seq_no desc limit 1`, [did])
    return rows[0] ? toTransaction(rows[0]) : undefined
  }

  /** Transactions with seqNo >= from, ascending, at most `limit`. */
  public async list(from: number, limit: number): Promise<StoredTransaction[]> {
    const rows = await this.em
      .fork()
      .execute<
        TransactionRow[]
      >(`select ${COLUMNS} from ledger_transactions where seq_no >= ? order by seq_no asc limit ?`, [from, limit])
    return rows.map(toTransaction)
  }

  /** Every NYM with seqNo <= `to`: the keys the chain check verifies signatures with. */
  public async nymsUpTo(to: number): Promise<StoredTransaction[]> {
    const rows = await this.em
      .fork()
      .execute<
        TransactionRow[]
      >(`select ${COLUMNS} from ledger_transactions where type = 'NYM' and seq_no <= ? order by seq_no asc`, [to])
    return rows.map(toTransaction)
  }

  private async headIn(em: EntityManager): Promise<StoredTransaction | undefined> {
    const rows = await em.execute<TransactionRow[]>(
      `select ${COLUMNS} from ledger_transactions order by seq_no desc limit 1`,
    )
    return rows[0] ? toTransaction(rows[0]) : undefined
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
    }
  }

  private async insertIn(
    em: EntityManager,
    row: NewTransaction,
    head: StoredTransaction | undefined,
  ): Promise<StoredTransaction> {
    const seqNo = head ? head.seqNo + 1 : 1
    const prevHash = head ? head.hash : GENESIS_PREV_HASH
    const txnTime = new Date().toISOString()
    const hash = transactionHash({ ...row, seqNo, prevHash, txnTime })
    const rows = await em.execute<TransactionRow[]>(
      `insert into ledger_transactions (${COLUMNS}) values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?) returning ${COLUMNS}`,
      [
        seqNo,
        row.type,
        row.authorDid,
        row.objectId,
        JSON.stringify(row.payload),
        row.signature,
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
}
