import type { SqlClient } from '../../adapters/sql/sql-client'

export interface PendingEvent {
  id: string
  /** The event body as JSON text, sent as it is. */
  body: string
  attempts: number
  /** What it must stay in order with (eventOrderKey), when its producer knows; read from the body otherwise. */
  orderKey?: string
}

/**
 * The persisted outbox (`outbox_events`). Rows are written by the storage, in the statement that changes the
 * record (sql-storage.service.ts); a row lives until the platform took its event.
 */
export class OutboxRepository {
  public constructor(private readonly sql: SqlClient) {}

  /** Undelivered events whose next attempt is due, oldest first, leaving out those in `except`. */
  public async due(limit: number, except: readonly string[] = []): Promise<PendingEvent[]> {
    const { rows } = await this.sql.query<PendingEvent>(
      `SELECT id::text AS id, body, attempts FROM outbox_events
       WHERE delivered_at IS NULL AND next_attempt_at <= now() AND NOT (id = ANY($2::uuid[]))
       ORDER BY seq LIMIT $1`,
      [limit, except],
    )
    return rows
  }

  public async delivered(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return
    await this.sql.query('DELETE FROM outbox_events WHERE id = ANY($1::uuid[])', [ids])
  }

  public async markFailed(id: string, delayMs: number, reason: string): Promise<void> {
    await this.sql.query(
      `UPDATE outbox_events SET attempts = attempts + 1, last_error = $3,
       next_attempt_at = now() + ($2::text || ' milliseconds')::interval WHERE id = $1`,
      [id, String(Math.round(delayMs)), reason.slice(0, 500)],
    )
  }
}
