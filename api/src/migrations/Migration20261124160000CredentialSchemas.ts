import { Migration } from '@mikro-orm/migrations'

/** Credential schemas (modules/schemas): JSON schemas published by the platform. */
export class Migration20261124160000CredentialSchemas extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "credential_schemas" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "type" varchar(10) not null, "schema_type" varchar(30) not null, "name" varchar(256) not null, "version" varchar(64) not null, "description" text null, "alias" varchar(256) null, "attributes" jsonb not null, "json_schema" jsonb not null, "created_by" uuid null, "publisher_did" varchar(2048) null, constraint "credential_schemas_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "credential_schemas_organization_id_created_at_index" on "credential_schemas" ("organization_id", "created_at");`,
    )
    this.addSql(
      `alter table "credential_schemas" add constraint "credential_schemas_organization_id_name_version_unique" unique ("organization_id", "name", "version");`,
    )
    this.addSql(
      `alter table "credential_schemas" add constraint "credential_schemas_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "credential_schemas" cascade;`)
  }
}
