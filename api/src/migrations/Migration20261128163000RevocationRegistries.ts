import { Migration } from '@mikro-orm/migrations'

/**
 * Revocation registries of revocable credential definitions (issue 25 item 3): one row per registry with its size
 * and the next index to give out, moved forward by the statement that gives it (never reused after a crash).
 */
export class Migration20261128163000RevocationRegistries extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revocation_registries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "credential_definition_id" uuid not null, "revocation_registry_definition_id" varchar(2048) not null, "size" int not null, "next_index" int not null default 1, "state" varchar(16) not null default 'active', constraint "revocation_registries_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "revocation_registries" add constraint "revocation_registries_revocation_registry_definition_id_unique" unique ("revocation_registry_definition_id");`,
    )
    this.addSql(
      `create index "revocation_registries_credential_definition_id_sta_7d728_index" on "revocation_registries" ("credential_definition_id", "state", "created_at");`,
    )
    this.addSql(
      `alter table "revocation_registries" add constraint "revocation_registries_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "revocation_registries" add constraint "revocation_registries_credential_definition_id_foreign" foreign key ("credential_definition_id") references "credential_definitions" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revocation_registries" cascade;`)
  }
}
