import { Migration } from '@mikro-orm/migrations'

/**
 * Revocation on the ledger (issue 25, item 2; docs/decisions.md, "Revocation registries on the ledger" and "Tails
 * files"): REVOC_REG_ENTRY transactions are found by their registry (an index on the payload's `revRegDefId`, in
 * chain order; an index adds no row trigger, so the append-only table takes it), and tails files are kept under
 * their hash.
 */
export class Migration20261128130000RevocationLedger extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "ledger_transactions_revoc_reg_entry_index" on "ledger_transactions" ((payload->>'revRegDefId'), "seq_no") where "type" = 'REVOC_REG_ENTRY';`,
    )
    this.addSql(
      `create table "tails_files" ("hash" varchar(64) not null, "content" bytea not null, "size" int not null, "uploaded_by_org_id" uuid null, "created_at" timestamptz not null, constraint "tails_files_pkey" primary key ("hash"));`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "tails_files" cascade;`)
    this.addSql(`drop index if exists "ledger_transactions_revoc_reg_entry_index";`)
  }
}
