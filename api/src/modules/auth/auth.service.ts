import { randomBytes, randomUUID } from 'node:crypto'
import { inject, injectable } from 'inversify'
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import { ConflictError, Logger, UnauthenticatedError } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { authConfig, type AuthConfig } from './auth.config'
import { TOKENS } from '../../infra/tokens'
import { TokenService } from '../../infra/auth/token.service'
import { PasswordHasher } from '../../infra/auth/password-hasher'
import { RateLimiter, rateLimitKey } from '../../infra/rate-limit/rate-limiter'
import type { User } from '../users/user.entity'
import { UsersRepository } from '../users/users.repository'
import { CLIENT_RATE_LIMIT_SCOPE, EmailVerificationService } from './email-verification.service'
import { RefreshTokenService } from './refresh-token.service'
import { rateLimitAddress } from './rate-limit-address'
import type { IssuedSession } from './dto/sign-in.response'

export interface SignUpInput {
  email: string
  firstName: string
  lastName: string
  password: string
}

/** One message for an unknown address and a wrong password, so sign-in does not reveal who has an account. */
export const SIGN_IN_FAILED_MESSAGE = 'Invalid email or password'

/** Sign-up, sign-in and token refresh (spec: Authentication 3 and 4). */
@injectable()
export class AuthService {
  private readonly logger: Logger
  /** Hash compared against when the address is unknown, so both failures take the same time. */
  private decoyHash?: Promise<string>

  private readonly settings: AuthConfig
  private readonly refreshTokenTtlMs: number

  public constructor(
    @inject(TOKENS.Config) config: Config,
    private readonly users: UsersRepository,
    private readonly verifications: EmailVerificationService,
    private readonly refreshTokens: RefreshTokenService,
    private readonly tokens: TokenService,
    private readonly hasher: PasswordHasher,
    private readonly rateLimiter: RateLimiter,
    logger: Logger,
  ) {
    this.settings = sectionOf(config, authConfig)
    this.refreshTokenTtlMs = config.jwt.refreshTokenTtlSeconds * 1000
    this.logger = logger.child({ component: 'auth' })
  }

  /**
   * Creates the account of a verified address and consumes its verification, in one transaction. The
   * verification is checked before the duplicate, so sign-up cannot be used to learn who has an account.
   * @throws InvalidInputError when the address is not verified
   * @throws ConflictError when the address already has an account
   * @throws RateLimitedError past auth.clientLimit per client
   */
  public async signUp(input: SignUpInput, clientIp: string): Promise<User> {
    await this.enforceClientLimit(clientIp)
    const passwordHash = await this.hasher.hash(input.password, clientIp)
    let user: User
    try {
      user = await this.verifications.withVerifiedAddress(input.email, async (verification) => {
        if (await this.users.existsByEmail(input.email)) throw accountExists()
        return this.users.add({
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          passwordHash,
          isEmailVerified: true,
          clientAlias: verification.clientAlias,
        })
      })
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw accountExists(error)
      throw error
    }
    this.logger.info('Created user', { userId: user.id })
    return user
  }

  /**
   * Checks the password and opens a session: an access token and the first refresh token of a new family.
   * @throws UnauthenticatedError with one message for an unknown address or a wrong password
   * @throws RateLimitedError past auth.signInLimit per address or auth.clientLimit per client
   */
  public async signIn(email: string, password: string, clientIp: string): Promise<IssuedSession> {
    await this.rateLimiter.enforce(
      [
        { key: rateLimitKey(CLIENT_RATE_LIMIT_SCOPE, clientIp), rule: this.settings.clientLimit },
        { key: rateLimitKey('signin-address', rateLimitAddress(email)), rule: this.settings.signInLimit },
      ],
      'Too many sign-in attempts; try again later',
    )
    const user = await this.users.findWithPasswordHash(email)
    const isValid = await this.hasher.verify(password, user?.passwordHash ?? (await this.decoy()), clientIp)
    if (!user || !isValid) throw new UnauthenticatedError(SIGN_IN_FAILED_MESSAGE)

    const sessionId = randomUUID()
    const refreshToken = await this.refreshTokens.issue(user.id, sessionId)
    const access = this.tokens.signForUser(user, sessionId)
    this.logger.info('Signed in user', { userId: user.id, sessionId })
    const refreshExpiresAt = new Date(Date.now() + this.refreshTokenTtlMs)
    return { accessToken: access.accessToken, expiresIn: access.expiresIn, refreshToken, refreshExpiresAt }
  }

  /**
   * Renews an expired (or any) access token without a password; needs no access token (docs/decisions.md).
   * @throws UnauthenticatedError for an unknown, expired, revoked or reused refresh token
   * @throws RateLimitedError past auth.clientLimit per client
   */
  public async refresh(presented: string, clientIp: string): Promise<IssuedSession> {
    await this.enforceClientLimit(clientIp)
    const rotated = await this.refreshTokens.rotate(presented)
    const access = this.tokens.signForUser(rotated.user, rotated.familyId)
    return {
      accessToken: access.accessToken,
      expiresIn: access.expiresIn,
      refreshToken: rotated.refreshToken,
      refreshExpiresAt: rotated.expiresAt,
    }
  }

  /**
   * Sign-out of a browser session (docs/decisions.md, "Console sessions"): ends the refresh token's session and
   * the access tokens it issued. Idempotent: an unknown or already ended token is not an error.
   * @throws RateLimitedError past auth.clientLimit per client
   */
  public async signOut(presented: string, clientIp: string): Promise<void> {
    await this.enforceClientLimit(clientIp)
    await this.refreshTokens.endSession(presented)
  }

  private enforceClientLimit(clientIp: string): Promise<void> {
    return this.rateLimiter.enforce(
      [{ key: rateLimitKey(CLIENT_RATE_LIMIT_SCOPE, clientIp), rule: this.settings.clientLimit }],
      'Too many requests; try again later',
    )
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= this.hasher.hash(randomBytes(16).toString('hex'))
    return this.decoyHash
  }
}

function accountExists(cause?: unknown): ConflictError {
  return new ConflictError('An account with this email address already exists', { cause })
}
