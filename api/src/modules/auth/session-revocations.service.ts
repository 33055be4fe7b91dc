import { inject, injectable } from 'inversify'
import { Logger, UnauthenticatedError, UpstreamError, UpstreamUnavailableError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { authConfig, type AuthConfig } from './auth.config'
import { TOKENS } from '../../infra/tokens'
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../infra/db/database-unavailable'
import { SessionCheck } from '../../infra/auth/session-check'
import type { SessionRevocationReason } from './revoked-session.entity'
import { RevokedSessionsRepository } from './revoked-sessions.repository'

/** How long a revocation made here is refused without its row (its transaction may still be open). */
const LOCAL_UNCONFIRMED_MS = 60_000

/**
 * Ends sessions before their access tokens expire, and answers the authorization checker whether a session
 * is still open.
 *
 * Revocations are rows written in the transaction of the change that ends the session. Each process keeps
 * the set of revoked, unexpired session ids in memory and reloads it from the database when it is older
 * than auth.sessionCheckIntervalMs (SESSION_REVOCATION_REFRESH_MS): no query per request, at most one per
 * interval per process, and a session revoked on any replica is refused on every replica within that
 * interval (plus one query). The whole set is reloaded, not read incrementally: rows commit out of order,
 * and the set is small (sessions revoked within one access-token lifetime).
 */
@injectable()
export class SessionRevocationsService extends SessionCheck {
  private readonly logger: Logger
  private revoked = new Set<string>()
  /** Revoked by this process since the set was loaded: refused at once, before the next reload sees them. */
  private readonly local = new Map<string, number>()
  /** When the query behind `revoked` began; -Infinity before the first load. */
  private loadedAt = Number.NEGATIVE_INFINITY
  private loading?: Promise<void>

  private readonly settings: AuthConfig

  public constructor(
    @inject(TOKENS.Config) private readonly config: Config,
    private readonly revocations: RevokedSessionsRepository,
    logger: Logger,
  ) {
    super()
    this.settings = sectionOf(config, authConfig)
    this.logger = logger.child({ component: 'sessions' })
  }

  /**
   * Ends the sessions. Call inside the transaction of the change that ends them, so both commit together.
   * Access tokens of these sessions are refused at once on this process and within the interval elsewhere.
   */
  public async revoke(sessionIds: readonly string[], reason: SessionRevocationReason): Promise<void> {
    if (sessionIds.length === 0) return
    const now = new Date()
    const expiresAt = new Date(now.getTime() + this.config.jwt.accessTokenTtlSeconds * 1000)
    await this.revocations.add(sessionIds, reason, now, expiresAt)
    for (const sessionId of sessionIds) this.local.set(sessionId, Date.now())
    this.logger.info('Revoked sessions', { reason, sessions: sessionIds.length })
  }

  /**
   * @throws UnauthenticatedError when the session was revoked
   * @throws UpstreamError when the revocations are stale and cannot be reloaded (fails closed)
   */
  public async assertActive(sessionId: string): Promise<void> {
    await this.ensureFresh()
    if (this.revoked.has(sessionId) || this.local.has(sessionId)) {
      throw new UnauthenticatedError('Session has been revoked; sign in again')
    }
  }

  private async ensureFresh(): Promise<void> {
    if (Date.now() - this.loadedAt < this.settings.sessionCheckIntervalMs) return
    // One reload at a time per process, shared by the requests that arrive meanwhile.
    this.loading ??= this.reload().finally(() => {
      this.loading = undefined
    })
    await this.loading
  }

  private async reload(): Promise<void> {
    const startedAt = Date.now()
    let ids: string[]
    try {
      ids = await this.revocations.listActive(new Date(startedAt))
    } catch (error) {
      // Fails closed; a database that is away for a restart is a 503 the client retries, like any query's.
      if (isDatabaseUnavailable(error))
        throw new UpstreamUnavailableError(
          'Could not read revoked sessions: the database is unavailable',
          DATABASE_RETRY_AFTER_SECONDS,
          {
            cause: error,
          },
        )
      throw new UpstreamError('Could not read revoked sessions', { cause: error })
    }
    this.revoked = new Set(ids)
    this.loadedAt = startedAt
    // A local revocation is noted before its transaction commits: keep it until a load shows its row, or, if
    // that transaction rolled back, until LOCAL_UNCONFIRMED_MS have passed.
    for (const [sessionId, notedAt] of this.local) {
      if (this.revoked.has(sessionId) || startedAt - notedAt > LOCAL_UNCONFIRMED_MS) this.local.delete(sessionId)
    }
  }
}
