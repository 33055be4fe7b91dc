import { Migration } from '@mikro-orm/migrations'

/**
 * Retention (issue 28 item 4) deletes finished webhook deliveries and mails by age. These partial indexes hold
 * only finished rows, ordered by the age retention reads, so a pass reads just the rows it deletes and never the
 * pending ones the relays work on. Short links and revoked sessions are pruned through their `expires_at` indexes.
 */
export class Migration20261128160000RetentionIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "webhook_deliveries_finished_index" on "webhook_deliveries" ("updated_at") where "status" <> 'pending';`,
    )
    this.addSql(
      `create index "mail_outbox_finished_index" on "mail_outbox" ("created_at") where "status" <> 'pending';`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "mail_outbox_finished_index";`)
    this.addSql(`drop index if exists "webhook_deliveries_finished_index";`)
  }
}
