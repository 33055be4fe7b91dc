import { validate } from '@readme/openapi-parser'
import request from 'supertest'
import { ConfigError } from '@idplane/common'
import { loadConfig } from '../../api/src/infra/config'
import { configSectionsOf } from '../../api/src/infra/module-registry'
import { API_MODULES } from '../../api/src/modules'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

/** Every OpenID4VC and x509 route of the API (issue 29), as the OpenAPI document spells them. */
const OIDC_ROUTES = [
  'post /v1/x509/{orgId}',
  'post /v1/x509/{orgId}/import',
  'get /v1/x509/{orgId}',
  'post /v1/x509/{orgId}/trust-anchors',
  'get /v1/x509/{orgId}/trust-anchors',
  'delete /v1/x509/{orgId}/trust-anchors/{trustAnchorId}',
  'get /v1/x509/{orgId}/{id}',
  'put /v1/x509/{orgId}/activate/{id}',
  'put /v1/x509/{orgId}/deactivate/{id}',
  'post /v1/orgs/{orgId}/oid4vc/issuers',
  'get /v1/orgs/{orgId}/oid4vc/issuers',
  'get /v1/orgs/{orgId}/oid4vc/issuers/{issuerId}',
  'post /v1/orgs/{orgId}/oid4vc/issuers/{issuerId}',
  'delete /v1/orgs/{orgId}/oid4vc/issuers/{issuerId}',
  'post /v1/orgs/{orgId}/oid4vc/{issuerId}/template',
  'get /v1/orgs/{orgId}/oid4vc/{issuerId}/template',
  'get /v1/orgs/{orgId}/oid4vc/{issuerId}/template/{templateId}',
  'patch /v1/orgs/{orgId}/oid4vc/{issuerId}/template/{templateId}',
  'delete /v1/orgs/{orgId}/oid4vc/{issuerId}/template/{templateId}',
  'post /v1/orgs/{orgId}/oid4vc/{issuerId}/create-offer',
  'get /v1/orgs/{orgId}/oid4vc/credential-offer',
  'get /v1/orgs/{orgId}/oid4vc/credential-offer/{id}',
  'delete /v1/orgs/{orgId}/oid4vc/{credentialId}/delete-offer',
  'post /v1/orgs/{orgId}/oid4vp/verifier',
  'get /v1/orgs/{orgId}/oid4vp/verifier',
  'delete /v1/orgs/{orgId}/oid4vp/verifier',
  'put /v1/orgs/{orgId}/oid4vp/verifier/{verifierId}',
  'post /v1/orgs/{orgId}/oid4vp/presentation',
  'get /v1/orgs/{orgId}/oid4vp/verifier-presentation',
  'post /v1/orgs/{orgId}/oid4vp/verification-template',
  'get /v1/orgs/{orgId}/oid4vp/verification-template',
  'put /v1/orgs/{orgId}/oid4vp/verification-template/{templateId}',
  'delete /v1/orgs/{orgId}/oid4vp/verification-template/{templateId}',
  // The cloud wallet as a holder (issue 29 item 5).
  'post /v1/cloud-wallet/oid4vc/offers/resolve',
  'post /v1/cloud-wallet/oid4vc/offers/accept',
  'get /v1/cloud-wallet/oid4vc/credentials',
  'delete /v1/cloud-wallet/oid4vc/credentials/{credentialId}',
  'post /v1/cloud-wallet/oid4vp/requests/resolve',
  'post /v1/cloud-wallet/oid4vp/requests/accept',
  'post /v1/cloud-wallet/oid4vc/trust-anchors',
  'get /v1/cloud-wallet/oid4vc/trust-anchors',
  'delete /v1/cloud-wallet/oid4vc/trust-anchors/{trustAnchorId}',
].sort()

type Paths = Record<string, Record<string, unknown>>

function oidcRoutesOf(paths: Paths): string[] {
  return Object.entries(paths)
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
    .filter((route) => /\/(x509|oid4vc|oid4vp)(\/|$)/.test(route))
    .sort()
}

/** Issue 29, item 1: HIDE_EXPERIMENTAL_OIDC_CONTROLLERS decides whether the routes are served and documented. */
describe('the OpenID4VC and x509 routes behind HIDE_EXPERIMENTAL_OIDC_CONTROLLERS', () => {
  let hidden: TestApi
  let served: TestApi

  beforeAll(async () => {
    ;[hidden, served] = await Promise.all([startApi(), startApi({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'false' })])
  })

  afterAll(async () => {
    await Promise.all([hidden?.stop(), served?.stop()])
  })

  it('are neither served nor documented by default', async () => {
    const user = await aUserWithToken(hidden)
    const orgId = await anOrganizationWith(hidden, [{ user, roles: ['owner'] }])
    for (const path of [
      `/v1/x509/${orgId}`,
      `/v1/orgs/${orgId}/oid4vc/issuers`,
      `/v1/orgs/${orgId}/oid4vp/verifier`,
      '/v1/cloud-wallet/oid4vc/credentials',
    ]) {
      const res = await request(hidden.app).get(path).set('Authorization', `Bearer ${user.token}`)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(res.body.message).toMatch(/^Cannot GET/)
    }
    const doc = await request(hidden.app).get('/api-json').expect(200)
    expect(oidcRoutesOf(doc.body.paths as Paths)).toEqual([])
    const tags = ((doc.body.tags ?? []) as { name: string }[]).map((tag) => tag.name)
    expect(tags).not.toContain('x509')
  })

  it('are all served and documented with the flag false, in a document that validates', async () => {
    const doc = (await request(served.app).get('/api-json').expect(200)).body as { paths: Paths }
    expect(oidcRoutesOf(doc.paths)).toEqual(OIDC_ROUTES)
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0])
    expect(result.valid ? [] : result.errors).toEqual([])
  })

  describe('with the flag false', () => {
    let owner: TestUser
    let orgId: string
    const get = (path: string) => request(served.app).get(path).set('Authorization', `Bearer ${owner.token}`)
    const post = (path: string, body: object) =>
      request(served.app).post(path).set('Authorization', `Bearer ${owner.token}`).send(body)

    beforeAll(async () => {
      owner = await aUserWithToken(served)
      orgId = await anOrganizationWith(served, [{ user: owner, roles: ['owner'] }])
    })

    it('takes the documented query filters (not a 400) and reaches the agent lookup', async () => {
      for (const path of [
        `/v1/x509/${orgId}?purpose=issuance`,
        `/v1/x509/${orgId}?purpose=verification&status=active`,
        `/v1/orgs/${orgId}/oid4vc/credential-offer?state=Completed`,
        `/v1/orgs/${orgId}/oid4vp/verifier-presentation?state=ResponseVerified`,
      ]) {
        const res = await get(path)
        expect({ path, status: res.status, message: res.body.message }).toEqual({
          path,
          status: 404,
          message: 'This organization has no agent',
        })
      }
    })

    it('refuses malformed input with a 400 by field before any agent call', async () => {
      const badPurpose = await get(`/v1/x509/${orgId}?purpose=signing`).expect(400)
      expect(badPurpose.body.errors).toEqual([expect.objectContaining({ field: 'purpose' })])
      await get(`/v1/x509/${orgId}?unknown=1`).expect(400)
      await get(`/v1/x509/${orgId}/not-a-uuid`).expect(400)
      const noKey = await post(`/v1/x509/${orgId}`, { purpose: 'issuance', subject: { commonName: 'Acme' } }).expect(
        400,
      )
      expect(noKey.body.errors).toEqual([expect.objectContaining({ field: 'keyType' })])
      await post(`/v1/x509/${orgId}`, { keyType: 'P-256', purpose: 'issuance', subject: { cn: 'Acme' } }).expect(400)
      await post(`/v1/orgs/${orgId}/oid4vc/issuers`, { issuerId: 'has space' }).expect(400)
      await post(`/v1/orgs/${orgId}/oid4vc/issuers`, { issuerId: 'issuers' }).expect(400)
      const noCredentials = await post(`/v1/orgs/${orgId}/oid4vc/some-issuer/create-offer`, { credentials: [] })
      expect(noCredentials.status).toBe(400)
      await post(`/v1/orgs/${orgId}/oid4vp/presentation`, { query: { type: 'dcql', dcql: {} } }).expect(400)
      await request(served.app)
        .delete(`/v1/orgs/${orgId}/oid4vp/verifier`)
        .set('Authorization', `Bearer ${owner.token}`)
        .expect(400)
    })

    it("refuses malformed wallet input with a 400 by field, and answers 404 before the caller's wallet exists", async () => {
      const noUri = await post('/v1/cloud-wallet/oid4vc/offers/resolve', {}).expect(400)
      expect(noUri.body.errors).toContainEqual(expect.objectContaining({ field: 'offerUri' }))
      await post('/v1/cloud-wallet/oid4vc/offers/accept', {
        offerUri: 'openid-credential-offer://x',
        batchSize: 0,
      }).expect(400)
      await post('/v1/cloud-wallet/oid4vp/requests/accept', { requestId: 'not-a-uuid' }).expect(400)
      await request(served.app)
        .delete('/v1/cloud-wallet/oid4vc/credentials/not-a-uuid')
        .set('Authorization', `Bearer ${owner.token}`)
        .expect(400)
      // No base wallet is configured here: 409 (the wallet routes' answer), never a 500.
      const res = await get('/v1/cloud-wallet/oid4vc/credentials')
      expect([404, 409]).toContain(res.status)
    })
  })

  it('refuses a flag value that is not a boolean at start-up, naming the variable', () => {
    expect(() => loadConfig({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'maybe' }, configSectionsOf(API_MODULES))).toThrow(
      ConfigError,
    )
    expect(() => loadConfig({ HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'maybe' }, configSectionsOf(API_MODULES))).toThrow(
      /HIDE_EXPERIMENTAL_OIDC_CONTROLLERS/,
    )
  })
})
