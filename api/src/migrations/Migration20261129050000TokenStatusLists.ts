import { Migration } from '@mikro-orm/migrations'

/**
 * IETF Token Status Lists of SD-JWT VCs (issue 29 item 4) in the status-list tables: a list's format (`bitstring` as
 * before, or `token`) joins its unique key, and a token list keeps its signed JWT instead of a credential.
 */
export class Migration20261129050000TokenStatusLists extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "status_lists" add column "format" varchar(16) not null default 'bitstring', add column "token" text null, alter column "credential" drop not null;`,
    )
    this.addSql(
      `alter table "status_lists" drop constraint "status_lists_organization_id_issuer_purpose_sequence_unique";`,
    )
    this.addSql(
      `alter table "status_lists" add constraint "status_lists_organization_id_format_issuer_purpos_75224_unique" unique ("organization_id", "format", "issuer", "purpose", "sequence");`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "status_lists" where "format" <> 'bitstring';`)
    this.addSql(
      `alter table "status_lists" drop constraint "status_lists_organization_id_format_issuer_purpos_75224_unique";`,
    )
    this.addSql(
      `alter table "status_lists" add constraint "status_lists_organization_id_issuer_purpose_sequence_unique" unique ("organization_id", "issuer", "purpose", "sequence");`,
    )
    this.addSql(
      `alter table "status_lists" drop column "format", drop column "token", alter column "credential" set not null;`,
    )
  }
}
