import type { ClientAlias } from '../../infra/config'
import type { MailMessage } from '../../infra/mail/mailer'

/** The link a verification mail carries: the client front end's page, which calls GET /v1/auth/verify. */
export function verificationLink(alias: ClientAlias, email: string, code: string): string {
  const url = new URL(`${alias.url}/verify-email-success`)
  url.searchParams.set('email', email)
  url.searchParams.set('verificationCode', code)
  return url.toString()
}

export function buildVerificationMail(input: {
  to: string
  alias: ClientAlias
  code: string
  link: string
  ttlSeconds: number
}): MailMessage {
  const minutes = Math.max(1, Math.round(input.ttlSeconds / 60))
  return {
    to: input.to,
    subject: `Verify your e-mail address for ${input.alias.name}`,
    text: [
      `Your verification code is ${input.code}`,
      '',
      `Or open this link to verify your address: ${input.link}`,
      '',
      `The code expires in ${minutes} minutes and works once. If you did not ask for it, ignore this mail.`,
    ].join('\n'),
  }
}

/**
 * Sent instead of a code when the address already has an account: the owner learns what happened, while the
 * API answers exactly as for a new address (no account enumeration).
 */
export function buildAccountExistsMail(input: { to: string; alias: ClientAlias }): MailMessage {
  return {
    to: input.to,
    subject: `Your ${input.alias.name} account`,
    text: [
      `Someone asked to register this e-mail address at ${input.alias.name}, but it already has an account.`,
      '',
      `Sign in at ${input.alias.url} instead. If this was not you, ignore this mail.`,
    ].join('\n'),
  }
}
