import { injectable } from 'inversify'
import { type FilterQuery } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { WalletRecord, type WalletRecordKind } from './wallet-record.entity'
import { BaseRepository, type LockedRow } from '../../infra/db/base.repository'
import type { WalletRecordFields } from './wallet-record.mapper'

/** Filters of a wallet's list: columns only (the rest is matched on the record JSON by the service). */
export interface WalletRecordFilter {
  state?: string
  connectionId?: string
  threadId?: string
}

/**
 * The holder records of cloud wallets. Every lookup takes the wallet first, so no query can reach another wallet's
 * rows. Inside a transaction the global em resolves to the transaction's fork.
 */
@injectable()
export class WalletRecordsRepository extends BaseRepository<WalletRecord> {
  public constructor(em: EntityManager) {
    super(em, WalletRecord)
  }

  /**
   * The wallet's record of the agent's record `recordId`, locked until the transaction ends; inserted from `fields`
   * first when absent (`isNew`). A tenant event and the wallet call's answer race to create it: the unique key
   * (wallet, kind, recordId) makes one win and the other read the winner's row.
   */
  public async lockOrCreate(
    walletId: string,
    kind: WalletRecordKind,
    recordId: string,
    fields: WalletRecordFields,
  ): Promise<LockedRow<WalletRecord>> {
    return this.lockOrCreateExchange({ wallet: walletId, kind, recordId }, fields, {
      missing: 'Wallet record not found',
    })
  }

  /** The wallet's records of one kind, oldest first (as the agent lists them). */
  public list(walletId: string, kind: WalletRecordKind, filter: WalletRecordFilter = {}): Promise<WalletRecord[]> {
    const where: FilterQuery<WalletRecord> = { wallet: walletId, kind }
    if (filter.state !== undefined) where.state = filter.state
    if (filter.connectionId !== undefined) where.connectionId = filter.connectionId
    if (filter.threadId !== undefined) where.threadId = filter.threadId
    return this.em.fork().find(WalletRecord, where, { orderBy: { agentCreatedAt: 'asc', recordId: 'asc' } })
  }

  public findOne(walletId: string, kind: WalletRecordKind, recordId: string): Promise<WalletRecord | null> {
    return this.em.fork().findOne(WalletRecord, { wallet: walletId, kind, recordId })
  }
}
