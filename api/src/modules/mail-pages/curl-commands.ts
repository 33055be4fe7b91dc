/**
 * The curl commands the pages show: the same path a script takes through the API (docs/api-usage.md).
 * Values are shell-quoted; placeholders are written in angle brackets.
 */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

function postJson(url: string, body: Record<string, unknown>, token?: string): string {
  return [
    `curl -X POST ${shellQuote(url)} -H 'Content-Type: application/json'`,
    ...(token ? [`-H ${shellQuote(`Authorization: Bearer ${token}`)}`] : []),
    `-d ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n  ')
}

export function verificationMailCurl(publicUrl: string, email: string): string {
  return postJson(`${publicUrl}/v1/auth/verification-mail`, { email })
}

export function verifyCurl(publicUrl: string, email: string, code: string): string {
  return `curl ${shellQuote(`${publicUrl}/v1/auth/verify?${new URLSearchParams({ email, verificationCode: code })}`)}`
}

export function signUpCurl(publicUrl: string, email: string): string {
  return postJson(`${publicUrl}/v1/auth/signup`, {
    email,
    firstName: '<first name>',
    lastName: '<last name>',
    password: '<password>',
    isEmailVerified: true,
  })
}

/** Sign-in; the answer's `data.access_token` is the token of the next calls. */
export function signInCurl(publicUrl: string, email: string): string {
  return postJson(`${publicUrl}/v1/auth/signin`, { email, password: '<password>' })
}

export function answerInvitationCurl(publicUrl: string, invitationId: string, status: 'accepted' | 'rejected'): string {
  return [
    `curl -X PUT ${shellQuote(`${publicUrl}/v1/users/invitations/${invitationId}`)}`,
    `-H 'Content-Type: application/json' -H 'Authorization: Bearer <access_token>'`,
    `-d ${shellQuote(JSON.stringify({ status }))}`,
  ].join(' \\\n  ')
}
