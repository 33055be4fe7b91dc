import { dateTime, integer, object, oneOf, string, uuid } from '../../../infra/http/data-schema'

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

/** The client-credential responses in the OpenAPI document. */
export const GENERATED_CLIENT_CREDENTIALS_SCHEMA = object<GeneratedClientCredentialsResponse>(
  'GeneratedClientCredentials',
  { clientId: uuid, clientSecret: string },
)
export const MASKED_CLIENT_CREDENTIALS_SCHEMA = object<MaskedClientCredentialsResponse>('MaskedClientCredentials', {
  clientId: uuid,
  clientSecret: string,
  createdAt: dateTime,
})
export const CLIENT_TOKEN_SCHEMA = object<ClientTokenResponse>('ClientToken', {
  access_token: string,
  token_type: oneOf(['Bearer'] as const),
  expires_in: integer,
})
