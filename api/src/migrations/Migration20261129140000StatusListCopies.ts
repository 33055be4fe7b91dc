import { Migration } from '@mikro-orm/migrations'

/**
 * The indices of an OpenID4VC batch's further copies in the offer's status list (issue 29): each SD-JWT VC copy has
 * its own entry instead of sharing the first one's.
 */
export class Migration20261129140000StatusListCopies extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "issuance_records" add column "status_list_copy_indices" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "issuance_records" drop column "status_list_copy_indices";`)
  }
}
