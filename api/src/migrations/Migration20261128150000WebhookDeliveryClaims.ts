import { Migration } from '@mikro-orm/migrations'

/**
 * Webhook deliveries leave the queue for the shared outbox relay (issue 24 item 3, issue 23 item 5): the relay
 * claims due rows by `next_attempt_at`, so `queued_until` goes; the per-owner limit counts live claims through a
 * partial index that holds only the deliveries being attempted.
 */
export class Migration20261128150000WebhookDeliveryClaims extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_status_queued_until_index";`)
    this.addSql(`alter table "webhook_deliveries" drop column "queued_until";`)
    this.addSql(
      `create index "webhook_deliveries_status_next_attempt_at_index" on "webhook_deliveries" ("status", "next_attempt_at");`,
    )
    this.addSql(
      `create index "webhook_deliveries_claimed_index" on "webhook_deliveries" ("claimed_until") where "claimed_until" is not null;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_claimed_index";`)
    this.addSql(`drop index if exists "webhook_deliveries_status_next_attempt_at_index";`)
    this.addSql(`alter table "webhook_deliveries" add column "queued_until" timestamptz null;`)
    this.addSql(
      `create index "webhook_deliveries_status_queued_until_index" on "webhook_deliveries" ("status", "queued_until");`,
    )
  }
}
