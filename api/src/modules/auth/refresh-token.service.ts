import { inject, injectable } from 'inversify'
import { Logger, UnauthenticatedError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import type { User } from '../users/user.entity'
import { RefreshToken } from './refresh-token.entity'
import { RefreshTokensRepository } from './refresh-tokens.repository'
import { SessionRevocationsService } from './session-revocations.service'
import { generateRefreshToken, sha256Hex } from './secrets'

export interface RotatedRefreshToken {
  user: User
  /** The sign-in session the token belongs to; access tokens carry it as `sid`. */
  familyId: string
  refreshToken: string
  /** When the family ends (fixed at sign-in; successors keep it). */
  expiresAt: Date
}

/**
 * Refresh tokens with rotation and reuse detection: every use hands out a successor in the same family and
 * marks the token used; a used token presented again means it leaked, so the whole family is revoked and
 * the legitimate holder signs in again. A family lives at most jwt.refreshTokenTtlSeconds from sign-in:
 * successors keep the first token's expiry.
 */
@injectable()
export class RefreshTokenService {
  private readonly logger: Logger

  public constructor(
    @inject(TOKENS.Config) private readonly config: Config,
    private readonly tokens: RefreshTokensRepository,
    private readonly sessions: SessionRevocationsService,
    logger: Logger,
  ) {
    this.logger = logger.child({ component: 'refresh-tokens' })
  }

  /** Starts a family (at sign-in) and returns the token; only its digest is stored. */
  public async issue(userId: string, familyId: string): Promise<string> {
    const expiresAt = new Date(Date.now() + this.config.jwt.refreshTokenTtlSeconds * 1000)
    return this.store(userId, familyId, expiresAt)
  }

  /**
   * Exchanges a refresh token for its successor. Not one transaction on purpose: a detected reuse must stay
   * revoked even though the request fails.
   * @throws UnauthenticatedError for an unknown, expired, revoked or reused token
   */
  public async rotate(presented: string): Promise<RotatedRefreshToken> {
    const token = await this.tokens.findByHash(sha256Hex(presented))
    if (!token) throw new UnauthenticatedError('Invalid refresh token')
    if (token.revokedAt) throw new UnauthenticatedError('Refresh token has been revoked; sign in again')
    if (token.usedAt) return this.rejectReuse(token)
    if (token.expiresAt <= new Date()) throw new UnauthenticatedError('Refresh token has expired; sign in again')
    // Two requests racing with one token: the second loses here and is treated as reuse.
    if (!(await this.tokens.markUsed(token, new Date()))) return this.rejectReuse(token)
    const refreshToken = await this.store(token.user.id, token.familyId, token.expiresAt)
    return { user: token.user, familyId: token.familyId, refreshToken, expiresAt: token.expiresAt }
  }

  /**
   * Sign-out: ends the session the presented token belongs to, its refresh tokens and its access tokens, in one
   * transaction. An unknown token ends nothing (sign-out stays idempotent); resolves with whether one was found.
   */
  public async endSession(presented: string): Promise<boolean> {
    const token = await this.tokens.findByHash(sha256Hex(presented))
    if (!token) return false
    await this.tokens.transactional(async () => {
      await this.sessions.revoke([token.familyId], 'signed-out')
      await this.tokens.revokeFamily(token.familyId, new Date())
    })
    this.logger.info('Ended session at sign-out', { userId: token.user.id, sessionId: token.familyId })
    return true
  }

  private async store(userId: string, familyId: string, expiresAt: Date): Promise<string> {
    const refreshToken = generateRefreshToken()
    await this.tokens.add({ userId, familyId, tokenHash: sha256Hex(refreshToken), expiresAt })
    return refreshToken
  }

  private async rejectReuse(token: RefreshToken): Promise<never> {
    // One transaction: the family's refresh tokens and its access tokens (the session) end together.
    const revoked = await this.tokens.transactional(async () => {
      await this.sessions.revoke([token.familyId], 'refresh-token-reuse')
      return this.tokens.revokeFamily(token.familyId, new Date())
    })
    this.logger.warn('Revoked session after refresh token reuse', {
      userId: token.user.id,
      sessionId: token.familyId,
      revoked,
    })
    throw new UnauthenticatedError('Refresh token was already used; the session has been revoked, sign in again')
  }
}
