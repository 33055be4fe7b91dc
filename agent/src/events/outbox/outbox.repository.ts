import type { SqlClient } from '../../adapters/sql/sql-client'
import type { AgentEventBody } from '../event-mapper'

export interface PendingEvent {
  id: string
  body: AgentEventBody
  attempts: number
}

/** The persisted outbox (`outbox_events`): an event is written here before anyone tries to send it. */
export class OutboxRepository {
  public constructor(private readonly sql: SqlClient) {}

  /** Idempotent by event id. */
  public async add(event: AgentEventBody): Promise<void> {
    await this.sql.query('INSERT INTO outbox_events (id, kind, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [
      event.id,
      event.kind,
      JSON.stringify(event),
    ])
  }

  /** Undelivered events whose next attempt is due, oldest first. */
  public async due(limit: number): Promise<PendingEvent[]> {
    const { rows } = await this.sql.query<PendingEvent>(
      `SELECT id::text AS id, body, attempts FROM outbox_events
       WHERE delivered_at IS NULL AND next_attempt_at <= now() ORDER BY seq LIMIT $1`,
      [limit],
    )
    return rows
  }

  public async markDelivered(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return
    await this.sql.query(
      'UPDATE outbox_events SET delivered_at = now(), attempts = attempts + 1 WHERE id = ANY($1::uuid[])',
      [ids],
    )
  }

  public async markFailed(id: string, delayMs: number, reason: string): Promise<void> {
    await this.sql.query(
      `UPDATE outbox_events SET attempts = attempts + 1, last_error = $3,
       next_attempt_at = now() + ($2::text || ' milliseconds')::interval WHERE id = $1`,
      [id, String(Math.round(delayMs)), reason.slice(0, 500)],
    )
  }

  public async countPending(): Promise<number> {
    const { rows } = await this.sql.query<{ count: string | number }>(
      'SELECT count(*) AS count FROM outbox_events WHERE delivered_at IS NULL',
    )
    return Number(rows[0].count)
  }
}
