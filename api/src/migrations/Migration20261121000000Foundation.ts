import { Migration } from '@mikro-orm/migrations'

/** Fixed ids so that every installation (and every client) sees the same role definition ids. */
export const SEEDED_ORG_ROLES = [
  { id: '0b4c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d01', name: 'owner', description: 'Owns the organization' },
  { id: '0b4c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d02', name: 'admin', description: 'Administers the organization' },
  { id: '0b4c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d03', name: 'issuer', description: 'Issues credentials' },
  { id: '0b4c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d04', name: 'verifier', description: 'Requests and verifies proofs' },
  { id: '0b4c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d05', name: 'member', description: 'Reads organization data' },
  { id: '0b4c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d06', name: 'holder', description: 'Holds credentials' },
  { id: '0b4c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d07', name: 'super_admin', description: 'Super administrator' },
  { id: '0b4c7d6e-1f2a-4b3c-8d4e-5f6a7b8c9d08', name: 'platform_admin', description: 'Platform administrator' },
] as const

/** Users, verification, refresh tokens, rate limits, organizations, roles, invitations, DIDs, client credentials. */
export class Migration20261121000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "users" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "email" varchar(320) not null, "first_name" varchar(100) not null, "last_name" varchar(100) not null, "password_hash" varchar(255) not null, "is_email_verified" boolean not null default false, "client_alias" varchar(64) null, constraint "users_pkey" primary key ("id"));`,
    )
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`)

    this.addSql(
      `create table "email_verifications" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "email" varchar(320) not null, "code_hash" varchar(64) not null, "client_alias" varchar(64) not null, "expires_at" timestamptz not null, "verified_at" timestamptz null, "consumed_at" timestamptz null, "failed_attempts" int not null default 0, constraint "email_verifications_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "email_verifications_email_created_at_index" on "email_verifications" ("email", "created_at");`,
    )

    this.addSql(
      `create table "refresh_tokens" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "family_id" uuid not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "revoked_at" timestamptz null, constraint "refresh_tokens_pkey" primary key ("id"));`,
    )
    this.addSql(`alter table "refresh_tokens" add constraint "refresh_tokens_token_hash_unique" unique ("token_hash");`)
    this.addSql(`create index "refresh_tokens_family_id_index" on "refresh_tokens" ("family_id");`)

    this.addSql(
      `create table "rate_limit_hits" ("key" varchar(400) not null, "window_start" timestamptz not null, "count" int not null default 0, constraint "rate_limit_hits_pkey" primary key ("key", "window_start"));`,
    )

    this.addSql(
      `create table "organizations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" varchar(200) not null, "slug" varchar(220) not null, "description" text not null, "logo_url" text not null default '', "website" varchar(2048) null, "registration_number" varchar(200) null, "notification_webhook" varchar(2048) null, "is_public" boolean not null default false, "country_id" int null, "state_id" int null, "city_id" int null, "created_by" uuid null, constraint "organizations_pkey" primary key ("id"));`,
    )
    this.addSql(`alter table "organizations" add constraint "organizations_slug_unique" unique ("slug");`)
    this.addSql(`create index "organizations_name_index" on "organizations" ("name");`)

    this.addSql(
      `create table "org_roles" ("id" uuid not null, "name" varchar(50) not null, "description" varchar(200) not null, constraint "org_roles_pkey" primary key ("id"));`,
    )
    this.addSql(`alter table "org_roles" add constraint "org_roles_name_unique" unique ("name");`)

    this.addSql(
      `create table "user_org_roles" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "organization_id" uuid not null, "org_role_id" uuid not null, constraint "user_org_roles_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "user_org_roles" add constraint "user_org_roles_user_id_organization_id_org_role_id_unique" unique ("user_id", "organization_id", "org_role_id");`,
    )

    this.addSql(
      `create table "org_invitations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "email" varchar(320) not null, "status" varchar(20) not null default 'pending', "org_role_ids" jsonb not null, "invited_by" uuid null, constraint "org_invitations_pkey" primary key ("id"));`,
    )
    this.addSql(`create index "org_invitations_email_index" on "org_invitations" ("email");`)

    this.addSql(
      `create table "org_dids" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "did" varchar(2048) not null, "method" varchar(50) not null, "is_primary_did" boolean not null default false, constraint "org_dids_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "org_dids" add constraint "org_dids_organization_id_did_unique" unique ("organization_id", "did");`,
    )
    this.addSql(
      `create unique index "org_dids_one_primary_per_org" on "org_dids" ("organization_id") where "is_primary_did";`,
    )

    this.addSql(
      `create table "client_credentials" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "client_id" uuid not null, "secret_hash" varchar(255) not null, "secret_hint" varchar(8) not null, "created_by" uuid null, constraint "client_credentials_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "client_credentials" add constraint "client_credentials_organization_id_unique" unique ("organization_id");`,
    )
    this.addSql(
      `alter table "client_credentials" add constraint "client_credentials_client_id_unique" unique ("client_id");`,
    )

    this.addSql(
      `alter table "refresh_tokens" add constraint "refresh_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "user_org_roles" add constraint "user_org_roles_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "user_org_roles" add constraint "user_org_roles_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "user_org_roles" add constraint "user_org_roles_org_role_id_foreign" foreign key ("org_role_id") references "org_roles" ("id") on update cascade on delete restrict;`,
    )
    this.addSql(
      `alter table "org_invitations" add constraint "org_invitations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "org_dids" add constraint "org_dids_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "client_credentials" add constraint "client_credentials_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )

    for (const role of SEEDED_ORG_ROLES) {
      this.addSql(
        `insert into "org_roles" ("id", "name", "description") values ('${role.id}', '${role.name}', '${role.description}');`,
      )
    }
  }

  override async down(): Promise<void> {
    for (const table of [
      'client_credentials',
      'org_dids',
      'org_invitations',
      'user_org_roles',
      'org_roles',
      'organizations',
      'rate_limit_hits',
      'refresh_tokens',
      'email_verifications',
      'users',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`)
    }
  }
}
