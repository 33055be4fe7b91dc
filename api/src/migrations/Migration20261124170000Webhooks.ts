import { Migration } from '@mikro-orm/migrations'

/** Webhook registrations and their deliveries (modules/webhooks). */
export class Migration20261124170000Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhooks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid null, "tenant_id" varchar(200) null, "owner_user_id" uuid null, "url" varchar(2048) not null, "sealed_secret" text null, primary key ("id"));`,
    )
    this.addSql(`alter table "webhooks" add constraint "webhooks_organization_id_unique" unique ("organization_id");`)
    this.addSql(`alter table "webhooks" add constraint "webhooks_tenant_id_unique" unique ("tenant_id");`)
    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "event_id" varchar(200) not null, "event_type" varchar(100) not null, "organization_id" uuid null, "tenant_id" varchar(200) null, "webhook_id" uuid null, "target" varchar(30) not null, "target_url" varchar(2048) not null, "payload" jsonb not null, "occurred_at" timestamptz not null, "status" varchar(10) not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "queued_until" timestamptz null, "claimed_until" timestamptz null, "claim_token" uuid null, "last_response_code" int null, "last_error" text null, "delivered_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    )
    this.addSql(
      `create index "webhook_deliveries_organization_id_created_at_index" on "webhook_deliveries" ("organization_id", "created_at");`,
    )
    this.addSql(
      `create index "webhook_deliveries_status_queued_until_index" on "webhook_deliveries" ("status", "queued_until");`,
    )
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_target_url_unique" unique ("event_id", "target_url");`,
    )
    this.addSql(
      `alter table "webhooks" add constraint "webhooks_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`)
    this.addSql(`drop table if exists "webhooks" cascade;`)
  }
}
