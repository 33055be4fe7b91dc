import { Migration } from '@mikro-orm/migrations'

/**
 * `Idempotency-Key` on creating POSTs (issue 23 item 9; infra/http/idempotency/): the first answer per key and scope
 * (organization, or caller), kept a day. The unique (scope, key) index is what lets exactly one of two concurrent
 * requests act; the expiry index serves the prune.
 */
export class Migration20261128133000IdempotencyKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "idempotency_keys" ("id" uuid not null, "scope" varchar(100) not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "state" varchar(10) not null default 'pending', "response_status" int null, "response_body" jsonb null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_scope_key_unique" unique ("scope", "key");`,
    )
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`)
  }
}
