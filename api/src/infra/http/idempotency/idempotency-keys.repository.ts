import { randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import type { IdempotencyState } from './idempotency-record.entity'

/** What a claim found: the key is ours to act on, or an earlier request holds it. */
export type ClaimResult =
  | { kind: 'claimed'; id: string }
  | {
      kind: 'taken'
      fingerprint: string
      state: IdempotencyState
      responseStatus: number | null
      responseBody: unknown
    }

interface Row {
  id: string
  fingerprint: string
  state: IdempotencyState
  response_status: number | null
  response_body: unknown
}

/**
 * The `idempotency_keys` table (IdempotencyRecord). A claim is one atomic insert, so of two concurrent requests with
 * one key exactly one acts. Runs outside the request's transaction on purpose: the claim must be visible to a
 * concurrent retry at once, and the answer stays recorded whatever the route's own transaction did.
 */
@injectable()
export class IdempotencyKeysRepository {
  public constructor(private readonly em: EntityManager) {}

  /**
   * Claims `key` in `scope`, taking over a row that expired or a pending one older than `staleBefore` (its request
   * died with its process); otherwise returns the row that holds the key.
   */
  public async claim(
    scope: string,
    key: string,
    fingerprint: string,
    expiresAt: Date,
    staleBefore: Date,
  ): Promise<ClaimResult> {
    const connection = this.em.getConnection()
    const now = new Date()
    const claimed = await connection.execute<{ id: string }[]>(
      'insert into "idempotency_keys" ("id", "scope", "key", "fingerprint", "state", "created_at", "expires_at") ' +
        'values (?, ?, ?, ?, \'pending\', ?, ?) on conflict ("scope", "key") do update set ' +
        '"id" = excluded."id", "fingerprint" = excluded."fingerprint", "state" = excluded."state", ' +
        '"response_status" = null, "response_body" = null, "created_at" = excluded."created_at", ' +
        '"expires_at" = excluded."expires_at" ' +
        'where "idempotency_keys"."expires_at" <= ? or ' +
        '("idempotency_keys"."state" = \'pending\' and "idempotency_keys"."created_at" < ?) returning "id"',
      [randomUUID(), scope, key, fingerprint, now, expiresAt, now, staleBefore],
    )
    const id = claimed[0]?.id
    if (id) return { kind: 'claimed', id }
    const rows = await connection.execute<Row[]>(
      'select "id", "fingerprint", "state", "response_status", "response_body" from "idempotency_keys" ' +
        'where "scope" = ? and "key" = ?',
      [scope, key],
    )
    const row = rows[0]
    // Deleted between the two statements (a failed request released it): claim again.
    if (!row) return this.claim(scope, key, fingerprint, expiresAt, staleBefore)
    return {
      kind: 'taken',
      fingerprint: row.fingerprint,
      state: row.state,
      responseStatus: row.response_status,
      responseBody: typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body,
    }
  }

  /** Records the answer of the claim `id`; later requests with its key get it. */
  public async complete(id: string, status: number, body: unknown): Promise<void> {
    await this.em
      .getConnection()
      .execute(
        'update "idempotency_keys" set "state" = \'done\', "response_status" = ?, "response_body" = ? where "id" = ?',
        [status, JSON.stringify(body ?? null), id],
        'run',
      )
  }

  /** Gives the key up (the request failed on our side, or its answer is not replayable): a retry acts again. */
  public async release(id: string): Promise<void> {
    await this.em.getConnection().execute('delete from "idempotency_keys" where "id" = ?', [id], 'run')
  }

  /** Deletes expired rows; returns how many. */
  public async deleteExpired(now: Date): Promise<number> {
    const result = await this.em
      .getConnection()
      .execute<{ affectedRows: number }>('delete from "idempotency_keys" where "expires_at" <= ?', [now], 'run')
    return result.affectedRows
  }
}
