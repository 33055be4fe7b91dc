import { Migration } from '@mikro-orm/migrations'

/** Issuance records kept from agents' credential events (modules/credentials). */
export class Migration20261124140000IssuanceRecords extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "issuance_records" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "credential_record_id" varchar(100) not null, "state" varchar(40) not null, "role" varchar(20) not null default 'issuer', "connection_id" varchar(100) null, "thread_id" varchar(100) null, "protocol_version" varchar(10) null, "credential_type" varchar(10) not null default 'JSONLD', "credential_definition_id" varchar(300) null, "schema_id" varchar(2000) null, "credential_summary" jsonb null, "out_of_band_id" varchar(100) null, "email_id" varchar(320) null, "error_message" text null, "agent_updated_at" timestamptz not null, primary key ("id"));`,
    )
    this.addSql(
      `create index "issuance_records_organization_id_created_at_index" on "issuance_records" ("organization_id", "created_at");`,
    )
    this.addSql(
      `alter table "issuance_records" add constraint "issuance_records_organization_id_credential_record_id_unique" unique ("organization_id", "credential_record_id");`,
    )
    this.addSql(
      `alter table "issuance_records" add constraint "issuance_records_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "issuance_records" cascade;`)
  }
}
