import { BigIntType, type Opt } from '@mikro-orm/core'
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy'
import { LEDGER_TRANSACTION_TYPES, type LedgerTransactionType } from '@idplane/common/agent-contract/ledger'

/**
 * One transaction of the platform ledger (docs/decisions.md, "Ledger (issue 13)"). Append-only: the code has no
 * update or delete path, and on PostgreSQL a trigger refuses both. `hash` chains each row to `prevHash`, the
 * previous row's hash; seq numbers are gap-free because appends are serialized (LedgerRepository.append).
 */
@Entity({
  tableName: 'ledger_transactions',
  // Append-only in the database too: no role but one that disables the trigger can change or remove a row. The
  // migration also refuses TRUNCATE with a statement trigger, which the schema diff does not introspect.
  triggers: [
    {
      name: 'ledger_transactions_append_only',
      timing: 'before',
      events: ['update', 'delete'],
      forEach: 'row',
      body: `raise exception 'ledger_transactions is append-only (% refused)', tg_op;`,
    },
  ],
})
@Index({
  name: 'ledger_transactions_object_id_unique',
  expression:
    'create unique index "ledger_transactions_object_id_unique" on "ledger_transactions" ("object_id") where "object_id" is not null',
})
// A registry's entries (REVOC_REG_ENTRY has no object id: a registry has many), in chain order.
@Index({
  name: 'ledger_transactions_revoc_reg_entry_index',
  expression: `create index "ledger_transactions_revoc_reg_entry_index" on "ledger_transactions" ((payload->>'revRegDefId'), "seq_no") where "type" = 'REVOC_REG_ENTRY'`,
})
// The author's latest transaction (its binding, LedgerBinding) is one backward step in this index.
@Index({ name: 'ledger_transactions_author_did_seq_no_index', properties: ['authorDid', 'seqNo'] })
export class LedgerTransaction {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: false })
  seqNo!: number

  @Enum({ items: () => [...LEDGER_TRANSACTION_TYPES], type: 'string', length: 20 })
  type!: LedgerTransactionType

  @Property({ type: 'string', length: 22 })
  authorDid!: string

  @Property({ type: 'text', nullable: true })
  objectId?: string | null

  @Property({ type: 'json', columnType: 'jsonb' })
  payload!: unknown

  @Property({ type: 'string', length: 100 })
  signature!: string

  /**
   * The author's binding the signature covers (common/agent-contract/ledger.ts, LedgerBinding): the seqNo of the
   * author DID's latest transaction when it signed. Null for transactions written before bindings existed.
   */
  @Property({ type: new BigIntType('number'), nullable: true })
  lastSeqNo?: number | null

  @Property({ type: 'string', length: 64 })
  prevHash!: string

  @Property({ type: 'string', length: 64 })
  @Index({ name: 'ledger_transactions_hash_unique' })
  hash!: string

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  txnTime!: Date

  /** The organization whose agent asked for a NYM; not covered by the hash. */
  @Property({ type: 'uuid', nullable: true })
  requestedByOrgId?: Opt<string> | null
}
