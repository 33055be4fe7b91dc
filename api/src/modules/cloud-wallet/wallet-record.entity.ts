import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy'
import { BaseEntity } from '../../infra/db/base.entity'
import { CloudWallet } from './cloud-wallet.entity'

/** The kinds of holder records a wallet keeps: the agent-event kinds of its exchanges. */
export const WALLET_RECORD_KINDS = ['connection', 'credential', 'proof', 'basic-message'] as const
export type WalletRecordKind = (typeof WALLET_RECORD_KINDS)[number]

/** Widths of the text columns; longer agent values are cut (record-order.ts, textOf). */
export const WALLET_RECORD_LIMITS = { id: 100, state: 40 } as const

/**
 * One of a cloud wallet's records (connection, credential exchange, proof exchange, basic message) as the base
 * agent last reported it for the wallet's tenant, from its events or its answers to the wallet's calls. Keyed by
 * (wallet, kind, agent record id): the same agent record id in another wallet is another row, and no read crosses
 * wallets. `record` is the agent's Credo JSON, which the wallet routes answer (their shape did not change).
 */
@Entity({ tableName: 'wallet_records' })
@Unique({ properties: ['wallet', 'kind', 'recordId'] })
@Index({ properties: ['wallet', 'kind', 'agentCreatedAt'] })
export class WalletRecord extends BaseEntity {
  @ManyToOne(() => CloudWallet, { deleteRule: 'cascade' })
  wallet!: CloudWallet

  @Property({ type: 'string', length: 20 })
  kind!: WalletRecordKind

  /** The agent's record id (the id every wallet route names). */
  @Property({ type: 'string', length: WALLET_RECORD_LIMITS.id })
  recordId!: string

  /** The exchange state; null for a basic message (it has none). */
  @Property({ type: 'string', length: WALLET_RECORD_LIMITS.state, nullable: true })
  state?: string | null

  @Property({ type: 'string', length: WALLET_RECORD_LIMITS.id, nullable: true })
  connectionId?: string | null

  @Property({ type: 'string', length: WALLET_RECORD_LIMITS.id, nullable: true })
  threadId?: string | null

  /** When the agent created its record (the lists' order). */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentCreatedAt!: Date

  /** The agent record's last write: the version the ordering rule compares (record-order.ts). */
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  agentUpdatedAt!: Date

  /** The agent's record JSON as last applied. */
  @Property({ type: 'json' })
  record!: Record<string, unknown>
}
