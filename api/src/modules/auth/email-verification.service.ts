import { randomUUID } from 'node:crypto'
import { inject, injectable } from 'inversify'
import { InvalidInputError, Logger } from '@idplane/common'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { authConfig, type AuthConfig } from './auth.config'
import { TOKENS } from '../../infra/tokens'
import { MailOutbox } from '../../infra/mail/mail-outbox'
import { RateLimiter, rateLimitKey } from '../../infra/rate-limit/rate-limiter'
import { UsersRepository } from '../users/users.repository'
import { resolveClientAlias } from './client-aliases'
import { EmailVerification } from './email-verification.entity'
import { EmailVerificationsRepository } from './email-verifications.repository'
import { rateLimitAddress } from './rate-limit-address'
import { digestsMatch, generateVerificationCode, sha256Hex } from './secrets'
import { buildAccountExistsMail, buildVerificationMail, verificationLink } from './verification-mail'

/** Wrong codes a verification survives; the next one kills it and a new mail is needed. */
export const MAX_FAILED_VERIFICATION_ATTEMPTS = 5
/** How long a verified address stays good for sign-up: a day, so filling in the form is never a race. */
export const VERIFIED_ADDRESS_SIGNUP_WINDOW_SECONDS = 86_400
/** Counter scope shared by every unauthenticated auth endpoint (config auth.clientLimit). */
export const CLIENT_RATE_LIMIT_SCOPE = 'auth-client'

const codeField = (message: string) => [{ field: 'verificationCode', message }]

/**
 * E-mail verification (spec: Authentication 3): mails a single-use code, checks it, and hands a verified
 * address to sign-up exactly once.
 */
@injectable()
export class EmailVerificationService {
  private readonly logger: Logger

  private readonly settings: AuthConfig

  public constructor(
    @inject(TOKENS.Config) private readonly config: Config,
    private readonly verifications: EmailVerificationsRepository,
    private readonly users: UsersRepository,
    private readonly outbox: MailOutbox,
    private readonly rateLimiter: RateLimiter,
    logger: Logger,
  ) {
    this.settings = sectionOf(config, authConfig)
    this.logger = logger.child({ component: 'email-verification' })
  }

  /**
   * Mails a new code, or, when the address already has an account, a notice without one. The caller cannot
   * tell the two apart (no account enumeration).
   * @throws InvalidInputError for an unknown client alias
   * @throws RateLimitedError past auth.verificationMailLimit per address or auth.clientLimit per client
   */
  public async sendVerificationMail(
    email: string,
    requestedAlias: string | undefined,
    clientIp: string,
  ): Promise<void> {
    const alias = resolveClientAlias(this.config.clientAliases, requestedAlias)
    await this.rateLimiter.enforce(
      [
        { key: rateLimitKey(CLIENT_RATE_LIMIT_SCOPE, clientIp), rule: this.settings.clientLimit },
        {
          key: rateLimitKey('verification-mail-address', rateLimitAddress(email)),
          rule: this.settings.verificationMailLimit,
        },
      ],
      'Too many verification mails requested; try again later',
    )
    if (await this.users.existsByEmail(email)) {
      const message = buildAccountExistsMail({ to: email, alias })
      await this.outbox.add([{ idempotencyKey: `account-exists:${randomUUID()}`, message }])
      return
    }
    const ttlSeconds = this.settings.verificationCodeTtlSeconds
    const code = generateVerificationCode()
    const link = verificationLink(alias, email, code)
    // The code and its mail are stored together: no code that was never mailed, no mail of a lost code.
    const verification = await this.verifications.transactional(async () => {
      const added = await this.verifications.add({
        email,
        codeHash: sha256Hex(code),
        clientAlias: alias.alias,
        expiresAt: new Date(Date.now() + ttlSeconds * 1000),
      })
      const message = buildVerificationMail({ to: email, alias, code, link, ttlSeconds })
      await this.outbox.add([{ idempotencyKey: `verification:${added.id}`, message }])
      return added
    })
    // Embedded mode has no mail server: the link in the log is how a developer gets in (DESIGN.md).
    if (this.config.mail.kind === 'file') this.logger.info('Wrote verification link', { email, link })
    else this.logger.info('Created email verification', { email, verificationId: verification.id })
  }

  /**
   * Checks a code against the newest one mailed to the address. A code's state (expired, used) is only
   * revealed to a caller who has the right code, so the endpoint cannot be used to learn about an address.
   * @throws InvalidInputError for a wrong, dead, expired or used code
   * @throws RateLimitedError past auth.clientLimit per client
   */
  public async verify(email: string, code: string, clientIp: string): Promise<void> {
    await this.rateLimiter.enforce(
      [{ key: rateLimitKey(CLIENT_RATE_LIMIT_SCOPE, clientIp), rule: this.settings.clientLimit }],
      'Too many requests; try again later',
    )
    const verification = await this.verifications.findNewest(email)
    if (!verification) throw wrongCode()

    const now = new Date()
    const isDead = verification.failedAttempts >= MAX_FAILED_VERIFICATION_ATTEMPTS
    const isLive = !isDead && !verification.verifiedAt && !verification.consumedAt && verification.expiresAt > now
    if (!digestsMatch(sha256Hex(code), verification.codeHash)) {
      if (isLive) await this.verifications.recordFailedAttempt(verification)
      // Also the fifth and later wrong codes: a different answer would tell a guesser the code died.
      throw wrongCode()
    }
    if (isDead) throw tooManyAttempts()
    if (verification.verifiedAt || verification.consumedAt) throw alreadyUsed()
    if (verification.expiresAt <= now) {
      throw new InvalidInputError(
        'Verification code has expired; request a new verification mail',
        codeField('verificationCode has expired'),
      )
    }
    if (!(await this.verifications.markVerified(verification, now))) throw alreadyUsed()
    this.logger.info('Verified email address', { email, verificationId: verification.id })
  }

  /**
   * Runs `work` (the sign-up) with the address's verification taken, in one transaction: if `work` fails,
   * the verification is given back.
   * @throws InvalidInputError when the address has no verified, unconsumed verification
   */
  public withVerifiedAddress<T>(email: string, work: (verification: EmailVerification) => Promise<T>): Promise<T> {
    return this.verifications.transactional(async () => work(await this.consumeVerifiedAddress(email)))
  }

  /**
   * Takes the address's verification for a sign-up; a verification serves one sign-up only. Call inside the
   * sign-up transaction, so a failed sign-up gives the verification back.
   * @throws InvalidInputError when the address has no verified, unconsumed verification
   */
  public async consumeVerifiedAddress(email: string): Promise<EmailVerification> {
    const since = new Date(Date.now() - VERIFIED_ADDRESS_SIGNUP_WINDOW_SECONDS * 1000)
    const verification = await this.verifications.findUnconsumedVerified(email, since)
    if (!verification || !(await this.verifications.markConsumed(verification, new Date()))) {
      throw new InvalidInputError('Email address is not verified', [
        { field: 'email', message: 'verify the address with the code from the verification mail first' },
      ])
    }
    return verification
  }
}

function wrongCode(): InvalidInputError {
  return new InvalidInputError('Invalid verification code', codeField('verificationCode is wrong'))
}

/** Told only to a caller holding the right code, like the other states of a code. */
function tooManyAttempts(): InvalidInputError {
  return new InvalidInputError(
    'Too many wrong verification codes; request a new verification mail',
    codeField('verificationCode can no longer be used'),
  )
}

function alreadyUsed(): InvalidInputError {
  return new InvalidInputError(
    'Verification code has already been used',
    codeField('verificationCode has already been used'),
  )
}
