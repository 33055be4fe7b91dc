import { Migration } from '@mikro-orm/migrations'

/**
 * Organizations' OpenID4VC sessions on the record kit (issue 29 item 2/3): OID4VCI issuance sessions
 * (modules/oid4vc) and OID4VP verification sessions (modules/oid4vp), kept from the agent's events for ordering,
 * state events and webhooks. No code, token or nonce has a column.
 */
export class Migration20261129060000Openid4vcSessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "oid4vc_issuance_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "issuer_id" varchar(200) not null, "state" varchar(30) not null, "credential_configuration_ids" jsonb not null, "issued_credentials" jsonb not null, "is_pre_authorized" boolean not null, "has_tx_code" boolean not null, "error_message" text null, "expires_at" timestamptz null, "agent_updated_at" timestamptz not null, constraint "oid4vc_issuance_sessions_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "oid4vc_issuance_sessions_organization_id_created_at_index" on "oid4vc_issuance_sessions" ("organization_id", "created_at");`,
    )
    this.addSql(
      `alter table "oid4vc_issuance_sessions" add constraint "oid4vc_issuance_sessions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `create table "oid4vp_verification_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "verifier_id" varchar(200) not null, "state" varchar(30) not null, "authorization_request_uri" text null, "error_message" text null, "disclosed" jsonb null, "expires_at" timestamptz null, "agent_updated_at" timestamptz not null, constraint "oid4vp_verification_sessions_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "oid4vp_verification_sessions_organization_id_created_at_index" on "oid4vp_verification_sessions" ("organization_id", "created_at");`,
    )
    this.addSql(
      `alter table "oid4vp_verification_sessions" add constraint "oid4vp_verification_sessions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "oid4vp_verification_sessions" cascade;`)
    this.addSql(`drop table if exists "oid4vc_issuance_sessions" cascade;`)
  }
}
