import { Migration } from '@mikro-orm/migrations'

/** Bulk issuance (modules/bulk-issuance): uploaded CSV requests and their rows. */
export class Migration20261124190000BulkIssuance extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "bulk_issuance_requests" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "schema_type" varchar(10) not null, "template_id" uuid not null, "file_name" varchar(255) not null, "is_validate_schema" boolean not null, "status" varchar(20) not null default 'uploaded', "total_rows" int not null, "valid_rows" int not null, "problems" jsonb not null, "execution_options" jsonb not null, "created_by" uuid null, "started_at" timestamptz null, "completed_at" timestamptz null, constraint "bulk_issuance_requests_pkey" primary key ("id"));`,
    )
    this.addSql(`create index "bulk_issuance_requests_status_index" on "bulk_issuance_requests" ("status");`)
    this.addSql(
      `create index "bulk_issuance_requests_organization_id_created_at_index" on "bulk_issuance_requests" ("organization_id", "created_at");`,
    )
    this.addSql(
      `create table "bulk_issuance_rows" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "request_id" uuid not null, "row_number" int not null, "email" varchar(320) not null, "attributes" jsonb not null, "status" varchar(20) not null, "error" text null, "attempts" int not null default 0, "credential_record_id" varchar(100) null, constraint "bulk_issuance_rows_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "bulk_issuance_rows_request_id_status_index" on "bulk_issuance_rows" ("request_id", "status");`,
    )
    this.addSql(
      `alter table "bulk_issuance_rows" add constraint "bulk_issuance_rows_request_id_row_number_unique" unique ("request_id", "row_number");`,
    )
    this.addSql(
      `alter table "bulk_issuance_requests" add constraint "bulk_issuance_requests_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "bulk_issuance_rows" add constraint "bulk_issuance_rows_request_id_foreign" foreign key ("request_id") references "bulk_issuance_requests" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "bulk_issuance_rows" cascade;`)
    this.addSql(`drop table if exists "bulk_issuance_requests" cascade;`)
  }
}
