import { Migration } from '@mikro-orm/migrations'

/** Organizations' agents, the process runtime's port counters and the agents' events (modules/agents). */
export class Migration20261122100000AgentProvisioning extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "agent_port_counters" ("name" varchar(50) not null, "admin" int not null, "inbound" int not null, constraint "agent_port_counters_pkey" primary key ("name"));`,
    )

    this.addSql(
      `create table "org_agents" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "label" varchar(100) not null, "status" varchar(20) not null default 'PENDING', "failure_reason" text null, "admin_port" int null, "inbound_port" int null, "controller_endpoint" varchar(2048) null, "runtime" varchar(20) not null, "did_method" varchar(10) not null default 'key', "domain" varchar(253) null, "encrypted_api_key" text not null, "encrypted_wallet_key" text not null, "encrypted_seed" text null, "event_token_hash" varchar(64) not null, constraint "org_agents_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "org_agents" add constraint "org_agents_organization_id_unique" unique ("organization_id");`,
    )
    this.addSql(
      `alter table "org_agents" add constraint "org_agents_event_token_hash_unique" unique ("event_token_hash");`,
    )

    this.addSql(
      `create table "agent_events" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "event_id" varchar(200) not null, "kind" varchar(30) not null, "agent_label" varchar(256) not null, "tenant_id" varchar(200) null, "occurred_at" timestamptz not null, "record" jsonb not null, constraint "agent_events_pkey" primary key ("id"));`,
    )
    this.addSql(
      `alter table "agent_events" add constraint "agent_events_organization_id_event_id_unique" unique ("organization_id", "event_id");`,
    )

    this.addSql(
      `alter table "org_agents" add constraint "org_agents_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `alter table "agent_events" add constraint "agent_events_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "agent_events" cascade;`)
    this.addSql(`drop table if exists "org_agents" cascade;`)
    this.addSql(`drop table if exists "agent_port_counters" cascade;`)
  }
}
