import { Migration } from '@mikro-orm/migrations'

/** INDY schemas' ledger ids and issuers (modules/schemas) and credential definitions (modules/cred-defs). */
export class Migration20261124213000IndyDefinitions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "credential_schemas" add column "ledger_id" varchar(2048) null, add column "issuer_id" varchar(2048) null;`,
    )
    this.addSql(
      `create index "credential_schemas_organization_id_ledger_id_index" on "credential_schemas" ("organization_id", "ledger_id");`,
    )
    this.addSql(
      `create table "credential_definitions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "tag" varchar(64) not null, "schema_ledger_id" varchar(2048) not null, "revocable" boolean not null, "publisher_did" varchar(2048) not null, "credential_definition_id" varchar(2048) null, "status" varchar(20) not null default 'creating', "error" text null, "execution" int not null default 1, "created_by" uuid null, constraint "credential_definitions_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "credential_definitions_organization_id_created_at_index" on "credential_definitions" ("organization_id", "created_at");`,
    )
    this.addSql(
      `create index "credential_definitions_credential_definition_id_index" on "credential_definitions" ("credential_definition_id");`,
    )
    this.addSql(
      `alter table "credential_definitions" add constraint "credential_definitions_organization_id_schema_led_bc983_unique" unique ("organization_id", "schema_ledger_id", "tag");`,
    )
    this.addSql(
      `alter table "credential_definitions" add constraint "credential_definitions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "credential_definitions" cascade;`)
    this.addSql(`drop index if exists "credential_schemas_organization_id_ledger_id_index";`)
    this.addSql(`alter table "credential_schemas" drop column "ledger_id", drop column "issuer_id";`)
  }
}
