import { Migration } from '@mikro-orm/migrations'

/** Ecosystems and the organizations in them (modules/ecosystems). */
export class Migration20261124180000Ecosystems extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "ecosystems" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" varchar(50) not null, "description" varchar(255) not null, "tags" varchar(500) null, "logo_url" varchar(2048) null, "lead_organization_id" uuid not null, "created_by" uuid null, constraint "ecosystems_pkey" primary key ("id"));`,
    )
    this.addSql(`create index "ecosystems_lead_organization_id_index" on "ecosystems" ("lead_organization_id");`)
    this.addSql(`create index "ecosystems_name_index" on "ecosystems" ("name");`)
    this.addSql(
      `create table "ecosystem_orgs" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "ecosystem_id" uuid not null, "organization_id" uuid not null, "role" varchar(20) not null, "status" varchar(20) not null, "invited_by" uuid null, constraint "ecosystem_orgs_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "ecosystem_orgs_organization_id_status_index" on "ecosystem_orgs" ("organization_id", "status");`,
    )
    this.addSql(
      `alter table "ecosystem_orgs" add constraint "ecosystem_orgs_ecosystem_id_organization_id_unique" unique ("ecosystem_id", "organization_id");`,
    )
    this.addSql(
      `alter table "ecosystems" add constraint "ecosystems_lead_organization_id_foreign" foreign key ("lead_organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "ecosystem_orgs" add constraint "ecosystem_orgs_ecosystem_id_foreign" foreign key ("ecosystem_id") references "ecosystems" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "ecosystem_orgs" add constraint "ecosystem_orgs_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ecosystem_orgs" cascade;`)
    this.addSql(`drop table if exists "ecosystems" cascade;`)
  }
}
