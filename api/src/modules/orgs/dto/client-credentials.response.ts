/** `POST .../client_credentials`: the only response that ever carries the secret in clear. */
export interface GeneratedClientCredentialsResponse {
  clientId: string
  clientSecret: string
}

/** `GET .../client_credentials`: the secret is masked (docs/decisions.md, Organizations). */
export interface MaskedClientCredentialsResponse {
  clientId: string
  clientSecret: string
  createdAt: string
}

/** `POST /v1/orgs/:clientId/token`, shaped like the sign-in result (spec: Sign-in result). */
export interface ClientTokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
}
