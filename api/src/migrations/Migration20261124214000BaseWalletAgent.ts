import { Migration } from '@mikro-orm/migrations'

/** The platform's own base-wallet agent (modules/cloud-wallet): the managed flag, its ports, no endpoint yet. */
export class Migration20261124214000BaseWalletAgent extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "base_wallets" add column "managed" boolean not null default false, add column "admin_port" int null, add column "inbound_port" int null;`,
    )
    this.addSql(`alter table "base_wallets" alter column "agent_endpoint" drop not null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "base_wallets" where "agent_endpoint" is null;`)
    this.addSql(`alter table "base_wallets" alter column "agent_endpoint" set not null;`)
    this.addSql(
      `alter table "base_wallets" drop column "managed", drop column "admin_port", drop column "inbound_port";`,
    )
  }
}
