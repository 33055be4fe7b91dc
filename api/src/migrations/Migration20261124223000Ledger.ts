import { Migration } from '@mikro-orm/migrations'

/**
 * The platform ledger (modules/ledger): append-only. The trigger refuses UPDATE and DELETE for every role but a
 * superuser who disables it on purpose (docs/decisions.md, "Ledger (issue 13)"); TRUNCATE is refused too.
 */
export class Migration20261124223000Ledger extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "ledger_transactions" ("seq_no" bigint not null, "type" text not null, "author_did" varchar(22) not null, "object_id" text null, "payload" jsonb not null, "signature" varchar(100) not null, "prev_hash" varchar(64) not null, "hash" varchar(64) not null, "txn_time" timestamptz not null, "requested_by_org_id" uuid null, constraint "ledger_transactions_pkey" primary key ("seq_no"));`,
    )
    this.addSql(
      `alter table "ledger_transactions" add constraint "ledger_transactions_type_check" check ("type" in ('NYM', 'ATTRIB', 'SCHEMA', 'CRED_DEF', 'REVOC_REG_DEF', 'REVOC_REG_ENTRY'));`,
    )
    this.addSql(`create index "ledger_transactions_author_did_index" on "ledger_transactions" ("author_did");`)
    this.addSql(`create index "ledger_transactions_hash_unique" on "ledger_transactions" ("hash");`)
    this.addSql(
      `create unique index "ledger_transactions_object_id_unique" on "ledger_transactions" ("object_id") where "object_id" is not null;`,
    )
    this.addSql(
      `create or replace function "ledger_transactions_ledger_transactions_append_only_fn"() returns trigger as $$ begin raise exception 'ledger_transactions is append-only (% refused)', tg_op; end; $$ language plpgsql;`,
    )
    this.addSql(
      `create trigger "ledger_transactions_append_only" BEFORE UPDATE OR DELETE on "ledger_transactions" for each ROW execute function "ledger_transactions_ledger_transactions_append_only_fn"();`,
    )
    this.addSql(
      `create or replace function "ledger_transactions_ledger_transactions_no_truncate_fn"() returns trigger as $$ begin raise exception 'ledger_transactions is append-only (% refused)', tg_op; end; $$ language plpgsql;`,
    )
    this.addSql(
      `create trigger "ledger_transactions_no_truncate" BEFORE TRUNCATE on "ledger_transactions" for each STATEMENT execute function "ledger_transactions_ledger_transactions_no_truncate_fn"();`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ledger_transactions" cascade;`)
    this.addSql(`drop function if exists "ledger_transactions_ledger_transactions_append_only_fn"();`)
    this.addSql(`drop function if exists "ledger_transactions_ledger_transactions_no_truncate_fn"();`)
  }
}
