import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { BaseRepository } from '../db/base.repository'
import { PreparedStatement } from '../db/prepared-statement'
import type { OutboxClaim } from '../outbox/outbox-relay'
import type { MailMessage } from './mailer'
import { MailOutboxEntry } from './mail-outbox.entity'

/** A claimed row: what the relay needs to send it and to mark it. */
export interface ClaimedMail {
  id: string
  idempotencyKey: string
  message: MailMessage
  attempts: number
}

/**
 * The outbox's queries. Times come from the database clock (`now()`), so replicas with skewed clocks agree
 * on leases and backoff. Claims use `for update skip locked`: replicas never claim the same row at once.
 */
@injectable()
export class MailOutboxRepository extends BaseRepository<MailOutboxEntry> {
  public constructor(em: EntityManager) {
    super(em, MailOutboxEntry)
  }

  /** Adds mails in the current transaction, if any. A key already present is kept as it is (no second mail). */
  public async add(entries: readonly { idempotencyKey: string; message: MailMessage }[]): Promise<void> {
    if (entries.length === 0) return
    await this.em
      .createQueryBuilder(MailOutboxEntry)
      .insert(entries.map((entry) => ({ ...new MailOutboxEntry(), ...entry })))
      .onConflict('idempotencyKey')
      .ignore()
      .execute()
  }

  /** Claims the oldest due rows, up to `claim.max`, for `claim.leaseSeconds` under `claim.token`, oldest first. */
  public async claimDue(claim: OutboxClaim): Promise<ClaimedMail[]> {
    const { rows } = await this.runPrepared<{
      id: string
      idempotency_key: string
      message: MailMessage | string
      attempts: number
    }>(CLAIM, [claim.leaseSeconds, claim.token, claim.max])
    return rows.map((row) => ({
      id: row.id,
      idempotencyKey: row.idempotency_key,
      message: typeof row.message === 'string' ? (JSON.parse(row.message) as MailMessage) : row.message,
      attempts: Number(row.attempts),
    }))
  }

  /** Marks a claimed row sent; false when the claim was lost (the lease ran out and another relay took it). */
  public async markSent(id: string, claimToken: string): Promise<boolean> {
    const { rowCount } = await this.runPrepared(MARK_SENT, [id, claimToken])
    return rowCount === 1
  }

  /** Releases a failed claim: due again after `retryInSeconds`, or dead when `isDead`; false when the claim was lost. */
  public async markFailed(
    id: string,
    claimToken: string,
    error: string,
    retryInSeconds: number,
    isDead: boolean,
  ): Promise<boolean> {
    const { rowCount } = await this.runPrepared(MARK_FAILED, [
      isDead ? 'dead' : 'pending',
      retryInSeconds,
      error,
      id,
      claimToken,
    ])
    return rowCount === 1
  }

  /**
   * Deletes at most `limit` finished mails (sent or dead) written more than `retentionSeconds` ago, oldest first
   * (a retention batch, through the partial index of finished rows); resolves with how many.
   */
  public pruneFinished(retentionSeconds: number, limit: number): Promise<number> {
    return this.deleteBatch(
      `"status" <> 'pending' and "created_at" < now() - make_interval(secs => ?)`,
      [retentionSeconds],
      '"created_at"',
      limit,
    )
  }
}

/**
 * claimDue's statement. UPDATE ... RETURNING keeps no order: the outer select returns the claimed rows oldest first.
 * The rows are chosen by `= any(array(...))`, a subquery run once, never `in (select ...)`: with statistics of a
 * nearly empty outbox the planner made that the inner side of a nested loop, run again per row, and each run skipped
 * the rows the statement had just claimed (locked by itself) and returned the next, so a claim of one took several.
 */
const CLAIM = new PreparedStatement(
  'mail_outbox_claim',
  `with "claimed" as (
     update "mail_outbox" set "claimed_until" = now() + make_interval(secs => ?::double precision),
       "claim_token" = ?::uuid, "attempts" = "attempts" + 1
     where "id" = any(array(
       select "id" from "mail_outbox"
       where "status" = 'pending' and "available_at" <= now()
         and ("claimed_until" is null or "claimed_until" < now())
       order by "created_at", "id" limit ? for update skip locked))
     returning "id", "idempotency_key", "message", "attempts", "created_at")
   select "id", "idempotency_key", "message", "attempts" from "claimed" order by "created_at", "id"`,
)

const MARK_SENT = new PreparedStatement(
  'mail_outbox_mark_sent',
  `update "mail_outbox" set "status" = 'sent', "sent_at" = now(), "claimed_until" = null, "claim_token" = null
   where "id" = ?::uuid and "claim_token" = ?::uuid`,
)

const MARK_FAILED = new PreparedStatement(
  'mail_outbox_mark_failed',
  `update "mail_outbox" set "status" = ?, "available_at" = now() + make_interval(secs => ?::double precision),
     "claimed_until" = null, "claim_token" = null, "last_error" = ?
   where "id" = ?::uuid and "claim_token" = ?::uuid`,
)
