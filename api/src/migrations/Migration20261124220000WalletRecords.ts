import { Migration } from '@mikro-orm/migrations'

/** Cloud wallets' holder records, kept from the base agent's tenant events (modules/cloud-wallet, issue 11 item 4). */
export class Migration20261124220000WalletRecords extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "wallet_records" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "wallet_id" uuid not null, "kind" varchar(20) not null, "record_id" varchar(100) not null, "state" varchar(40) null, "connection_id" varchar(100) null, "thread_id" varchar(100) null, "agent_created_at" timestamptz not null, "agent_updated_at" timestamptz not null, "record" jsonb not null, constraint "wallet_records_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "wallet_records_wallet_id_kind_agent_created_at_index" on "wallet_records" ("wallet_id", "kind", "agent_created_at");`,
    )
    this.addSql(
      `alter table "wallet_records" add constraint "wallet_records_wallet_id_kind_record_id_unique" unique ("wallet_id", "kind", "record_id");`,
    )
    this.addSql(
      `alter table "wallet_records" add constraint "wallet_records_wallet_id_foreign" foreign key ("wallet_id") references "cloud_wallets" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "wallet_records" cascade;`)
  }
}
