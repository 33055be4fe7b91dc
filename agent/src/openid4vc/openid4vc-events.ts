/**
 * How OpenID4VC sessions reach the platform through the agent's event outbox (agent/src/events). Plain constants:
 * the event code loads in every agent, `@credo-ts/openid4vc` only where OpenID4VC is on.
 */

/** Credo's issuance session record type (`OpenId4VcIssuanceSessionRecord.type`): one per credential offer. */
export const ISSUANCE_SESSION_RECORD_TYPE = 'OpenId4VcIssuanceSessionRecord'
/** Credo's verification session record type (`OpenId4VcVerificationSessionRecord.type`): one per presentation request. */
export const VERIFICATION_SESSION_RECORD_TYPE = 'OpenId4VcVerificationSessionRecord'

/** Record types whose creation and state changes are announced, with their event kinds. */
export const OPENID4VC_FORWARDED_RECORD_TYPES = {
  [ISSUANCE_SESSION_RECORD_TYPE]: 'openid4vc-issuance',
  [VERIFICATION_SESSION_RECORD_TYPE]: 'openid4vc-verification',
} as const

/** Credo's state-changed events of those records, with the payload key holding the record (metrics). */
export const OPENID4VC_FORWARDED_EVENTS = {
  'OpenId4VcIssuer.IssuanceSessionStateChanged': { kind: 'openid4vc-issuance', recordKey: 'issuanceSession' },
  'OpenId4VcVerifier.VerificationSessionStateChanged': {
    kind: 'openid4vc-verification',
    recordKey: 'verificationSession',
  },
} as const

/**
 * Members of an issuance session that redeem or bind the offer (the pre-authorized code and transaction code, the
 * authorization code, PKCE and identity-chaining secrets, the nonce): they stay in the agent. The platform learns the
 * transaction code once, in the answer to the offer's creation; events are stored and may be logged or relayed.
 */
const ISSUANCE_SECRETS = ['preAuthorizedCode', 'userPin', 'pkce'] as const
const ISSUANCE_SECRET_TAGS = [
  'preAuthorizedCode',
  'authorizationCode',
  'issuerState',
  'chainedIdentityState',
  'cNonce',
] as const
/** The offer's grant names (OID4VCI 1.0, 4.1.1) whose values hold the codes above. */
const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code'

/**
 * The record JSON an event carries: as stored, except an issuance session's secrets. Other types pass unchanged
 * (the same text, not parsed).
 */
export function recordJsonForEvent(type: string, recordJson: string): string {
  if (type !== ISSUANCE_SESSION_RECORD_TYPE) return recordJson
  const record = JSON.parse(recordJson) as Record<string, unknown>
  for (const key of ISSUANCE_SECRETS) delete record[key]
  const authorization = record.authorization as Record<string, unknown> | undefined
  if (authorization) {
    delete authorization.code
    delete authorization.issuerState
  }
  const chained = record.chainedIdentity as Record<string, unknown> | undefined
  if (chained) {
    delete chained.pkceCodeVerifier
    delete chained.externalAccessTokenResponse
    delete chained.externalState
  }
  // The offer payload repeats the codes in its grants: the pre-authorized code, and the authorization grant's state.
  const grants = (record.credentialOfferPayload as { grants?: Record<string, Record<string, unknown>> } | undefined)
    ?.grants
  if (grants) {
    if (grants[PRE_AUTHORIZED_GRANT]) delete grants[PRE_AUTHORIZED_GRANT]['pre-authorized_code']
    if (grants.authorization_code) delete grants.authorization_code.issuer_state
  }
  const tags = record._tags as Record<string, unknown> | undefined
  if (tags) for (const key of ISSUANCE_SECRET_TAGS) delete tags[key]
  return JSON.stringify(record)
}
