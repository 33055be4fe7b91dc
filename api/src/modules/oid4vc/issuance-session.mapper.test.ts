import { decideUpdate } from '../../infra/records/record-order'
import type { IssuanceSessionRecord } from './issuance-session.entity'
import { issuanceSessionReportOf, toIssuanceSessionEventRecord } from './issuance-session.mapper'
import { ISSUANCE_SESSION_ORDER } from './issuance-session.states'

const ID = '5b0c7a52-2f7e-4a4e-9a57-0d2d5c1e8f31'
const occurredAt = '2026-11-29T06:00:30.000Z'

/** An issuance session record as Credo stores it, with every code it may hold. */
const session = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: ID,
  issuerId: 'acme-issuer',
  state: 'OfferCreated',
  createdAt: '2026-11-29T06:00:00.000Z',
  updatedAt: '2026-11-29T06:00:05.000Z',
  expiresAt: '2026-11-29T06:05:00.000Z',
  preAuthorizedCode: 'pre-auth-code',
  userPin: '493817',
  pkce: { codeChallenge: 'challenge', codeChallengeMethod: 'S256' },
  authorization: { code: 'auth-code', issuerState: 'issuer-state' },
  issuedCredentials: [],
  transactions: [],
  issuanceMetadata: { credentials: { employee: { given_name: 'Ada' } } },
  credentialOfferPayload: {
    credential_issuer: 'https://acme.example/oid4vci/acme-issuer',
    credential_configuration_ids: ['employee'],
    grants: {
      'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
        'pre-authorized_code': 'pre-auth-code',
        tx_code: { length: 6, input_mode: 'numeric' },
      },
    },
  },
  _tags: { preAuthorizedCode: 'pre-auth-code', cNonce: 'c-nonce', state: 'OfferCreated' },
  ...overrides,
})

/** The report of a record the mapper must accept. */
function reportOf(record: Record<string, unknown>) {
  const report = issuanceSessionReportOf(record, occurredAt)
  if (!report) throw new Error('the mapper refused the record')
  return report
}

describe('issuanceSessionReportOf', () => {
  it('reads the offer facts of a Credo issuance session, its version from updatedAt', () => {
    expect(issuanceSessionReportOf(session(), occurredAt)).toEqual({
      recordId: ID,
      state: 'OfferCreated',
      versionAt: new Date('2026-11-29T06:00:05.000Z'),
      fields: {
        id: ID,
        issuerId: 'acme-issuer',
        state: 'OfferCreated',
        credentialConfigurationIds: ['employee'],
        issuedCredentials: [],
        isPreAuthorized: true,
        hasTxCode: true,
        errorMessage: null,
        expiresAt: new Date('2026-11-29T06:05:00.000Z'),
        createdAt: new Date('2026-11-29T06:00:00.000Z'),
        agentUpdatedAt: new Date('2026-11-29T06:00:05.000Z'),
      },
    })
  })

  it('never copies a code, token or nonce, whatever the record still holds', () => {
    const report = reportOf(session({ state: 'AccessTokenCreated', cNonce: 'c-nonce' }))
    expect(JSON.stringify(report)).not.toMatch(/pre-auth-code|493817|auth-code|issuer-state|challenge|c-nonce/)
    const row = { ...report.fields, organization: {}, updatedAt: new Date() } as unknown as IssuanceSessionRecord
    expect(JSON.stringify(toIssuanceSessionEventRecord(row))).not.toMatch(/pre-auth-code|493817|auth-code|c-nonce/)
  })

  it('tells an offer without a transaction code, and one with the authorization code flow only', () => {
    const grants = (value: Record<string, unknown>) =>
      session({ credentialOfferPayload: { credential_configuration_ids: ['employee'], grants: value } })
    expect(
      issuanceSessionReportOf(
        grants({ 'urn:ietf:params:oauth:grant-type:pre-authorized_code': { 'pre-authorized_code': 'x' } }),
        occurredAt,
      )?.fields,
    ).toMatchObject({ isPreAuthorized: true, hasTxCode: false })
    expect(
      issuanceSessionReportOf(grants({ authorization_code: { issuer_state: 's' } }), occurredAt)?.fields,
    ).toMatchObject({ isPreAuthorized: false, hasTxCode: false })
  })

  it('refuses unknown states and records without a UUID id or an issuer', () => {
    expect(issuanceSessionReportOf(session({ state: 'Teleported' }), occurredAt)).toBeNull()
    expect(issuanceSessionReportOf(session({ id: 'session-1' }), occurredAt)).toBeNull()
    expect(issuanceSessionReportOf(session({ issuerId: undefined }), occurredAt)).toBeNull()
  })

  it('shows the row as the offer read does', () => {
    const report = reportOf(
      session({ state: 'Completed', issuedCredentials: ['employee'], updatedAt: '2026-11-29T06:01:00.000Z' }),
    )
    const row = { ...report.fields, organization: {}, updatedAt: new Date() } as unknown as IssuanceSessionRecord
    expect(toIssuanceSessionEventRecord(row)).toEqual({
      id: ID,
      issuerId: 'acme-issuer',
      state: 'Completed',
      credentialConfigurationIds: ['employee'],
      issuedCredentials: ['employee'],
      isPreAuthorized: true,
      hasTxCode: true,
      expiresAt: '2026-11-29T06:05:00.000Z',
      createdAt: '2026-11-29T06:00:00.000Z',
      updatedAt: '2026-11-29T06:01:00.000Z',
    })
  })
})

describe('ISSUANCE_SESSION_ORDER', () => {
  const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 6, 0, second))
  const decide = (stored: [string, number], incoming: [string, number]) =>
    decideUpdate(
      ISSUANCE_SESSION_ORDER,
      { state: stored[0], versionAt: at(stored[1]) },
      { state: incoming[0], versionAt: at(incoming[1]) },
    )

  it("follows Credo's states forward and never leaves Completed or Error", () => {
    expect(decide(['OfferCreated', 1], ['OfferUriRetrieved', 2])).toBe('advance')
    expect(decide(['AccessTokenCreated', 3], ['OfferUriRetrieved', 9])).toBe('ignore')
    expect(decide(['AccessTokenCreated', 3], ['Completed', 4])).toBe('advance')
    expect(decide(['Completed', 4], ['Error', 9])).toBe('ignore')
    expect(decide(['Error', 4], ['Completed', 9])).toBe('ignore')
  })

  it('lets a batch alternate between a credential request and partial issuance by time', () => {
    expect(decide(['CredentialRequestReceived', 3], ['CredentialsPartiallyIssued', 4])).toBe('advance')
    expect(decide(['CredentialsPartiallyIssued', 4], ['CredentialRequestReceived', 5])).toBe('advance')
    expect(decide(['CredentialsPartiallyIssued', 4], ['CredentialRequestReceived', 3])).toBe('ignore')
  })
})
