import { Migration } from '@mikro-orm/migrations'

/** Sessions ended before their access tokens expire (modules/auth/revoked-session.entity.ts). */
export class Migration20261124100000RevokedSessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revoked_sessions" ("session_id" varchar(100) not null, "reason" varchar(40) not null, "revoked_at" timestamptz not null, "expires_at" timestamptz not null, constraint "revoked_sessions_pkey" primary key ("session_id"));`,
    )
    this.addSql(`create index "revoked_sessions_expires_at_index" on "revoked_sessions" ("expires_at");`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revoked_sessions" cascade;`)
  }
}
