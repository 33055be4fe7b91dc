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

  /** Inserts the event unless its id was stored for the organization already; true when it was new. */
  public async insertOnce(orgId: string, event: AgentEvent): Promise<boolean> {
    const now = new Date()
    const rows = await this.em.execute<{ id: string }[]>(
      `insert into agent_events (id, created_at, updated_at, organization_id, event_id, kind, agent_label, tenant_id, occurred_at, record)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)
       on conflict (organization_id, event_id) do nothing returning id`,
      [
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
      ],
    )
    return rows.length > 0
  }
}
