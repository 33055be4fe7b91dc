import { generateKeyPairSync } from 'node:crypto'
import { ConflictError, InvalidInputError, RateLimitedError, UnauthenticatedError, silentLogger } from '@idplane/common'
import {
  FakeEmailVerificationsRepository,
  FakeRefreshTokensRepository,
  FakeRevokedSessionsRepository,
  FakeUsersRepository,
  InMemoryRateLimitStore,
  RecordingMailService,
  asDouble,
} from '../../../../test/helpers/auth-fakes'
import { PasswordHasher } from '../../infra/auth/password-hasher'
import { TokenService } from '../../infra/auth/token.service'
import { loadConfig } from '../../infra/config'
import { authConfig } from './auth.config'
import type { MailOutbox } from '../../infra/mail/mail-outbox'
import { RateLimiter } from '../../infra/rate-limit/rate-limiter'
import { AuthService, SIGN_IN_FAILED_MESSAGE } from './auth.service'
import { EmailVerificationService } from './email-verification.service'
import { RefreshTokenService } from './refresh-token.service'
import { SessionRevocationsService } from './session-revocations.service'
import { sha256Hex } from './secrets'

const IP = '203.0.113.1'
const PASSWORD = 'correct-horse-42'
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
})

describe('AuthService', () => {
  const config = loadConfig({ DATA_DIR: '/tmp/idplane-unit', RATE_LIMIT_SIGNIN_MAX: '3' }, [authConfig])
  const hasher = new PasswordHasher(4)
  const tokens = new TokenService({ ...config.jwt, ...keys })
  let users: FakeUsersRepository
  let verifications: FakeEmailVerificationsRepository
  let refreshTokens: FakeRefreshTokensRepository
  let sut: AuthService

  beforeEach(() => {
    users = new FakeUsersRepository()
    verifications = new FakeEmailVerificationsRepository()
    refreshTokens = new FakeRefreshTokensRepository(users.rows)
    const rateLimiter = new RateLimiter(new InMemoryRateLimitStore(), silentLogger, { retentionSeconds: 600 })
    const emailVerification = new EmailVerificationService(
      config,
      asDouble(verifications),
      asDouble(users),
      new RecordingMailService() as unknown as MailOutbox,
      rateLimiter,
      silentLogger,
    )
    const refresh = new RefreshTokenService(
      config,
      asDouble(refreshTokens),
      new SessionRevocationsService(config, asDouble(new FakeRevokedSessionsRepository()), silentLogger),
      silentLogger,
    )
    sut = new AuthService(
      config,
      asDouble(users),
      emailVerification,
      refresh,
      tokens,
      hasher,
      rateLimiter,
      silentLogger,
    )
  })

  const aVerifiedAddress = async (email: string) => {
    const row = await verifications.add({
      email,
      codeHash: sha256Hex('123456'),
      clientAlias: 'IDPLANE',
      expiresAt: new Date(Date.now() + 60_000),
    })
    row.verifiedAt = new Date()
  }
  const profile = (email: string) => ({ email, firstName: 'Ada', lastName: 'Lovelace', password: PASSWORD })

  describe('signUp', () => {
    it('creates a verified user with a scrypt hash and consumes the verification', async () => {
      await aVerifiedAddress('ada@example.test')
      const user = await sut.signUp(profile('ada@example.test'), IP)
      expect(user).toMatchObject({ email: 'ada@example.test', isEmailVerified: true, clientAlias: 'IDPLANE' })
      expect(user.passwordHash).toMatch(/^scrypt\$/)
      expect(await hasher.verify(PASSWORD, user.passwordHash)).toBe(true)
      expect(verifications.rows[0]?.consumedAt).toBeInstanceOf(Date)
    })

    it('refuses an unverified address before looking for a duplicate (no account enumeration)', async () => {
      await users.add({ ...profile('ada@example.test'), passwordHash: 'x', isEmailVerified: true, clientAlias: null })
      await expect(sut.signUp(profile('ada@example.test'), IP)).rejects.toBeInstanceOf(InvalidInputError)
    })

    it('answers a conflict for a verified address that already has an account', async () => {
      await users.add({ ...profile('ada@example.test'), passwordHash: 'x', isEmailVerified: true, clientAlias: null })
      await aVerifiedAddress('ada@example.test')
      await expect(sut.signUp(profile('ada@example.test'), IP)).rejects.toBeInstanceOf(ConflictError)
    })
  })

  describe('signIn', () => {
    beforeEach(async () => {
      await users.add({
        ...profile('ada@example.test'),
        passwordHash: await hasher.hash(PASSWORD),
        isEmailVerified: true,
        clientAlias: null,
      })
    })

    it('opens a session: the access token carries the refresh-token family as its session id', async () => {
      const session = await sut.signIn('ada@example.test', PASSWORD, IP)
      const principal = tokens.verify(session.accessToken)
      expect(principal).toMatchObject({ kind: 'user', email: 'ada@example.test' })
      expect(refreshTokens.rows[0]?.familyId).toBe(principal.sessionId)
      expect(refreshTokens.rows[0]?.tokenHash).toBe(sha256Hex(session.refreshToken))
      expect(session.expiresIn).toBe(config.jwt.accessTokenTtlSeconds)
    })

    it('fails a wrong password and an unknown address with the same error', async () => {
      const wrongPassword = await sut.signIn('ada@example.test', 'wrong-1234', IP).catch((error: unknown) => error)
      const unknown = await sut.signIn('bob@example.test', PASSWORD, IP).catch((error: unknown) => error)
      expect(wrongPassword).toBeInstanceOf(UnauthenticatedError)
      expect(unknown).toBeInstanceOf(UnauthenticatedError)
      expect((wrongPassword as Error).message).toBe(SIGN_IN_FAILED_MESSAGE)
      expect((unknown as Error).message).toBe(SIGN_IN_FAILED_MESSAGE)
    })

    it('limits attempts per address, even with the right password afterwards', async () => {
      for (let i = 0; i < 3; i++) await sut.signIn('ada@example.test', 'wrong-1234', IP).catch(() => undefined)
      await expect(sut.signIn('ada@example.test', PASSWORD, IP)).rejects.toBeInstanceOf(RateLimitedError)
      await expect(sut.signIn('bob@example.test', PASSWORD, IP)).rejects.toBeInstanceOf(UnauthenticatedError)
    })

    it('counts a+x@Example.com and a@example.com in one sign-in bucket (plus-addressing and case)', async () => {
      for (const email of ['ada+1@example.test', 'Ada+Two@EXAMPLE.test', 'ADA@example.test']) {
        await sut.signIn(email, 'wrong-1234', IP).catch(() => undefined)
      }
      await expect(sut.signIn('ada@example.test', PASSWORD, IP)).rejects.toBeInstanceOf(RateLimitedError)
    })
  })

  describe('refresh', () => {
    it('renews the access token in the same session and rotates the refresh token', async () => {
      await users.add({
        ...profile('ada@example.test'),
        passwordHash: await hasher.hash(PASSWORD),
        isEmailVerified: true,
        clientAlias: null,
      })
      const first = await sut.signIn('ada@example.test', PASSWORD, IP)
      const second = await sut.refresh(first.refreshToken, IP)
      expect(second.refreshToken).not.toBe(first.refreshToken)
      expect(tokens.verify(second.accessToken).sessionId).toBe(tokens.verify(first.accessToken).sessionId)
      await expect(sut.refresh(first.refreshToken, IP)).rejects.toBeInstanceOf(UnauthenticatedError)
      await expect(sut.refresh(second.refreshToken, IP)).rejects.toBeInstanceOf(UnauthenticatedError)
    })
  })
})
