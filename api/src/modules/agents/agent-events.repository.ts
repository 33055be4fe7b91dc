import { randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import { BaseRepository } from '../../infra/db/base.repository'
import { AgentEvent as AgentEventRow } from './agent-event.entity'
import { PreparedStatement } from '../../infra/db/prepared-statement'

/** A batch of events stored unless stored before, in the batch's order (the first of two equal ids wins). */
const INSERT_NEW = new PreparedStatement(
  'agent_events_insert_new',
  `insert into "agent_events" ("id", "created_at", "updated_at", "organization_id", "event_id", "kind", "agent_label",
     "tenant_id", "occurred_at", "record")
   select "e"."id", "p"."at", "p"."at", "p"."organization_id", "e"."event_id", "e"."kind", "e"."agent_label",
     "e"."tenant_id", "e"."occurred_at", "e"."record"
   from (select ?::timestamptz as "at", ?::uuid as "organization_id") as "p",
     rows from (jsonb_to_recordset(?::jsonb) as ("id" uuid, "event_id" text, "kind" text, "agent_label" text,
     "tenant_id" text, "occurred_at" timestamptz, "record" jsonb)) with ordinality
     as "e" ("id", "event_id", "kind", "agent_label", "tenant_id", "occurred_at", "record", "position")
   order by "e"."position"
   on conflict ("organization_id", "event_id") do nothing
   returning "event_id"`,
)

/** Storage of agents' events: one row per organization and event id. */
@injectable()
export class AgentEventsRepository extends BaseRepository<AgentEventRow> {
  public constructor(em: EntityManager) {
    super(em, AgentEventRow)
  }

  /**
   * Inserts the events whose ids were not stored for the organization yet, in one statement; resolves with the ids
   * it stored. An id twice in `events` is stored once, as its first occurrence. The batch goes in as one JSON
   * parameter of a prepared statement: one text for every batch size, planned once per connection.
   */
  public async insertNew(orgId: string, events: readonly AgentEvent[]): Promise<Set<string>> {
    if (events.length === 0) return new Set()
    const now = new Date()
    const batch = events.map((event) => ({
      id: randomUUID(),
      event_id: event.id,
      kind: event.kind,
      agent_label: event.agentLabel,
      tenant_id: event.tenantId ?? null,
      occurred_at: new Date(event.occurredAt),
      record: event.record,
    }))
    const { rows } = await this.runPreparedInTransaction<{ event_id: string }>(INSERT_NEW, [
      now,
      orgId,
      JSON.stringify(batch),
    ])
    return new Set(rows.map((row) => row.event_id))
  }
}
