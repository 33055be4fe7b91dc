import { randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { UnauthenticatedError } from '@idplane/common'
import { hashToken, tokenMatchesHash } from '../../infra/crypto/token-hash'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import { ModuleRegistry } from '../../infra/module-registry'

/**
 * Receives agents' events (DESIGN.md, "Events and webhooks"): the per-agent token names the organization,
 * and an event id is stored once per organization, so at-least-once delivery is applied exactly once.
 */
@injectable()
export class AgentEventsService {
  public constructor(
    private readonly em: EntityManager,
    private readonly modules: ModuleRegistry,
  ) {}

  /**
   * The organization whose agent holds `token`.
   * @throws UnauthenticatedError for a missing or unknown token
   */
  public async authenticate(token: string | undefined): Promise<string> {
    if (!token) throw new UnauthenticatedError('Agent event token required')
    const hash = hashToken(token)
    const rows = await this.em
      .getConnection()
      .execute<
        { organization_id: string; event_token_hash: string }[]
      >('select organization_id, event_token_hash from org_agents where event_token_hash = ?', [hash])
    const row = rows[0]
    if (!row || !tokenMatchesHash(token, row.event_token_hash))
      throw new UnauthenticatedError('Invalid agent event token')
    return row.organization_id
  }

  /**
   * Stores the event unless its id was seen for this organization, and applies a new one with the handlers the
   * modules declare for its kind, in the same transaction (a handler failure leaves it unstored, to be sent
   * again); true when it was new.
   */
  public async record(orgId: string, event: AgentEvent): Promise<boolean> {
    return this.em.transactional(async (em) => {
      const isNew = await this.insert(em, orgId, event)
      if (isNew) await this.modules.dispatch(orgId, event)
      return isNew
    })
  }

  private async insert(em: EntityManager, orgId: string, event: AgentEvent): Promise<boolean> {
    const now = new Date()
    const rows = await em.execute<{ id: string }[]>(
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
