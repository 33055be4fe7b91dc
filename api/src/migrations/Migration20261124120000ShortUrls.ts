import { Migration } from '@mikro-orm/migrations'

/** Short invitation links (modules/short-urls). */
export class Migration20261124120000ShortUrls extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "short_urls" ("id" uuid not null, "code" varchar(32) not null, "organization_id" uuid null, "target_url" text not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, constraint "short_urls_pkey" primary key ("id"));`,
    )
    this.addSql(`alter table "short_urls" add constraint "short_urls_code_unique" unique ("code");`)
    this.addSql(`create index "short_urls_expires_at_index" on "short_urls" ("expires_at");`)
    this.addSql(
      `alter table "short_urls" add constraint "short_urls_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "short_urls" cascade;`)
  }
}
