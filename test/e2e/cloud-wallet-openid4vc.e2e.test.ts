import request from 'supertest'

import { waitUntil } from '../helpers/agent-process'
import { type Platform, startPlatform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

// One organization agent and the platform's managed base wallet (both the real program, spawned by the API).
jest.setTimeout(600_000)

const VCT = 'https://acme.example/credentials/employee'

interface Envelope<T> {
  statusCode: number
  message: string
  data: T
}

interface HeldCredential {
  id: string
  format: string
  type: string
  issuerCertificateSubject?: string
  claims: Record<string, unknown>
}

/**
 * Issue 29 item 5: the cloud wallet as an OpenID4VC holder, through the platform API only, with
 * HIDE_EXPERIMENTAL_OIDC_CONTROLLERS=false. An organization issues an SD-JWT VC with a transaction code; a user's
 * cloud wallet (a tenant of the managed base wallet) trusts the organization's certificates, resolves and accepts the
 * offer and lists the credential; the organization's verifier asks for two claims of which one is optional (DCQL
 * claim_sets), and the holder discloses one claim less than it could. The session shows exactly what was disclosed.
 */
describe('a cloud wallet as an OpenID4VC holder through the platform API', () => {
  let platform: Platform
  let owner: TestUser
  let alice: TestUser
  let bob: TestUser
  let orgId: string
  let certificates: string[]
  let issuerId: string
  let templateId: string
  let verifierId: string
  let held: HeldCredential

  const call = (token: string) => ({
    get: (path: string) => request(platform.api.app).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body: object = {}) =>
      request(platform.api.app).post(path).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => request(platform.api.app).delete(path).set('Authorization', `Bearer ${token}`),
  })

  beforeAll(async () => {
    // Verification certificates name the verifier's host (x509_san_dns): the agents' endpoints say localhost.
    platform = await startPlatform({
      HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'false',
      AGENT_PUBLIC_ENDPOINT_BASE: 'http://localhost',
      // The holder's wallet lives in the platform's own base-wallet agent, started on first use.
      CLOUD_WALLET_BASE_AGENT: 'managed',
      CLOUD_WALLET_BASE_AGENT_WAIT_MS: '240000',
    })
    owner = await aUserWithToken(platform.api)
    alice = await aUserWithToken(platform.api)
    bob = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await Promise.all([
      platform.spinUp(orgId, owner.token, 'Acme'),
      call(alice.token).post('/v1/create-wallet', { label: 'Alice' }).expect(201),
    ])
    await call(bob.token).post('/v1/create-wallet', { label: 'Bob' }).expect(201)

    const org = call(owner.token)
    certificates = []
    for (const body of [
      { keyType: 'P-256', purpose: 'issuance', subject: { commonName: 'Acme' } },
      {
        keyType: 'P-256',
        purpose: 'verification',
        subject: { commonName: 'Acme verifier' },
        sanDnsNames: ['localhost'],
      },
    ]) {
      certificates.push(
        ((await org.post(`/v1/x509/${orgId}`, body).expect(201)).body.data as { certificate: string }).certificate,
      )
    }
    issuerId = (
      (await org.post(`/v1/orgs/${orgId}/oid4vc/issuers`, { display: [{ name: 'Acme' }] }).expect(201)).body.data as {
        issuerId: string
      }
    ).issuerId
    templateId = (
      (
        await org
          .post(`/v1/orgs/${orgId}/oid4vc/${issuerId}/template`, {
            name: 'Employee',
            format: 'dc+sd-jwt',
            vct: VCT,
            claims: [
              { path: ['given_name'], mandatory: true },
              { path: ['family_name'], mandatory: true },
              { path: ['department'] },
              { path: ['employee_number'], selectivelyDisclosable: false },
            ],
            signer: { method: 'x5c' },
          })
          .expect(201)
      ).body.data as { id: string }
    ).id
    verifierId = (
      (await org.post(`/v1/orgs/${orgId}/oid4vp/verifier`, { clientName: 'Acme HR' }).expect(201)).body.data as {
        verifierId: string
      }
    ).verifierId
  }, 900_000)

  afterAll(async () => {
    await platform?.stop()
  })

  async function anOffer(): Promise<{ id: string; offerUri: string; txCode: string }> {
    const res = await call(owner.token)
      .post(`/v1/orgs/${orgId}/oid4vc/${issuerId}/create-offer`, {
        credentials: [
          {
            templateId,
            claims: { given_name: 'Ada', family_name: 'Lovelace', department: 'Engines', employee_number: 42 },
          },
        ],
        txCode: { length: 6, description: 'Sent by mail' },
      })
      .expect(201)
    return res.body.data as { id: string; offerUri: string; txCode: string }
  }

  async function aPresentationRequest(dcql: object): Promise<{ id: string; requestUri: string }> {
    const res = await call(owner.token)
      .post(`/v1/orgs/${orgId}/oid4vp/presentation`, { verifierId, query: { type: 'dcql', dcql } })
      .expect(201)
    return res.body.data as { id: string; requestUri: string }
  }

  it("trusts the organization's certificates, then resolves, refuses a wrong tx code, accepts and lists", async () => {
    const wallet = call(alice.token)
    // An x5c-signed credential does not verify before the wallet trusts its chain: the issuer's credential is refused.
    const untrusted = await anOffer()
    const refused = await wallet.post('/v1/cloud-wallet/oid4vc/offers/accept', {
      offerUri: untrusted.offerUri,
      txCode: untrusted.txCode,
    })
    expect(refused.status).toBe(502)
    expect(refused.body.message).toMatch(/could not be received/)

    for (const certificate of certificates) {
      await wallet.post('/v1/cloud-wallet/oid4vc/trust-anchors', { certificate, label: 'Acme' }).expect(201)
    }
    const anchors = (await wallet.get('/v1/cloud-wallet/oid4vc/trust-anchors').expect(200)).body.data as object[]
    expect(anchors).toHaveLength(2)
    await wallet.post('/v1/cloud-wallet/oid4vc/trust-anchors', { certificate: certificates[0] }).expect(409)
    // Another wallet's trust anchors are its own.
    expect((await call(bob.token).get('/v1/cloud-wallet/oid4vc/trust-anchors').expect(200)).body.data).toEqual([])

    const offer = await anOffer()
    const summary = (
      await wallet.post('/v1/cloud-wallet/oid4vc/offers/resolve', { offerUri: offer.offerUri }).expect(200)
    ).body.data
    expect(summary).toEqual({
      credentialIssuer: expect.stringMatching(new RegExp(`/oid4vci/${issuerId}$`)),
      issuerName: 'Acme',
      credentials: [
        expect.objectContaining({
          configurationId: templateId,
          format: 'dc+sd-jwt',
          type: VCT,
          claims: expect.arrayContaining([
            expect.objectContaining({ path: ['given_name'], mandatory: true }),
            expect.objectContaining({ path: ['department'] }),
          ]),
        }),
      ],
      isPreAuthorized: true,
      txCode: expect.objectContaining({ length: 6, description: 'Sent by mail' }),
    })

    const wrongCode = `${(Number(offer.txCode[0]) + 1) % 10}${offer.txCode.slice(1)}`
    const wrong = await wallet.post('/v1/cloud-wallet/oid4vc/offers/accept', {
      offerUri: offer.offerUri,
      txCode: wrongCode,
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body.errors).toEqual([expect.objectContaining({ field: 'txCode' })])
    const missing = await wallet.post('/v1/cloud-wallet/oid4vc/offers/accept', { offerUri: offer.offerUri })
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toEqual([{ field: 'txCode', message: 'is required by this offer' }])
    const unknown = await wallet.post('/v1/cloud-wallet/oid4vc/offers/resolve', {
      offerUri: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent('http://localhost:9/offers/none')}`,
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'offerUri' })])

    // The holder typed the code wrong: the offer stays redeemable with the right one.
    const accepted = await wallet
      .post('/v1/cloud-wallet/oid4vc/offers/accept', { offerUri: offer.offerUri, txCode: offer.txCode })
      .expect(201)
    ;[held] = (accepted.body as Envelope<HeldCredential[]>).data
    expect(held).toMatchObject({
      format: 'dc+sd-jwt',
      type: VCT,
      issuerCertificateSubject: expect.stringContaining('Acme'),
      claims: { given_name: 'Ada', family_name: 'Lovelace', department: 'Engines', employee_number: 42 },
    })
    const listed = (await wallet.get('/v1/cloud-wallet/oid4vc/credentials').expect(200)).body as Envelope<
      HeldCredential[]
    >
    expect(listed.data.map((credential) => credential.id)).toEqual([held.id])
    expect((await call(bob.token).get('/v1/cloud-wallet/oid4vc/credentials').expect(200)).body.data).toEqual([])
    const completed = await waitUntil(async () => {
      const res = await call(owner.token).get(`/v1/orgs/${orgId}/oid4vc/credential-offer/${offer.id}`).expect(200)
      const data = (res.body as Envelope<{ state: string }>).data
      return data.state === 'Completed' ? data : undefined
    })
    expect(completed.state).toBe('Completed')
  })

  it('answers an authorization request disclosing one optional claim less than it could', async () => {
    const wallet = call(alice.token)
    const presentation = await aPresentationRequest({
      credentials: [
        {
          id: 'employee',
          format: 'dc+sd-jwt',
          meta: { vct_values: [VCT] },
          claims: [
            { id: 'given', path: ['given_name'] },
            { id: 'dept', path: ['department'] },
          ],
          // Both, or the name alone: the department is optional.
          claim_sets: [['given', 'dept'], ['given']],
        },
      ],
    })
    const summary = (
      await wallet.post('/v1/cloud-wallet/oid4vp/requests/resolve', { requestUri: presentation.requestUri }).expect(200)
    ).body.data as { requestId: string; queries: { candidates: { credentialId: string }[] }[] }
    expect(summary).toMatchObject({
      verifier: { clientId: 'x509_san_dns:localhost', clientIdPrefix: 'x509_san_dns' },
      canBeSatisfied: true,
      queries: [
        {
          id: 'employee',
          format: 'dc+sd-jwt',
          type: [VCT],
          claims: [
            { id: 'given', path: ['given_name'] },
            { id: 'dept', path: ['department'] },
          ],
          claimSets: [['given', 'dept'], ['given']],
          isRequired: true,
          candidates: [
            {
              credentialId: held.id,
              format: 'dc+sd-jwt',
              requestedClaims: expect.objectContaining({ given_name: 'Ada' }),
            },
          ],
        },
      ],
    })
    // Another wallet cannot answer Alice's kept request.
    await call(bob.token).post('/v1/cloud-wallet/oid4vp/requests/accept', { requestId: summary.requestId }).expect(404)
    // A selection naming a claim the query does not ask for is refused by field; the request stays to be answered.
    const unrequested = await wallet.post('/v1/cloud-wallet/oid4vp/requests/accept', {
      requestId: summary.requestId,
      selections: { employee: { withhold: [['family_name']] } },
    })
    expect(unrequested.status).toBe(400)

    const answer = await wallet
      .post('/v1/cloud-wallet/oid4vp/requests/accept', {
        requestId: summary.requestId,
        selections: { employee: { credentialId: held.id, withhold: [['department']] } },
      })
      .expect(200)
    expect(answer.body.data).toMatchObject({ status: 200 })
    const verified = await waitUntil(async () => {
      const res = await call(owner.token)
        .get(`/v1/orgs/${orgId}/oid4vp/verifier-presentation?id=${presentation.id}`)
        .expect(200)
      const [session] = (res.body as Envelope<{ state: string; disclosed?: unknown[] }[]>).data
      return session?.state === 'ResponseVerified' ? session : undefined
    })
    // The department stays with the holder, as does family_name (not asked); employee_number is always disclosed.
    expect(verified.disclosed).toEqual([
      {
        queryId: 'employee',
        format: 'dc+sd-jwt',
        issuerCertificateSubject: expect.stringContaining('Acme'),
        type: VCT,
        claims: { given_name: 'Ada', employee_number: 42 },
      },
    ])
    // One answer per request.
    await wallet.post('/v1/cloud-wallet/oid4vp/requests/accept', { requestId: summary.requestId }).expect(404)
  })

  it('refuses a request no credential answers with a 4xx, and deletes credentials of its own wallet only', async () => {
    const wallet = call(alice.token)
    const other = await aPresentationRequest({
      credentials: [{ id: 'badge', format: 'dc+sd-jwt', meta: { vct_values: ['https://other.example/badge'] } }],
    })
    const summary = (
      await wallet.post('/v1/cloud-wallet/oid4vp/requests/resolve', { requestUri: other.requestUri }).expect(200)
    ).body.data as { requestId: string }
    expect(summary).toMatchObject({ canBeSatisfied: false, queries: [{ id: 'badge', candidates: [] }] })
    const unanswerable = await wallet.post('/v1/cloud-wallet/oid4vp/requests/accept', { requestId: summary.requestId })
    expect(unanswerable.status).toBe(409)
    expect(unanswerable.body.message).toMatch(/no credentials answering/)

    await call(bob.token).delete(`/v1/cloud-wallet/oid4vc/credentials/${held.id}`).expect(404)
    await call(owner.token).get('/v1/cloud-wallet/oid4vc/credentials').expect(404)
    await wallet.delete(`/v1/cloud-wallet/oid4vc/credentials/${held.id}`).expect(200)
    expect((await wallet.get('/v1/cloud-wallet/oid4vc/credentials').expect(200)).body.data).toEqual([])
    await wallet.delete(`/v1/cloud-wallet/oid4vc/credentials/${held.id}`).expect(404)
  })
})
