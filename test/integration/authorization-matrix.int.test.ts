import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { ORG_ROLE_NAMES, type OrgRoleName } from '../../api/src/modules/memberships/org-role.entity'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, expiredToken, foreignKeyToken, type TestUser } from '../helpers/tokens'

/**
 * `ecosystem`: the ecosystem roles (lead, member, platform admin) decide, not the caller's role in `:orgId`;
 * ecosystems-authorization.int.test.ts has their matrix. Here: 401 without a valid token, never 5xx.
 * `agent`: only an agent's event token is accepted (ledger NYM requests); every user token is a 401.
 */
type Access = 'public' | 'authenticated' | 'ecosystem' | 'agent' | readonly OrgRoleName[]

interface Endpoint {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  path: string
  access: Access
}

const ANY_MEMBER = ['owner', 'admin', 'issuer', 'verifier', 'member'] as const
const EVERY_ROLE = ORG_ROLE_NAMES

/** The roles of spec/platform-api.md, endpoint by endpoint. Every route the API serves must be listed. */
const ENDPOINTS: Endpoint[] = [
  { method: 'post', path: '/v1/auth/verification-mail', access: 'public' },
  { method: 'get', path: '/v1/auth/verify', access: 'public' },
  { method: 'post', path: '/v1/auth/signup', access: 'public' },
  { method: 'post', path: '/v1/auth/signin', access: 'public' },
  { method: 'post', path: '/v1/auth/refresh-token', access: 'public' },
  { method: 'get', path: '/v1/auth/clientAliases', access: 'public' },
  // Browser sessions of the web console (issue 26): the cookie is the credential.
  { method: 'post', path: '/v1/auth/session', access: 'public' },
  { method: 'post', path: '/v1/auth/session/refresh', access: 'public' },
  { method: 'delete', path: '/v1/auth/session', access: 'public' },
  { method: 'get', path: '/v1/users/invitations', access: 'authenticated' },
  { method: 'put', path: '/v1/users/invitations/:invitationId', access: 'authenticated' },
  { method: 'post', path: '/v1/orgs', access: 'authenticated' },
  { method: 'get', path: '/v1/orgs', access: 'authenticated' },
  { method: 'get', path: '/v1/orgs/public-profile', access: 'public' },
  { method: 'get', path: '/v1/orgs/public-profiles/:orgSlug', access: 'public' },
  { method: 'post', path: '/v1/orgs/:clientId/token', access: 'public' },
  { method: 'get', path: '/v1/orgs/:orgId', access: ANY_MEMBER },
  { method: 'put', path: '/v1/orgs/:orgId', access: ['owner', 'admin'] },
  { method: 'delete', path: '/v1/orgs/:orgId', access: ['owner'] },
  { method: 'get', path: '/v1/orgs/:orgId/dids', access: ['owner', 'admin', 'issuer', 'member'] },
  { method: 'put', path: '/v1/orgs/:orgId/primary-did', access: ANY_MEMBER },
  { method: 'get', path: '/v1/orgs/:orgId/roles', access: ['owner', 'admin'] },
  { method: 'post', path: '/v1/orgs/:orgId/client_credentials', access: ['owner'] },
  { method: 'get', path: '/v1/orgs/:orgId/client_credentials', access: ANY_MEMBER },
  { method: 'get', path: '/v1/orgs/:orgId/users', access: [...ANY_MEMBER, 'holder'] },
  { method: 'get', path: '/v1/orgs/dashboard/:orgId', access: ANY_MEMBER },
  { method: 'get', path: '/v1/orgs/activity-count/:orgId', access: ['owner'] },
  { method: 'post', path: '/v1/orgs/:orgId/invitations', access: ['owner', 'super_admin', 'admin'] },
  {
    method: 'get',
    path: '/v1/orgs/:orgId/invitations',
    access: ['owner', 'super_admin', 'admin', 'issuer', 'verifier', 'member'],
  },
  { method: 'delete', path: '/v1/orgs/:orgId/invitations/:invitationId', access: ['owner', 'admin'] },
  { method: 'put', path: '/v1/orgs/:orgId/user-roles/:userId', access: ['owner', 'admin'] },
  { method: 'post', path: '/v1/orgs/:orgId/agents/spinup', access: ['owner', 'admin'] },
  { method: 'get', path: '/v1/orgs/:orgId/agents/health', access: ANY_MEMBER },
  { method: 'get', path: '/v1/orgs/:orgId/connections', access: ANY_MEMBER },
  { method: 'get', path: '/v1/orgs/:orgId/connections/:connectionId', access: ANY_MEMBER },
  { method: 'post', path: '/v1/orgs/:orgId/connections', access: ANY_MEMBER },
  { method: 'post', path: '/v1/orgs/:orgId/connections/:connectionId/accept', access: ANY_MEMBER },
  { method: 'post', path: '/v1/orgs/:orgId/receive-invitation-url', access: ['owner', 'admin'] },
  { method: 'post', path: '/v1/orgs/:orgId/receive-invitation', access: ['owner', 'admin'] },
  { method: 'delete', path: '/v1/orgs/:orgId/connections', access: ['owner'] },
  { method: 'post', path: '/v1/orgs/:orgId/question-answer/question/:connectionId', access: EVERY_ROLE },
  { method: 'get', path: '/v1/orgs/:orgId/question-answer/question', access: EVERY_ROLE },
  { method: 'post', path: '/v1/orgs/:orgId/question-answer/answer/:questionAnswerId', access: EVERY_ROLE },
  { method: 'post', path: '/v1/orgs/:orgId/basic-message/:connectionId', access: EVERY_ROLE },
  { method: 'get', path: '/v1/orgs/:orgId/basic-message/:connectionId', access: EVERY_ROLE },
  { method: 'post', path: '/v1/orgs/:orgId/schemas', access: ['owner', 'admin'] },
  { method: 'get', path: '/v1/orgs/:orgId/schemas', access: ANY_MEMBER },
  { method: 'get', path: '/v1/orgs/:orgId/schemas/:schemaId', access: ANY_MEMBER },
  { method: 'get', path: '/v1/orgs/:orgId/schemas/:schemaId/cred-defs', access: ANY_MEMBER },
  { method: 'post', path: '/v1/orgs/:orgId/cred-defs', access: ['owner', 'admin'] },
  { method: 'get', path: '/v1/orgs/:orgId/cred-defs', access: ANY_MEMBER },
  { method: 'get', path: '/v1/orgs/:orgId/cred-defs/:credDefId', access: ANY_MEMBER },
  { method: 'post', path: '/v1/ecosystem', access: 'ecosystem' },
  { method: 'get', path: '/v1/ecosystem', access: 'ecosystem' },
  { method: 'get', path: '/v1/ecosystem/:ecosystemId/org/:orgId', access: 'ecosystem' },
  { method: 'post', path: '/v1/ecosystem/invitation', access: 'ecosystem' },
  { method: 'put', path: '/v1/ecosystem/invitation/status', access: 'ecosystem' },
  { method: 'get', path: '/v1/ecosystem/invitations', access: 'ecosystem' },
  { method: 'get', path: '/v1/ecosystem/invitation/status', access: 'ecosystem' },
  { method: 'get', path: '/v1/ecosystem/members', access: 'ecosystem' },
  { method: 'delete', path: '/v1/ecosystem/member', access: 'ecosystem' },
  { method: 'put', path: '/v1/ecosystem/member/status', access: 'ecosystem' },
  { method: 'post', path: '/v1/orgs/:orgId/proofs', access: ['owner', 'admin', 'verifier'] },
  { method: 'post', path: '/v2/orgs/:orgId/proofs', access: ['owner', 'admin', 'verifier'] },
  { method: 'post', path: '/v1/orgs/:orgId/proofs/oob', access: ['owner', 'admin', 'verifier'] },
  { method: 'post', path: '/v1/orgs/:orgId/proofs/:proofId/verify', access: ['owner', 'admin', 'verifier'] },
  { method: 'get', path: '/v1/orgs/:orgId/proofs', access: [...ANY_MEMBER, 'holder'] },
  { method: 'get', path: '/v1/orgs/:orgId/proofs/:proofId', access: [...ANY_MEMBER, 'holder'] },
  { method: 'get', path: '/v1/orgs/:orgId/verified-proofs/:proofId', access: [...ANY_MEMBER, 'holder'] },
  { method: 'delete', path: '/v1/orgs/:orgId/verification-records', access: ['owner'] },
  { method: 'post', path: '/v1/orgs/:orgId/credentials/offer', access: ['owner', 'admin', 'issuer'] },
  { method: 'post', path: '/v1/orgs/:orgId/credentials/oob/offer', access: ['owner', 'admin', 'issuer'] },
  { method: 'post', path: '/v1/orgs/:orgId/credentials/oob/email', access: ['owner', 'admin', 'issuer'] },
  { method: 'get', path: '/v1/orgs/:orgId/credentials', access: [...ANY_MEMBER, 'holder'] },
  { method: 'get', path: '/v1/orgs/:orgId/credentials/:credentialRecordId', access: [...ANY_MEMBER, 'holder'] },
  {
    method: 'post',
    path: '/v1/orgs/:orgId/credentials/:credentialRecordId/revoke',
    access: ['owner', 'admin', 'issuer'],
  },
  { method: 'post', path: '/v1/orgs/:orgId/revocations/publish', access: ['owner', 'admin', 'issuer'] },
  { method: 'delete', path: '/v1/orgs/:orgId/issuance-records', access: ['owner'] },
  { method: 'post', path: '/v1/webhooks/orgs/:orgId/register', access: ['owner', 'admin'] },
  // The organization comes in the query here (or a tenantId, which only its wallet's user may read).
  {
    method: 'get',
    path: '/v1/webhooks/orgs/webhookurl?orgId=:orgId',
    access: ['owner', 'admin', 'issuer', 'verifier'],
  },
  { method: 'patch', path: '/v1/webhooks/orgs/:orgId', access: ['owner', 'admin'] },
  { method: 'get', path: '/v1/webhooks/orgs/:orgId/deliveries', access: ['owner', 'admin'] },
  { method: 'post', path: '/v1/webhooks/orgs/:orgId/deliveries/:deliveryId/replay', access: ['owner', 'admin'] },
  { method: 'post', path: '/v1/webhooks/orgs/:orgId/ping', access: ['owner', 'admin'] },
  {
    method: 'get',
    path: '/v1/orgs/:orgId/credentials/bulk/template',
    access: ['owner', 'admin', 'issuer', 'verifier'],
  },
  {
    method: 'post',
    path: '/v1/orgs/:orgId/credentials/bulk/template',
    access: ['owner', 'admin', 'issuer', 'verifier'],
  },
  { method: 'post', path: '/v1/orgs/:orgId/bulk/upload', access: ['owner', 'admin', 'issuer', 'verifier'] },
  { method: 'post', path: '/v1/orgs/:orgId/:requestId/bulk', access: ['owner', 'admin', 'issuer', 'verifier'] },
  { method: 'get', path: '/v1/orgs/:orgId/bulk/:requestId', access: ['owner', 'admin', 'issuer', 'verifier'] },
  // Cloud wallet: any signed-in user for their own wallet; configure-base-wallet checks platform admin in its service.
  { method: 'post', path: '/v1/configure/base-wallet', access: 'authenticated' },
  { method: 'post', path: '/v1/create-wallet', access: 'authenticated' },
  { method: 'post', path: '/v1/connections/invitation', access: 'authenticated' },
  { method: 'get', path: '/v1/connections', access: 'authenticated' },
  { method: 'get', path: '/v1/connection/:connectionId', access: 'authenticated' },
  { method: 'post', path: '/v1/receive-invitation-url', access: 'authenticated' },
  { method: 'get', path: '/v1/credential', access: 'authenticated' },
  { method: 'get', path: '/v1/credential/:credentialRecordId', access: 'authenticated' },
  { method: 'get', path: '/v1/credential/:credentialRecordId/format-data', access: 'authenticated' },
  { method: 'post', path: '/v1/accept-offer', access: 'authenticated' },
  { method: 'get', path: '/v1/proofs', access: 'authenticated' },
  { method: 'get', path: '/v1/proofs/:proofRecordId', access: 'authenticated' },
  { method: 'get', path: '/v1/proofs/:proofRecordId/format-data', access: 'authenticated' },
  { method: 'post', path: '/v1/proofs/accept-request', access: 'authenticated' },
  { method: 'post', path: '/v1/did', access: 'authenticated' },
  { method: 'get', path: '/v1/did', access: 'authenticated' },
  { method: 'post', path: '/v1/basic-message/:connectionId', access: 'authenticated' },
  { method: 'get', path: '/v1/basic-message/:connectionId', access: 'authenticated' },
  // The caller's own wallet webhook (issue 11 item 4); read back with GET /v1/webhooks/orgs/webhookurl?tenantId=.
  { method: 'post', path: '/v1/webhooks/wallet/register', access: 'authenticated' },
  { method: 'patch', path: '/v1/webhooks/wallet', access: 'authenticated' },
  // The cloud wallet as an OpenID4VC holder (issue 29 item 5), served with HIDE_EXPERIMENTAL_OIDC_CONTROLLERS=false.
  { method: 'post', path: '/v1/cloud-wallet/oid4vc/offers/resolve', access: 'authenticated' },
  { method: 'post', path: '/v1/cloud-wallet/oid4vc/offers/accept', access: 'authenticated' },
  { method: 'get', path: '/v1/cloud-wallet/oid4vc/credentials', access: 'authenticated' },
  { method: 'delete', path: '/v1/cloud-wallet/oid4vc/credentials/:credentialId', access: 'authenticated' },
  { method: 'post', path: '/v1/cloud-wallet/oid4vp/requests/resolve', access: 'authenticated' },
  { method: 'post', path: '/v1/cloud-wallet/oid4vp/requests/accept', access: 'authenticated' },
  { method: 'post', path: '/v1/cloud-wallet/oid4vc/trust-anchors', access: 'authenticated' },
  { method: 'get', path: '/v1/cloud-wallet/oid4vc/trust-anchors', access: 'authenticated' },
  { method: 'delete', path: '/v1/cloud-wallet/oid4vc/trust-anchors/:trustAnchorId', access: 'authenticated' },
  // The platform ledger (issue 13): public reads and signed writes (the signature authorizes), NYMs by agents.
  { method: 'get', path: '/v1/ledger', access: 'public' },
  { method: 'post', path: '/v1/ledger/nyms', access: 'agent' },
  { method: 'post', path: '/v1/ledger/transactions', access: 'public' },
  { method: 'get', path: '/v1/ledger/transactions', access: 'public' },
  { method: 'get', path: '/v1/ledger/transactions/:seqNo', access: 'public' },
  { method: 'get', path: '/v1/ledger/verify', access: 'public' },
  { method: 'get', path: '/v1/ledger/schemas/:schema', access: 'public' },
  { method: 'get', path: '/v1/ledger/cred-defs/:credDef', access: 'public' },
  // Revocation on the ledger (issue 25): public reads; tails files uploaded by agents, served to anyone.
  { method: 'get', path: '/v1/ledger/rev-reg-defs/:revRegDef', access: 'public' },
  { method: 'get', path: '/v1/ledger/rev-reg-defs/:revRegDef/status-list', access: 'public' },
  { method: 'post', path: '/v1/tails-files', access: 'agent' },
  { method: 'get', path: '/v1/tails-files/:tailsHash', access: 'public' },
  // W3C Bitstring Status Lists (issue 25 item 4): verifiers fetch them without a token.
  { method: 'get', path: '/v1/status-lists/:statusListId', access: 'public' },
  { method: 'get', path: '/v1/ledger/dids/:did', access: 'public' },
  // Issue 23: what a DID's next signed write must be bound to.
  { method: 'get', path: '/v1/ledger/dids/:did/state', access: 'public' },
  // OpenID4VC and x509 (issue 29), served with HIDE_EXPERIMENTAL_OIDC_CONTROLLERS=false: certificates are managed
  // by owner and admin; issuance routes take the DIDComm issuance roles, verification routes the proof roles.
  { method: 'post', path: '/v1/x509/:orgId', access: ['owner', 'admin'] },
  { method: 'post', path: '/v1/x509/:orgId/import', access: ['owner', 'admin'] },
  { method: 'get', path: '/v1/x509/:orgId', access: ANY_MEMBER },
  { method: 'post', path: '/v1/x509/:orgId/trust-anchors', access: ['owner', 'admin'] },
  { method: 'get', path: '/v1/x509/:orgId/trust-anchors', access: ANY_MEMBER },
  { method: 'delete', path: '/v1/x509/:orgId/trust-anchors/:trustAnchorId', access: ['owner', 'admin'] },
  { method: 'get', path: '/v1/x509/:orgId/:id', access: ANY_MEMBER },
  { method: 'put', path: '/v1/x509/:orgId/activate/:id', access: ['owner', 'admin'] },
  { method: 'put', path: '/v1/x509/:orgId/deactivate/:id', access: ['owner', 'admin'] },
  { method: 'post', path: '/v1/orgs/:orgId/oid4vc/issuers', access: ['owner', 'admin', 'issuer'] },
  { method: 'get', path: '/v1/orgs/:orgId/oid4vc/issuers', access: [...ANY_MEMBER, 'holder'] },
  { method: 'get', path: '/v1/orgs/:orgId/oid4vc/issuers/:issuerId', access: [...ANY_MEMBER, 'holder'] },
  { method: 'post', path: '/v1/orgs/:orgId/oid4vc/issuers/:issuerId', access: ['owner', 'admin', 'issuer'] },
  { method: 'delete', path: '/v1/orgs/:orgId/oid4vc/issuers/:issuerId', access: ['owner', 'admin', 'issuer'] },
  { method: 'post', path: '/v1/orgs/:orgId/oid4vc/:issuerId/template', access: ['owner', 'admin', 'issuer'] },
  { method: 'get', path: '/v1/orgs/:orgId/oid4vc/:issuerId/template', access: [...ANY_MEMBER, 'holder'] },
  {
    method: 'get',
    path: '/v1/orgs/:orgId/oid4vc/:issuerId/template/:templateId',
    access: [...ANY_MEMBER, 'holder'],
  },
  {
    method: 'patch',
    path: '/v1/orgs/:orgId/oid4vc/:issuerId/template/:templateId',
    access: ['owner', 'admin', 'issuer'],
  },
  {
    method: 'delete',
    path: '/v1/orgs/:orgId/oid4vc/:issuerId/template/:templateId',
    access: ['owner', 'admin', 'issuer'],
  },
  { method: 'post', path: '/v1/orgs/:orgId/oid4vc/:issuerId/create-offer', access: ['owner', 'admin', 'issuer'] },
  { method: 'get', path: '/v1/orgs/:orgId/oid4vc/credential-offer', access: [...ANY_MEMBER, 'holder'] },
  { method: 'get', path: '/v1/orgs/:orgId/oid4vc/credential-offer/:id', access: [...ANY_MEMBER, 'holder'] },
  {
    method: 'delete',
    path: '/v1/orgs/:orgId/oid4vc/:credentialId/delete-offer',
    access: ['owner', 'admin', 'issuer'],
  },
  { method: 'post', path: '/v1/orgs/:orgId/oid4vp/verifier', access: ['owner', 'admin', 'verifier'] },
  { method: 'get', path: '/v1/orgs/:orgId/oid4vp/verifier', access: [...ANY_MEMBER, 'holder'] },
  {
    method: 'delete',
    path: '/v1/orgs/:orgId/oid4vp/verifier?verifierId=front-desk',
    access: ['owner', 'admin', 'verifier'],
  },
  { method: 'put', path: '/v1/orgs/:orgId/oid4vp/verifier/:verifierId', access: ['owner', 'admin', 'verifier'] },
  { method: 'post', path: '/v1/orgs/:orgId/oid4vp/presentation', access: ['owner', 'admin', 'verifier'] },
  { method: 'get', path: '/v1/orgs/:orgId/oid4vp/verifier-presentation', access: [...ANY_MEMBER, 'holder'] },
  { method: 'post', path: '/v1/orgs/:orgId/oid4vp/verification-template', access: ['owner', 'admin', 'verifier'] },
  { method: 'get', path: '/v1/orgs/:orgId/oid4vp/verification-template', access: [...ANY_MEMBER, 'holder'] },
  {
    method: 'put',
    path: '/v1/orgs/:orgId/oid4vp/verification-template/:templateId',
    access: ['owner', 'admin', 'verifier'],
  },
  {
    method: 'delete',
    path: '/v1/orgs/:orgId/oid4vp/verification-template/:templateId',
    access: ['owner', 'admin', 'verifier'],
  },
]

/** Public routes served outside the OpenAPI document (plain Express routers of modules). */
const OUTSIDE_OPENAPI: Endpoint[] = [{ method: 'get', path: '/schemas/:schemaId', access: 'public' }]

/** Routes outside the business API (probes, explorer) that the matrix does not cover. */
const INFRASTRUCTURE_PATHS = ['/health/live', '/health/ready']

function concretePath(template: string, orgId: string): string {
  return template.replace(':orgId', orgId).replace(/:(\w+)/g, () => randomUUID())
}

function isRouteMissing(res: request.Response): boolean {
  return res.status === 404 && typeof res.body?.message === 'string' && res.body.message.startsWith('Cannot ')
}

describe('authorization matrix', () => {
  let api: TestApi

  beforeAll(async () => {
    // The ecosystem routes answer 403 to everyone while their feature flag is off; the OpenID4VC and x509 routes
    // are not served while theirs hides them.
    api = await startApi({ ECOSYSTEM_ENABLED: 'true', HIDE_EXPERIMENTAL_OIDC_CONTROLLERS: 'false' })
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('covers every route the API serves', async () => {
    const doc = await request(api.app).get('/api-json').expect(200)
    const served = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    )
    const listed = ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path.split('?')[0]}`)
    const infrastructure = INFRASTRUCTURE_PATHS.map((path) => `get ${path}`)
    expect(served.filter((route) => !infrastructure.includes(route)).sort()).toEqual([...listed].sort())
  })

  describe.each(ENDPOINTS.filter((endpoint) => endpoint.access !== 'public'))('$method $path', (endpoint) => {
    const send = (path: string, token?: string) => {
      const req = request(api.app)[endpoint.method](path)
      return token ? req.set('Authorization', `Bearer ${token}`) : req
    }

    it('answers 401 without a token, with an expired token and with a token signed by another key', async () => {
      const user = await aUserWithToken(api)
      const orgId = await anOrganizationWith(api, [{ user, roles: ['owner'] }])
      const path = concretePath(endpoint.path, orgId)
      for (const token of [undefined, expiredToken(api, user), foreignKeyToken(api, user), 'not-a-jwt']) {
        const res = await send(path, token)
        expect({ token: token?.slice(0, 12), status: res.status }).toEqual({ token: token?.slice(0, 12), status: 401 })
        expect(res.body).toEqual(expect.objectContaining({ statusCode: 401, error: 'Unauthorized' }))
      }
    })

    it.each(ORG_ROLE_NAMES)('gives a %s the status the spec allows', async (role) => {
      const user = await aUserWithToken(api)
      const orgId = await anOrganizationWith(api, [{ user, roles: [role] }])
      const res = await send(concretePath(endpoint.path, orgId), user.token)
      expect(isRouteMissing(res)).toBe(false)
      expect(res.status).toBeLessThan(500)
      if (endpoint.access === 'ecosystem') return expect(res.status).not.toBe(401)
      if (endpoint.access === 'agent') return expect(res.status).toBe(401)
      const isAllowed = endpoint.access === 'authenticated' || (endpoint.access as readonly string[]).includes(role)
      if (isAllowed) expect([401, 403]).not.toContain(res.status)
      else expect(res.status).toBe(403)
    })

    if (endpoint.access !== 'authenticated' && endpoint.access !== 'ecosystem' && endpoint.access !== 'agent') {
      it('answers 403 to a member of another organization', async () => {
        const outsider: TestUser = await aUserWithToken(api)
        await anOrganizationWith(api, [{ user: outsider, roles: ['owner'] }])
        const owner = await aUserWithToken(api)
        const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
        const res = await send(concretePath(endpoint.path, orgId), outsider.token)
        expect(res.status).toBe(403)
        expect(res.body).toEqual(expect.objectContaining({ statusCode: 403, error: 'Forbidden' }))
      })
    }
  })

  it.each([...ENDPOINTS, ...OUTSIDE_OPENAPI].filter((endpoint) => endpoint.access === 'public'))(
    'lets $method $path through without a token',
    async (endpoint) => {
      const res = await request(api.app)[endpoint.method](concretePath(endpoint.path, randomUUID()))
      expect(isRouteMissing(res)).toBe(false)
      expect([401, 403]).not.toContain(res.status)
      expect(res.status).toBeLessThan(500)
    },
  )
})
