import { Migration } from '@mikro-orm/migrations'

/**
 * W3C Bitstring Status Lists of JSON-LD credentials (issue 25 item 4): the lists (per organization, issuer DID and
 * purpose, with their signed credential and the counter of indices given out), their entries (a unique list and
 * index: the random draw's arbiter), and on the issuance record its list, index, purpose and suspension.
 */
export class Migration20261129010000StatusLists extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "status_lists" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "issuer" varchar(2048) not null, "purpose" varchar(16) not null, "sequence" int not null, "proof_type" varchar(64) not null, "size" int not null, "allocated" int not null default 0, "revision" int not null default 0, "published_revision" int not null default 0, "credential" jsonb not null, constraint "status_lists_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "status_lists" add constraint "status_lists_organization_id_issuer_purpose_sequence_unique" unique ("organization_id", "issuer", "purpose", "sequence");`,
    )
    this.addSql(
      `alter table "status_lists" add constraint "status_lists_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `create table "status_list_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "status_list_id" uuid not null, "index" int not null, "value" boolean not null default false, constraint "status_list_entries_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "status_list_entries" add constraint "status_list_entries_status_list_id_index_unique" unique ("status_list_id", "index");`,
    )
    this.addSql(
      `create index "status_list_entries_status_list_id_value_index" on "status_list_entries" ("status_list_id", "value");`,
    )
    this.addSql(
      `alter table "status_list_entries" add constraint "status_list_entries_status_list_id_foreign" foreign key ("status_list_id") references "status_lists" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "issuance_records" add column "status_list_id" uuid null, add column "status_list_index" int null, add column "status_purpose" varchar(16) null, add column "suspension_status" varchar(16) null, add column "suspended_at" timestamptz null;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "issuance_records" drop column "status_list_id", drop column "status_list_index", drop column "status_purpose", drop column "suspension_status", drop column "suspended_at";`,
    )
    this.addSql(`drop table if exists "status_list_entries" cascade;`)
    this.addSql(`drop table if exists "status_lists" cascade;`)
  }
}
