import { Migration } from '@mikro-orm/migrations'

/** The base wallet and the users' cloud wallets (modules/cloud-wallet). */
export class Migration20261124200000CloudWallets extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "base_wallets" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "scope" varchar(20) not null default 'platform', "agent_endpoint" varchar(2048) not null, "encrypted_api_key" text not null, "encrypted_wallet_key" text not null, "configured_by" uuid null, constraint "base_wallets_pkey" primary key ("id"));`,
    )
    this.addSql(`alter table "base_wallets" add constraint "base_wallets_scope_unique" unique ("scope");`)
    this.addSql(
      `create table "cloud_wallets" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "email" varchar(320) not null, "tenant_id" varchar(100) not null, "label" varchar(100) not null, "connection_image_url" varchar(2048) null, constraint "cloud_wallets_pkey" primary key ("id"));`,
    )
    this.addSql(`alter table "cloud_wallets" add constraint "cloud_wallets_user_id_unique" unique ("user_id");`)
    this.addSql(`alter table "cloud_wallets" add constraint "cloud_wallets_tenant_id_unique" unique ("tenant_id");`)
    this.addSql(
      `alter table "cloud_wallets" add constraint "cloud_wallets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "cloud_wallets" cascade;`)
    this.addSql(`drop table if exists "base_wallets" cascade;`)
  }
}
