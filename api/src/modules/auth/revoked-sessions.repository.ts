import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { RevokedSession, type SessionRevocationReason } from './revoked-session.entity'
import { BaseRepository } from '../../infra/db/base.repository'

/** Revoked sessions. Not scoped by organization: a session id is global and outlives its organization. */
@injectable()
export class RevokedSessionsRepository extends BaseRepository<RevokedSession> {
  public constructor(em: EntityManager) {
    super(em, RevokedSession)
  }

  /**
   * Records the revocations in the current transaction, if any (so they commit or roll back with the change
   * that ends the sessions). A session revoked again keeps its first row.
   */
  public async add(sessionIds: readonly string[], reason: SessionRevocationReason, at: Date, expiresAt: Date) {
    if (sessionIds.length === 0) return
    await this.em
      .createQueryBuilder(RevokedSession)
      .insert(sessionIds.map((sessionId) => ({ sessionId, reason, revokedAt: at, expiresAt })))
      .onConflict('sessionId')
      .ignore()
      .execute()
  }

  /** Ids of sessions revoked and not yet expired at `now`. Runs on its own fork: called outside requests. */
  public async listActive(now: Date): Promise<string[]> {
    const rows = await this.em
      .fork()
      .find(RevokedSession, { expiresAt: { $gt: now } }, { fields: ['sessionId'], disableIdentityMap: true })
    return rows.map((row) => row.sessionId)
  }

  /**
   * Deletes at most `limit` rows whose tokens have all expired, first expired first (a retention batch, through the
   * `expires_at` index): such a row refuses nothing any more. Resolves with how many.
   */
  public pruneExpired(limit: number): Promise<number> {
    return this.deleteBatch(`"expires_at" <= now()`, [], '"expires_at"', limit)
  }
}
