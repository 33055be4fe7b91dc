import { Migration } from '@mikro-orm/migrations'

/** Connection records kept from agent events, and when each organization last deleted them all (modules/connections). */
export class Migration20261124130000Connections extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "connections" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "connection_id" varchar(100) not null, "state" varchar(40) not null, "role" varchar(40) null, "did" text null, "their_did" text null, "their_label" varchar(500) null, "alias" varchar(500) null, "auto_accept_connection" boolean null, "protocol" varchar(200) null, "out_of_band_id" varchar(100) null, "thread_id" varchar(100) null, "agent_created_at" timestamptz not null, "agent_updated_at" timestamptz not null, constraint "connections_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "connections_organization_id_agent_created_at_index" on "connections" ("organization_id", "agent_created_at");`,
    )
    this.addSql(
      `alter table "connections" add constraint "connections_organization_id_connection_id_unique" unique ("organization_id", "connection_id");`,
    )
    this.addSql(
      `alter table "connections" add constraint "connections_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `create table "connection_deletions" ("organization_id" uuid not null, "deleted_before" timestamptz not null, constraint "connection_deletions_pkey" primary key ("organization_id"));`,
    )
    this.addSql(
      `alter table "connection_deletions" add constraint "connection_deletions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "connection_deletions" cascade;`)
    this.addSql(`drop table if exists "connections" cascade;`)
  }
}
