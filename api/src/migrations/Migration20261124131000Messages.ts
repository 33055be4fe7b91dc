import { Migration } from '@mikro-orm/migrations'

/** Question-answer and basic-message records kept from agent events (modules/messages). */
export class Migration20261124131000Messages extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "question_answers" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "question_answer_id" varchar(100) not null, "connection_id" varchar(100) not null, "thread_id" varchar(100) null, "role" varchar(40) null, "state" varchar(40) not null, "question_text" text not null, "question_detail" text null, "valid_responses" jsonb not null, "response" text null, "agent_created_at" timestamptz not null, "agent_updated_at" timestamptz not null, constraint "question_answers_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "question_answers_organization_id_agent_created_at_index" on "question_answers" ("organization_id", "agent_created_at");`,
    )
    this.addSql(
      `alter table "question_answers" add constraint "question_answers_organization_id_question_answer_id_unique" unique ("organization_id", "question_answer_id");`,
    )
    this.addSql(
      `alter table "question_answers" add constraint "question_answers_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
    this.addSql(
      `create table "basic_messages" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "message_id" varchar(100) not null, "connection_id" varchar(100) not null, "role" varchar(40) not null, "content" text not null, "sent_time" varchar(64) null, "thread_id" varchar(100) null, "agent_created_at" timestamptz not null, constraint "basic_messages_pkey" primary key ("id"));`,
    )
    this.addSql(
      `create index "basic_messages_organization_id_connection_id_agent_18d44_index" on "basic_messages" ("organization_id", "connection_id", "agent_created_at");`,
    )
    this.addSql(
      `alter table "basic_messages" add constraint "basic_messages_organization_id_message_id_unique" unique ("organization_id", "message_id");`,
    )
    this.addSql(
      `alter table "basic_messages" add constraint "basic_messages_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "basic_messages" cascade;`)
    this.addSql(`drop table if exists "question_answers" cascade;`)
  }
}
