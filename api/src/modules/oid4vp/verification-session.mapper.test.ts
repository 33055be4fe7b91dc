import { decideUpdate } from '../../infra/records/record-order'
import type { VerificationSessionRecord } from './verification-session.entity'
import {
  disclosedOfAnswer,
  toVerificationSessionEventRecord,
  verificationSessionReportOf,
} from './verification-session.mapper'
import { VERIFICATION_SESSION_ORDER } from './verification-session.states'

const ID = '0f6a3c1e-8d44-4b1f-a2de-6b7f3b9e2c10'
const occurredAt = '2026-11-29T06:00:30.000Z'

/** A verification session record as Credo stores it, with the request's nonce and the wallet's response. */
const session = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: ID,
  verifierId: 'acme-hr',
  state: 'RequestCreated',
  createdAt: '2026-11-29T06:00:00.000Z',
  updatedAt: '2026-11-29T06:00:02.000Z',
  expiresAt: '2026-11-29T06:05:00.000Z',
  authorizationRequestUri: 'openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri=https%3A%2F%2Fr',
  authorizationRequestPayload: { nonce: 'request-nonce', response_uri: 'https://r' },
  authorizationRequestJwt: 'eyJ.request.jwt',
  authorizationResponsePayload: { vp_token: { employee: ['eyJ.sd-jwt~disclosure~kb'] } },
  _tags: { nonce: 'request-nonce', verifierId: 'acme-hr' },
  ...overrides,
})

const disclosed = [
  {
    queryId: 'employee',
    format: 'dc+sd-jwt',
    issuerCertificateSubject: 'CN=Acme',
    type: 'https://acme.example/credentials/employee',
    claims: { given_name: 'Ada', department: 'Engines' },
  },
]

describe('verificationSessionReportOf', () => {
  it("reads a Credo verification session's public facts, its version from updatedAt", () => {
    expect(verificationSessionReportOf(session(), occurredAt)).toEqual({
      recordId: ID,
      state: 'RequestCreated',
      versionAt: new Date('2026-11-29T06:00:02.000Z'),
      fields: {
        id: ID,
        verifierId: 'acme-hr',
        state: 'RequestCreated',
        authorizationRequestUri: 'openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri=https%3A%2F%2Fr',
        errorMessage: null,
        expiresAt: new Date('2026-11-29T06:05:00.000Z'),
        createdAt: new Date('2026-11-29T06:00:00.000Z'),
        agentUpdatedAt: new Date('2026-11-29T06:00:02.000Z'),
      },
    })
  })

  it('copies neither the nonce nor the request JWT nor the wallet response', () => {
    const report = verificationSessionReportOf(session({ state: 'ResponseVerified' }), occurredAt)
    expect(JSON.stringify(report)).not.toMatch(/request-nonce|request\.jwt|sd-jwt~disclosure/)
  })

  it('refuses unknown states and records without a UUID id or a verifier', () => {
    expect(verificationSessionReportOf(session({ state: 'Teleported' }), occurredAt)).toBeNull()
    expect(verificationSessionReportOf(session({ id: 'v1' }), occurredAt)).toBeNull()
    expect(verificationSessionReportOf(session({ verifierId: 7 }), occurredAt)).toBeNull()
  })
})

describe('the disclosed claims of a verification session', () => {
  it("takes them from the agent's answer exactly as the session read shows them", () => {
    const answer = {
      id: ID,
      verifierId: 'acme-hr',
      state: 'ResponseVerified',
      disclosed: [{ ...disclosed[0], issuer: undefined }],
      createdAt: '2026-11-29T06:00:00.000Z',
    }
    expect(disclosedOfAnswer(answer)).toEqual(disclosed)
    expect(disclosedOfAnswer({ ...answer, state: 'RequestCreated', disclosed: undefined })).toBeNull()
  })

  it('puts them in the event record, which has the session read shape', () => {
    const report = verificationSessionReportOf(
      session({ state: 'ResponseVerified', updatedAt: '2026-11-29T06:00:09.000Z' }),
      occurredAt,
    )
    if (!report) throw new Error('the mapper refused the record')
    const row = {
      ...report.fields,
      disclosed,
      organization: {},
      updatedAt: new Date(),
    } as unknown as VerificationSessionRecord
    expect(toVerificationSessionEventRecord(row)).toEqual({
      id: ID,
      verifierId: 'acme-hr',
      state: 'ResponseVerified',
      authorizationRequestUri: 'openid4vp://?client_id=x509_san_dns%3Alocalhost&request_uri=https%3A%2F%2Fr',
      disclosed,
      expiresAt: '2026-11-29T06:05:00.000Z',
      createdAt: '2026-11-29T06:00:00.000Z',
      updatedAt: '2026-11-29T06:00:09.000Z',
    })
  })
})

describe('VERIFICATION_SESSION_ORDER', () => {
  const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 6, 0, second))
  const decide = (stored: [string, number], incoming: [string, number]) =>
    decideUpdate(
      VERIFICATION_SESSION_ORDER,
      { state: stored[0], versionAt: at(stored[1]) },
      { state: incoming[0], versionAt: at(incoming[1]) },
    )

  it("follows Credo's states forward and never leaves ResponseVerified or Error", () => {
    expect(decide(['RequestCreated', 1], ['RequestUriRetrieved', 2])).toBe('advance')
    expect(decide(['RequestUriRetrieved', 2], ['ResponseVerified', 3])).toBe('advance')
    expect(decide(['ResponseVerified', 3], ['RequestUriRetrieved', 9])).toBe('ignore')
    expect(decide(['ResponseVerified', 3], ['Error', 9])).toBe('ignore')
    expect(decide(['ResponseVerified', 3], ['ResponseVerified', 3])).toBe('ignore')
  })
})
