import { createHash } from 'node:crypto'

import { BoundedMap, type Logger } from '@idplane/common'

import type { SqlClient } from '../adapters/sql/sql-client'

/** How long a taken envelope is remembered: longer than a sender keeps retrying one (our queue: about 2 hours). */
export const TAKEN_ENVELOPE_RETENTION_HOURS = 24
const PRUNE_INTERVAL_MS = 10 * 60 * 1000
const PRUNE_BATCH = 5000
/**
 * Digests kept in memory (about 100 bytes each): a resend comes within a minute or so of the attempt it repeats
 * (the sender's lease, then its backoff), far fewer messages than this on any agent.
 */
const REMEMBERED = 10_000

/**
 * The digests of the DIDComm envelopes this agent has processed (`inbound_envelopes`), so that one sent again is
 * dropped rather than processed twice. A sender sends a message again when it did not see it taken: its process was
 * killed while the message was being processed here (our outbound queue writes every message as its first
 * attempt), or the answer was lost. Processed twice, a message for an exchange that has moved on is refused by
 * Credo as an error ("Credential record is in invalid state done"), logged and answered 500, and one without such a
 * state (a basic message, a question's answer) would act twice.
 *
 * An envelope is recorded once it was processed without error, so one whose processing was cut by this process dying
 * is processed when it comes again. Envelopes are encrypted with a fresh key each, so equal bytes are a resend.
 *
 * Checked in memory: the most recent digests, read from the table at start (the process before may have taken what
 * is sent again now) and kept as they are added; the table is written for the next process, after the answer (off
 * the sender's path). One write per message.
 */
export class TakenEnvelopes {
  private timer: NodeJS.Timeout | undefined
  private readonly recent = new BoundedMap<string, true>(REMEMBERED)

  public constructor(
    private readonly sql: SqlClient,
    private readonly logger: Logger,
  ) {}

  public static digestOf(body: string): string {
    return createHash('sha256').update(body).digest('base64url')
  }

  /** Reads the most recent digests (before the inbound transport starts). */
  public async load(): Promise<void> {
    const { rows } = await this.sql.query<{ digest: string }>(
      `SELECT digest FROM inbound_envelopes WHERE taken_at > now() - ($1::text || ' hours')::interval
       ORDER BY taken_at DESC LIMIT $2`,
      [String(TAKEN_ENVELOPE_RETENTION_HOURS), REMEMBERED],
    )
    for (const { digest } of rows.reverse()) this.recent.set(digest, true)
  }

  public has(digest: string): boolean {
    return this.recent.get(digest) !== undefined
  }

  /** Known at once to this process; written for the next one. */
  public async add(digest: string): Promise<void> {
    this.recent.set(digest, true)
    await this.sql.query('INSERT INTO inbound_envelopes (digest) VALUES ($1) ON CONFLICT (digest) DO NOTHING', [digest])
  }

  /** Forgets digests past the retention, a batch at a time, every ten minutes. */
  public startPruning(): void {
    const prune = () =>
      this.prune().catch((error: unknown) => this.logger.warn('Could not prune taken envelopes', { error }))
    this.timer = setInterval(prune, PRUNE_INTERVAL_MS)
    this.timer.unref()
  }

  public stopPruning(): void {
    if (this.timer) clearInterval(this.timer)
  }

  /** @returns how many digests were forgotten */
  public async prune(retentionHours = TAKEN_ENVELOPE_RETENTION_HOURS): Promise<number> {
    let total = 0
    for (;;) {
      const { rows } = await this.sql.query(
        `DELETE FROM inbound_envelopes WHERE digest IN (SELECT digest FROM inbound_envelopes
         WHERE taken_at < now() - ($1::text || ' hours')::interval LIMIT $2) RETURNING 1`,
        [String(retentionHours), PRUNE_BATCH],
      )
      total += rows.length
      if (rows.length < PRUNE_BATCH) return total
    }
  }
}
