import { integer, object, oneOf, string } from '../../../infra/http/data-schema'

/** What sign-in and refresh hand out (spec: Resources, Sign-in result; snake_case as the spec names it). */
export interface SignInResponse {
  access_token: string
  refresh_token: string
  /** Seconds until the access token expires. */
  expires_in: number
  token_type: 'Bearer'
}

export interface IssuedSession {
  accessToken: string
  refreshToken: string
  expiresIn: number
  /** When the refresh token (its family) expires: the browser session cookie's lifetime. */
  refreshExpiresAt: Date
}

/**
 * What a browser session answers (docs/decisions.md, "Console sessions"): the access token only; the refresh
 * token travels in an HttpOnly cookie that script cannot read.
 */
export interface BrowserSessionResponse {
  access_token: string
  expires_in: number
  token_type: 'Bearer'
}

export function toBrowserSessionResponse(session: IssuedSession): BrowserSessionResponse {
  return { access_token: session.accessToken, expires_in: session.expiresIn, token_type: 'Bearer' }
}

/** BrowserSessionResponse in the OpenAPI document. */
export const BROWSER_SESSION_SCHEMA = object<BrowserSessionResponse>('BrowserSession', {
  access_token: string,
  expires_in: integer,
  token_type: oneOf(['Bearer'] as const),
})

export function toSignInResponse(session: IssuedSession): SignInResponse {
  return {
    access_token: session.accessToken,
    refresh_token: session.refreshToken,
    expires_in: session.expiresIn,
    token_type: 'Bearer',
  }
}

/** SignInResponse in the OpenAPI document. */
export const SIGN_IN_SCHEMA = object<SignInResponse>('SignInResult', {
  access_token: string,
  refresh_token: string,
  expires_in: integer,
  token_type: oneOf(['Bearer'] as const),
})
