import { Migration } from '@mikro-orm/migrations'

/** Organizations' proof records (modules/proofs). */
export class Migration20261124150000ProofRecords extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "proof_records" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "state" varchar(30) not null, "role" varchar(20) not null, "connection_id" varchar(100) null, "thread_id" varchar(200) not null, "protocol_version" varchar(10) not null, "is_verified" boolean null, "error_message" text null, "out_of_band_id" varchar(100) null, "request_type" varchar(30) null, "agent_updated_at" timestamptz not null, constraint "proof_records_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "proof_records_organization_id_created_at_index" on "proof_records" ("organization_id", "created_at");`,
    )
    this.addSql(
      `alter table "proof_records" add constraint "proof_records_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "proof_records" cascade;`)
  }
}
