import { randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import { BaseRepository } from '../../infra/db/base.repository'
import { AgentEvent as AgentEventRow } from './agent-event.entity'

/** Storage of agents' events: one row per organization and event id. */
@injectable()
export class AgentEventsRepository extends BaseRepository<AgentEventRow> {
  public constructor(em: EntityManager) {
    super(em, AgentEventRow)
  }

  /**
   * Inserts the events whose ids were not stored for the organization yet, in one statement; resolves with the ids
   * it stored. An id twice in `events` is stored once, as its first occurrence.
   */
  public async insertNew(orgId: string, events: readonly AgentEvent[]): Promise<Set<string>> {
    if (events.length === 0) return new Set()
    const now = new Date()
    const params: unknown[] = []
    const values: string[] = []
    for (const event of events) {
      values.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)')
      params.push(
        randomUUID(),
        now,
        now,
        orgId,
        event.id,
        event.kind,
        event.agentLabel,
        event.tenantId ?? null,
        new Date(event.occurredAt),
        JSON.stringify(event.record),
      )
    }
    const rows = await this.em.execute<{ event_id: string }[]>(
      `insert into agent_events (id, created_at, updated_at, organization_id, event_id, kind, agent_label, tenant_id, occurred_at, record)
       values ${values.join(', ')}
       on conflict (organization_id, event_id) do nothing returning event_id`,
      params,
    )
    return new Set(rows.map((row) => row.event_id))
  }
}
