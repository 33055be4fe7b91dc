import { Migration } from '@mikro-orm/migrations'

/**
 * Issuance and revocation of revocable AnonCreds credentials (issue 25 item 3): an issuance record names its
 * registry and index and its revocation (`pending` until published, then `revoked`); a registry row records the
 * claim of the process that makes its successor (one per registry, not one per concurrent offer).
 */
export class Migration20261128230000RevocationIssuance extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "revocation_registries" add column "successor_claimed_at" timestamptz null;`)
    this.addSql(
      `alter table "issuance_records" add column "revocation_registry_id" varchar(2048) null, add column "revocation_index" int null, add column "revocation_status" varchar(16) null, add column "revocation_requested_at" timestamptz null, add column "revoked_at" timestamptz null;`,
    )
    this.addSql(
      `create index "issuance_records_organization_id_revocation_status_index" on "issuance_records" ("organization_id", "revocation_status");`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "issuance_records_organization_id_revocation_status_index";`)
    this.addSql(
      `alter table "issuance_records" drop column "revocation_registry_id", drop column "revocation_index", drop column "revocation_status", drop column "revocation_requested_at", drop column "revoked_at";`,
    )
    this.addSql(`alter table "revocation_registries" drop column "successor_claimed_at";`)
  }
}
