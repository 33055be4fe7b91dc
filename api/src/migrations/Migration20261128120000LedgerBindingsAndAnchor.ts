import { Migration } from '@mikro-orm/migrations'

/**
 * Ledger hardening (issue 23, items 4 and 7; docs/decisions.md, "Ledger hardening (issue 23)"): each transaction
 * keeps the author's binding its signature covers (`last_seq_no`, null on transactions written before), found by an
 * (author_did, seq_no) index; `ledger_anchors` holds the one trustee-signed anchor of the head. Adding a column
 * fires no row trigger, so the append-only table takes it. The first start anchors a ledger written before anchors.
 */
export class Migration20261128120000LedgerBindingsAndAnchor extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ledger_transactions" add column "last_seq_no" bigint null;`)
    this.addSql(`drop index if exists "ledger_transactions_author_did_index";`)
    this.addSql(
      `create index "ledger_transactions_author_did_seq_no_index" on "ledger_transactions" ("author_did", "seq_no");`,
    )
    this.addSql(
      `create table "ledger_anchors" ("id" smallint not null, "seq_no" bigint not null, "hash" varchar(64) not null, "signature" varchar(100) not null, "anchored_at" timestamptz not null, constraint "ledger_anchors_pkey" primary key ("id"));`,
    )
    this.addSql(`alter table "ledger_anchors" add constraint "ledger_anchors_single_row" check ("id" = 1);`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ledger_anchors" cascade;`)
    this.addSql(`drop index if exists "ledger_transactions_author_did_seq_no_index";`)
    this.addSql(`create index "ledger_transactions_author_did_index" on "ledger_transactions" ("author_did");`)
    this.addSql(`alter table "ledger_transactions" drop column "last_seq_no";`)
  }
}
