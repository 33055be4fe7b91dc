import { Migration } from '@mikro-orm/migrations'

/** The transactional mail outbox (infra/mail/mail-outbox.entity.ts). */
export class Migration20261124110000MailOutbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "mail_outbox" ("id" uuid not null, "idempotency_key" varchar(200) not null, "message" jsonb not null, "status" varchar(10) not null default 'pending', "attempts" int not null default 0, "available_at" timestamptz not null, "claimed_until" timestamptz null, "claim_token" uuid null, "sent_at" timestamptz null, "last_error" text null, "created_at" timestamptz not null, constraint "mail_outbox_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "mail_outbox" add constraint "mail_outbox_idempotency_key_unique" unique ("idempotency_key");`,
    )
    this.addSql(`create index "mail_outbox_status_available_at_index" on "mail_outbox" ("status", "available_at");`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "mail_outbox" cascade;`)
  }
}
