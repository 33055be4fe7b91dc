import { BigIntType } from '@mikro-orm/core'
import { Check, Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy'

/** The one row's key: there is one chain head, so one anchor. */
export const LEDGER_ANCHOR_ID = 1

/**
 * The ledger's head as the platform last wrote it, signed by the trustee key, which lives outside the database
 * (LEDGER_TRUSTEE_SEED, or derived from the secrets key): a database edit alone cannot move it, so removing the
 * last transactions, or rewriting the head, no longer verifies (docs/decisions.md, "Ledger anchor (issue 23)").
 * Written in the transaction of every append, under the chain-head lock.
 */
@Entity({ tableName: 'ledger_anchors' })
@Check({ name: 'ledger_anchors_single_row', expression: `"id" = ${LEDGER_ANCHOR_ID}` })
export class LedgerAnchor {
  @PrimaryKey({ type: 'smallint', autoincrement: false })
  id!: number

  @Property({ type: new BigIntType('number') })
  seqNo!: number

  @Property({ type: 'string', length: 64 })
  hash!: string

  /** The trustee's base58 Ed25519 signature of ledgerAnchorBytes(namespace, seqNo, hash). */
  @Property({ type: 'string', length: 100 })
  signature!: string

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  anchoredAt!: Date
}
