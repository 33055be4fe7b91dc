import {
  OpenId4VcIssuanceSessionRecord,
  OpenId4VcIssuerEvents,
  OpenId4VcVerificationSessionRecord,
  OpenId4VcVerifierEvents,
} from '@credo-ts/openid4vc'

import { FORWARDED_EVENTS, FORWARDED_RECORD_TYPES } from '../events/event-mapper'
import {
  ISSUANCE_SESSION_RECORD_TYPE,
  OPENID4VC_FORWARDED_EVENTS,
  recordJsonForEvent,
  VERIFICATION_SESSION_RECORD_TYPE,
} from './openid4vc-events'

describe('OpenID4VC events', () => {
  it("names Credo's session record types and state-changed events as Credo does", () => {
    expect(ISSUANCE_SESSION_RECORD_TYPE).toBe(OpenId4VcIssuanceSessionRecord.type)
    expect(VERIFICATION_SESSION_RECORD_TYPE).toBe(OpenId4VcVerificationSessionRecord.type)
    expect(Object.keys(OPENID4VC_FORWARDED_EVENTS).sort()).toEqual(
      [
        OpenId4VcIssuerEvents.IssuanceSessionStateChanged,
        OpenId4VcVerifierEvents.VerificationSessionStateChanged,
      ].sort(),
    )
    expect(FORWARDED_RECORD_TYPES[ISSUANCE_SESSION_RECORD_TYPE]).toBe('openid4vc-issuance')
    expect(FORWARDED_RECORD_TYPES[VERIFICATION_SESSION_RECORD_TYPE]).toBe('openid4vc-verification')
    expect(FORWARDED_EVENTS[OpenId4VcIssuerEvents.IssuanceSessionStateChanged].recordKey).toBe('issuanceSession')
  })

  it("leaves an issuance session's codes out of its event and keeps the rest", () => {
    const stored = {
      id: 's1',
      state: 'OfferCreated',
      issuerId: 'i1',
      preAuthorizedCode: 'pre-auth-code',
      userPin: '493817',
      pkce: { codeChallenge: 'c', codeChallengeMethod: 'S256' },
      authorization: { code: 'auth-code', issuerState: 'issuer-state', scopes: ['t1'] },
      chainedIdentity: { externalAuthorizationServerUrl: 'https://idp', pkceCodeVerifier: 'v', externalState: 's' },
      issuanceMetadata: { credentials: { t1: { given_name: 'Ada' } } },
      credentialOfferPayload: {
        credential_configuration_ids: ['t1'],
        grants: {
          'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
            'pre-authorized_code': 'pre-auth-code',
            tx_code: { length: 6, input_mode: 'numeric' },
          },
          authorization_code: { issuer_state: 'issuer-state', authorization_server: 'https://as' },
        },
      },
      _tags: { preAuthorizedCode: 'pre-auth-code', cNonce: 'c-nonce', custom: 'x' },
    }
    const sent = JSON.parse(recordJsonForEvent(ISSUANCE_SESSION_RECORD_TYPE, JSON.stringify(stored)))
    expect(sent).toEqual({
      id: 's1',
      state: 'OfferCreated',
      issuerId: 'i1',
      authorization: { scopes: ['t1'] },
      chainedIdentity: { externalAuthorizationServerUrl: 'https://idp' },
      issuanceMetadata: { credentials: { t1: { given_name: 'Ada' } } },
      credentialOfferPayload: {
        credential_configuration_ids: ['t1'],
        grants: {
          'urn:ietf:params:oauth:grant-type:pre-authorized_code': { tx_code: { length: 6, input_mode: 'numeric' } },
          authorization_code: { authorization_server: 'https://as' },
        },
      },
      _tags: { custom: 'x' },
    })
    expect(JSON.stringify(sent)).not.toMatch(/493817|pre-auth-code|auth-code|issuer-state|c-nonce/)
  })

  it('passes other records through as the same text', () => {
    const text = '{"id":"v1", "state":"RequestCreated"}'
    expect(recordJsonForEvent(VERIFICATION_SESSION_RECORD_TYPE, text)).toBe(text)
    expect(recordJsonForEvent('DidCommConnectionRecord', text)).toBe(text)
  })
})
