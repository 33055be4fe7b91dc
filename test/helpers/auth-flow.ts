import { randomUUID } from 'node:crypto'
import type { Express } from 'express'
import request from 'supertest'
import { readLatestMail, type StoredMail } from '../../api/src/infra/mail/file-mailer'
import type { TestApi } from './api'

/** A user who went through the real sign-up flow, with the tokens of one sign-in. */
export interface SignedUpUser {
  email: string
  password: string
  userId: string
  accessToken: string
  refreshToken: string
}

/** Meets the sign-up password policy (letters and digits, 8 to 128 characters). */
export const TEST_PASSWORD = 'correct-horse-42'

/**
 * Waits for a mail to `email` under `<dataDir>/mail/` (embedded FileMailer) that is not `previousId`. Mail goes
 * through the queue, so it lands shortly after the request answered.
 * @throws Error after `timeoutMs`
 */
export async function waitForMail(
  dataDir: string,
  email: string,
  options: { previousId?: string; timeoutMs?: number } = {},
): Promise<StoredMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000)
  for (;;) {
    const mail = await readLatestMail(dataDir, email)
    if (mail && mail.id !== options.previousId) return mail
    if (Date.now() > deadline) throw new Error(`No new mail for ${email} under ${dataDir}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** The verification code of a verification mail (the digits of its `verificationCode=` link parameter). */
export function verificationCodeOf(mail: StoredMail): string {
  const match = /verificationCode=(\d+)/.exec(mail.text)
  if (!match?.[1]) throw new Error(`Mail "${mail.subject}" carries no verification code`)
  return match[1]
}

/** Requests a verification mail and returns the code it carries (read from the mail file). */
export async function requestVerificationCode(app: Express, dataDir: string, email: string): Promise<string> {
  const previous = await readLatestMail(dataDir, email)
  await request(app).post('/v1/auth/verification-mail').send({ email }).expect(201)
  return verificationCodeOf(await waitForMail(dataDir, email, { previousId: previous?.id }))
}

/**
 * The whole onboarding through HTTP: verification mail, code from the mail file, verify, sign-up, sign-in.
 * Needs the embedded file mailer (startApi() without SMTP_URL).
 */
export async function signUpAndSignIn(
  app: Express,
  dataDir: string,
  email: string,
  profile: { password?: string; firstName?: string; lastName?: string } = {},
): Promise<SignedUpUser> {
  const password = profile.password ?? TEST_PASSWORD
  const code = await requestVerificationCode(app, dataDir, email)
  await request(app).get('/v1/auth/verify').query({ email, verificationCode: code }).expect(200)
  const signUp = await request(app)
    .post('/v1/auth/signup')
    .send({
      email,
      firstName: profile.firstName ?? 'Test',
      lastName: profile.lastName ?? 'User',
      password,
      isEmailVerified: true,
    })
    .expect(201)
  const signIn = await request(app).post('/v1/auth/signin').send({ email, password }).expect(200)
  return {
    email: signUp.body.data.email,
    password,
    userId: signUp.body.data.id,
    accessToken: signIn.body.data.access_token,
    refreshToken: signIn.body.data.refresh_token,
  }
}

/** A fresh signed-up and signed-in user with a unique address (`user-<uuid>@example.test`). */
export function aUser(api: TestApi, email = `user-${randomUUID()}@example.test`): Promise<SignedUpUser> {
  return signUpAndSignIn(api.app, api.dataDir, email)
}
