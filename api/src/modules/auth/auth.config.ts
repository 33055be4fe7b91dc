import type { RateLimitRule } from '../../infra/config'
import type { ConfigSection } from '../../infra/config-section'

/** The auth module's settings, and the rate limits of the RateLimiter it binds (docs/configuration.md). */
export interface AuthConfig {
  /** VERIFICATION_CODE_TTL_SECONDS: lifetime of an e-mail verification code. */
  readonly verificationCodeTtlSeconds: number
  /** RATE_LIMIT_SIGNIN_*: sign-in attempts per address. */
  readonly signInLimit: RateLimitRule
  /** RATE_LIMIT_VERIFICATION_MAIL_*: verification mails per address. */
  readonly verificationMailLimit: RateLimitRule
  /** RATE_LIMIT_CLIENT_*: requests per client IP across the auth routes and the client token exchange. */
  readonly clientLimit: RateLimitRule
  /**
   * RATE_LIMIT_INVITATION_MAIL_*: invitation mails per organization, counted per mail (the invitations module
   * charges it). Here because the RateLimiter keeps its counters as long as the longest window of every rule.
   */
  readonly invitationMailLimit: RateLimitRule
  /** SESSION_REVOCATION_REFRESH_MS (see DEFAULT_SESSION_REVOCATION_REFRESH_MS). */
  readonly sessionCheckIntervalMs: number
}

/** @default 15 minutes for an e-mail verification code. */
export const DEFAULT_VERIFICATION_CODE_TTL_SECONDS = 900

/**
 * @default 2000 ms: how old a process's copy of the revoked sessions may get before it is reloaded
 * (SESSION_REVOCATION_REFRESH_MS). A revoked session is refused on every replica within this interval.
 */
export const DEFAULT_SESSION_REVOCATION_REFRESH_MS = 2_000
/** Upper bound of SESSION_REVOCATION_REFRESH_MS: the promise of refusal within 5 seconds. */
export const MAX_SESSION_REVOCATION_REFRESH_MS = 5_000

/**
 * @default 200 invitation mails per organization per window (RATE_LIMIT_INVITATION_MAIL_MAX): four full
 * 50-address batches an hour, enough for onboarding a team, too few for using the API as a mail relay.
 */
export const DEFAULT_INVITATION_MAIL_LIMIT = 200
/** @default 3600 seconds (RATE_LIMIT_INVITATION_MAIL_WINDOW_SECONDS). */
export const DEFAULT_INVITATION_MAIL_WINDOW_SECONDS = 3_600

export const authConfig: ConfigSection<AuthConfig> = {
  name: 'auth',
  read: (env) => ({
    verificationCodeTtlSeconds: env.int('VERIFICATION_CODE_TTL_SECONDS', DEFAULT_VERIFICATION_CODE_TTL_SECONDS, {
      min: 30,
    }),
    signInLimit: {
      limit: env.int('RATE_LIMIT_SIGNIN_MAX', 10, { min: 1 }),
      windowSeconds: env.int('RATE_LIMIT_SIGNIN_WINDOW_SECONDS', 300, { min: 1 }),
    },
    verificationMailLimit: {
      limit: env.int('RATE_LIMIT_VERIFICATION_MAIL_MAX', 3, { min: 1 }),
      windowSeconds: env.int('RATE_LIMIT_VERIFICATION_MAIL_WINDOW_SECONDS', 600, { min: 1 }),
    },
    clientLimit: {
      limit: env.int('RATE_LIMIT_CLIENT_MAX', 100, { min: 1 }),
      windowSeconds: env.int('RATE_LIMIT_CLIENT_WINDOW_SECONDS', 60, { min: 1 }),
    },
    invitationMailLimit: {
      limit: env.int('RATE_LIMIT_INVITATION_MAIL_MAX', DEFAULT_INVITATION_MAIL_LIMIT, { min: 1 }),
      windowSeconds: env.int('RATE_LIMIT_INVITATION_MAIL_WINDOW_SECONDS', DEFAULT_INVITATION_MAIL_WINDOW_SECONDS, {
        min: 1,
      }),
    },
    sessionCheckIntervalMs: env.int('SESSION_REVOCATION_REFRESH_MS', DEFAULT_SESSION_REVOCATION_REFRESH_MS, {
      min: 100,
      max: MAX_SESSION_REVOCATION_REFRESH_MS,
    }),
  }),
}
