import { InvalidInputError, RateLimitedError, silentLogger } from '@idplane/common'
import {
  FakeEmailVerificationsRepository,
  FakeUsersRepository,
  InMemoryRateLimitStore,
  RecordingMailService,
  asDouble,
} from '../../../../test/helpers/auth-fakes'
import { loadConfig } from '../../infra/config'
import { authConfig } from './auth.config'
import type { MailOutbox } from '../../infra/mail/mail-outbox'
import { RateLimiter } from '../../infra/rate-limit/rate-limiter'
import { EmailVerificationService, MAX_FAILED_VERIFICATION_ATTEMPTS } from './email-verification.service'
import { sha256Hex } from './secrets'

const T0 = new Date('2026-11-21T10:00:00.000Z')
const EMAIL = 'alice@example.test'
const IP = '203.0.113.1'

describe('EmailVerificationService', () => {
  let verifications: FakeEmailVerificationsRepository
  let users: FakeUsersRepository
  let mail: RecordingMailService
  let sut: EmailVerificationService

  const config = loadConfig(
    {
      DATA_DIR: '/tmp/idplane-unit',
      VERIFICATION_CODE_TTL_SECONDS: '600',
      RATE_LIMIT_VERIFICATION_MAIL_MAX: '2',
      CLIENT_ALIASES: JSON.stringify([
        { alias: 'PORTAL', name: 'Portal', url: 'https://portal.example.test' },
        { alias: 'WALLET', name: 'Wallet', url: 'https://wallet.example.test' },
      ]),
    },
    [authConfig],
  )

  const codeOfLastMail = (): string => {
    const match = /verificationCode=(\d+)/.exec(mail.sent.at(-1)?.text ?? '')
    if (!match?.[1]) throw new Error('no code mailed')
    return match[1]
  }
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000')
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    )
  const at = (seconds: number) => jest.setSystemTime(new Date(T0.getTime() + seconds * 1000))

  beforeEach(() => {
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] })
    verifications = new FakeEmailVerificationsRepository()
    users = new FakeUsersRepository()
    mail = new RecordingMailService()
    const rateLimiter = new RateLimiter(new InMemoryRateLimitStore(), silentLogger, { retentionSeconds: 600 })
    sut = new EmailVerificationService(
      config,
      asDouble(verifications),
      asDouble(users),
      mail as unknown as MailOutbox,
      rateLimiter,
      silentLogger,
    )
  })

  afterEach(() => {
    jest.useRealTimers()
  })

  describe('sendVerificationMail', () => {
    it('mails a 6-digit code with a link of the first alias and stores only its sha256', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      const code = codeOfLastMail()
      expect(code).toMatch(/^\d{6}$/)
      expect(mail.sent[0]?.to).toBe(EMAIL)
      expect(mail.sent[0]?.text).toContain(
        `https://portal.example.test/verify-email-success?email=alice%40example.test&verificationCode=${code}`,
      )
      expect(verifications.rows).toHaveLength(1)
      expect(verifications.rows[0]).toMatchObject({
        email: EMAIL,
        codeHash: sha256Hex(code),
        clientAlias: 'PORTAL',
        expiresAt: new Date(T0.getTime() + 600_000),
      })
      expect(JSON.stringify(verifications.rows[0])).not.toContain(`"${code}"`)
    })

    it('uses the named alias and refuses an unknown one', async () => {
      await sut.sendVerificationMail(EMAIL, 'wallet', IP)
      expect(verifications.rows[0]?.clientAlias).toBe('WALLET')
      const failure = await failureOf(sut.sendVerificationMail(EMAIL, 'other', IP))
      expect(failure).toBeInstanceOf(InvalidInputError)
      expect((failure as InvalidInputError).fields[0]?.field).toBe('clientAlias')
    })

    it('mails an address that has an account a notice without a code and stores nothing', async () => {
      await users.add({
        email: EMAIL,
        firstName: 'A',
        lastName: 'B',
        passwordHash: 'x',
        isEmailVerified: true,
        clientAlias: null,
      })
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      expect(verifications.rows).toHaveLength(0)
      expect(mail.sent).toHaveLength(1)
      expect(mail.sent[0]?.text).toContain('already has an account')
      expect(mail.sent[0]?.text).not.toMatch(/\d{6}/)
    })

    it('refuses more mails per address than the limit, with the rest of the window as the wait', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      at(100)
      const failure = await failureOf(sut.sendVerificationMail(EMAIL, undefined, IP))
      expect(failure).toBeInstanceOf(RateLimitedError)
      expect((failure as RateLimitedError).retryAfterSeconds).toBe(500)
      expect(mail.sent).toHaveLength(2)
    })

    it('counts plus-addressed and differently cased forms of an address in one bucket', async () => {
      await sut.sendVerificationMail('alice+1@example.test', undefined, IP)
      await sut.sendVerificationMail('Alice+Two@EXAMPLE.test', undefined, IP)
      await expect(sut.sendVerificationMail(EMAIL, undefined, IP)).rejects.toBeInstanceOf(RateLimitedError)
      await expect(sut.sendVerificationMail('bob@example.test', undefined, IP)).resolves.toBeUndefined()
    })
  })

  describe('verify', () => {
    it('marks the newest code verified', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      await sut.verify(EMAIL, codeOfLastMail(), IP)
      expect(verifications.rows[0]?.verifiedAt).toEqual(T0)
    })

    it('refuses a code a second time (single use)', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      const code = codeOfLastMail()
      await sut.verify(EMAIL, code, IP)
      await expect(sut.verify(EMAIL, code, IP)).rejects.toThrow('Verification code has already been used')
    })

    it('refuses a code at and after its expiry', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      const code = codeOfLastMail()
      at(600)
      await expect(sut.verify(EMAIL, code, IP)).rejects.toThrow('Verification code has expired')
      expect(verifications.rows[0]?.verifiedAt).toBeUndefined()
    })

    it('accepts a code just before its expiry', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      at(599)
      await sut.verify(EMAIL, codeOfLastMail(), IP)
    })

    it('counts wrong codes and kills the code at the fifth, even for the right code afterwards', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      const code = codeOfLastMail()
      for (let i = 1; i < MAX_FAILED_VERIFICATION_ATTEMPTS; i++) {
        await expect(sut.verify(EMAIL, wrong(code), IP)).rejects.toThrow('Invalid verification code')
      }
      await expect(sut.verify(EMAIL, wrong(code), IP)).rejects.toThrow('Invalid verification code')
      expect(verifications.rows[0]?.failedAttempts).toBe(MAX_FAILED_VERIFICATION_ATTEMPTS)
      await expect(sut.verify(EMAIL, code, IP)).rejects.toThrow('Too many wrong verification codes')
    })

    it('answers the fifth and later wrong codes exactly as any wrong code (a dead code is not revealed)', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      const code = codeOfLastMail()
      const failures: unknown[] = []
      for (let i = 0; i < MAX_FAILED_VERIFICATION_ATTEMPTS + 2; i++) {
        failures.push(await failureOf(sut.verify(EMAIL, wrong(code), IP)))
      }
      const shapes = failures.map((failure) => ({
        type: (failure as Error).constructor.name,
        message: (failure as InvalidInputError).message,
        fields: (failure as InvalidInputError).fields,
      }))
      expect(new Set(shapes.map((shape) => JSON.stringify(shape))).size).toBe(1)
      expect(shapes[0]?.message).toBe('Invalid verification code')
    })

    it('does not reveal the state of a code to a caller with a wrong code, nor count against a dead code', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      const code = codeOfLastMail()
      await sut.verify(EMAIL, code, IP)
      await expect(sut.verify(EMAIL, wrong(code), IP)).rejects.toThrow('Invalid verification code')
      at(3600)
      await expect(sut.verify(EMAIL, wrong(code), IP)).rejects.toThrow('Invalid verification code')
      expect(verifications.rows[0]?.failedAttempts).toBe(0)
    })

    it('only accepts the newest code of an address', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      const older = codeOfLastMail()
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      const newer = codeOfLastMail()
      if (older !== newer) await expect(sut.verify(EMAIL, older, IP)).rejects.toThrow('Invalid verification code')
      await sut.verify(EMAIL, newer, IP)
    })

    it('answers an address without any code like a wrong code', async () => {
      const failure = await failureOf(sut.verify('nobody@example.test', '123456', IP))
      expect(failure).toBeInstanceOf(InvalidInputError)
      expect((failure as InvalidInputError).message).toBe('Invalid verification code')
    })
  })

  describe('consumeVerifiedAddress', () => {
    it('hands a verified address to one sign-up only', async () => {
      await sut.sendVerificationMail(EMAIL, 'wallet', IP)
      await sut.verify(EMAIL, codeOfLastMail(), IP)
      expect((await sut.consumeVerifiedAddress(EMAIL)).clientAlias).toBe('WALLET')
      await expect(sut.consumeVerifiedAddress(EMAIL)).rejects.toThrow('Email address is not verified')
    })

    it('refuses an address whose code was mailed but not verified', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      await expect(sut.consumeVerifiedAddress(EMAIL)).rejects.toThrow('Email address is not verified')
    })

    it('refuses a verification older than a day', async () => {
      await sut.sendVerificationMail(EMAIL, undefined, IP)
      await sut.verify(EMAIL, codeOfLastMail(), IP)
      at(86_401)
      await expect(sut.consumeVerifiedAddress(EMAIL)).rejects.toThrow('Email address is not verified')
    })
  })
})
