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
}

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
