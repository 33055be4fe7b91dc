import { Migration } from '@mikro-orm/migrations'

/** Agents' restarts and last exit (process runtime), and the claim that replaces a row lock held over HTTP. */
export class Migration20261124060000AgentLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "org_agents" add column "restarts" int not null default 0, add column "last_exit_code" int null, add column "last_exit_signal" varchar(20) null, add column "last_exit_at" timestamptz null, add column "claim_token" uuid null, add column "claim_expires_at" timestamptz null;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "org_agents" drop column "restarts", drop column "last_exit_code", drop column "last_exit_signal", drop column "last_exit_at", drop column "claim_token", drop column "claim_expires_at";`,
    )
  }
}
