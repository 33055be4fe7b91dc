import { ContainerModule } from 'inversify'
import { Logger } from '@idplane/common'
import type { ApiModule } from '../../infra/api-module'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import { sectionOf } from '../../infra/config-section'
import { authConfig } from './auth.config'
import { RateLimitStore } from '../../infra/rate-limit/rate-limit-store'
import { RateLimitHitsRepository } from './rate-limit-hits.repository'
import { RateLimiter } from '../../infra/rate-limit/rate-limiter'
import { AuthController } from './auth.controller'
import { BrowserSessionController } from './browser-session.controller'
import { EmailVerification } from './email-verification.entity'
import { RefreshToken } from './refresh-token.entity'
import { RateLimitHit } from './rate-limit-hit.entity'
import { RevokedSession } from './revoked-session.entity'
import { AuthService } from './auth.service'
import { EmailVerificationService } from './email-verification.service'
import { EmailVerificationsRepository } from './email-verifications.repository'
import { RefreshTokenService } from './refresh-token.service'
import { RefreshTokensRepository } from './refresh-tokens.repository'
import { RevokedSessionsRepository } from './revoked-sessions.repository'
import { SessionRevocationsService } from './session-revocations.service'
import { SessionCheck } from '../../infra/auth/session-check'

/** The /v1/auth routes (and the browser sessions of the console under /v1/auth/session). Also binds the RateLimiter, which other modules may inject. */
export const authModule: ApiModule = {
  name: 'auth',
  controllers: [AuthController, BrowserSessionController],
  entities: [EmailVerification, RefreshToken, RateLimitHit, RevokedSession],
  config: authConfig,
  // Expired revocations refuse nothing (their tokens are invalid anyway): they go at the next pass, no setting.
  retention: (container) => {
    const revocations = container.get(RevokedSessionsRepository)
    return [{ table: 'revoked_sessions', pruneBatch: (limit) => revocations.pruneExpired(limit) }]
  },
  bindings: new ContainerModule(({ bind }) => {
    bind(AuthController).toSelf().inSingletonScope()
    bind(BrowserSessionController).toSelf().inSingletonScope()
    bind(AuthService).toSelf().inSingletonScope()
    bind(EmailVerificationService).toSelf().inSingletonScope()
    bind(RefreshTokenService).toSelf().inSingletonScope()
    bind(EmailVerificationsRepository).toSelf().inSingletonScope()
    bind(RefreshTokensRepository).toSelf().inSingletonScope()
    bind(RevokedSessionsRepository).toSelf().inSingletonScope()
    bind(SessionRevocationsService).toSelf().inSingletonScope()
    // The authorization checker asks the same instance: its cache is the one this process revokes into.
    bind(SessionCheck).toService(SessionRevocationsService)
    bind(RateLimitStore).to(RateLimitHitsRepository).inSingletonScope()
    bind(RateLimiter)
      .toDynamicValue((context) => {
        const auth = sectionOf(context.get<Config>(TOKENS.Config), authConfig)
        const rules = [auth.signInLimit, auth.verificationMailLimit, auth.clientLimit, auth.invitationMailLimit]
        return new RateLimiter(context.get(RateLimitStore), context.get(Logger), {
          retentionSeconds: Math.max(...rules.map((rule) => rule.windowSeconds)),
        })
      })
      .inSingletonScope()
  }),
}
