import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { ECOSYSTEM_ROUTES, anEcosystemBody, ecosystemClient } from '../helpers/ecosystem-fixtures'
import { aMember, anOrganization, type TestUser } from '../helpers/org-fixtures'
import { aUserWithToken } from '../helpers/tokens'

jest.setTimeout(120_000)

type Actor = 'lead' | 'member' | 'platformAdmin' | 'outsider' | 'noToken'
const ACTORS: readonly Actor[] = ['lead', 'member', 'platformAdmin', 'outsider', 'noToken']

interface Call {
  method: (typeof ECOSYSTEM_ROUTES)[number]['method']
  path: string
  query?: Record<string, string>
  body?: Record<string, unknown>
}

interface Row {
  /** The route template (as ECOSYSTEM_ROUTES lists it) and what the call does. */
  route: `${Call['method']} ${string}`
  what: string
  /** Builds the call; called once per actor, so rows that change state get fresh records. */
  call: () => Promise<Call>
  /** The status each actor gets; no token is always 401. */
  expected: Record<Exclude<Actor, 'noToken'>, number>
}

/**
 * The ecosystem roles of spec/platform-api.md route by route: the owner of the lead organization
 * (ECOSYSTEM_LEAD), the owner of an accepted member organization (ECOSYSTEM_MEMBER), a platform admin
 * (PLATFORM_ADMIN_EMAILS), an owner of an unrelated organization, and no token.
 */
describe('ecosystem authorization matrix', () => {
  let api: TestApi
  const platformAdminEmail = `platform-admin-${randomUUID().slice(0, 8)}@example.test`
  const users = {} as Record<Exclude<Actor, 'noToken'>, TestUser>
  let leadOrgId: string
  let memberOrgId: string
  let ecosystemId: string

  const as = (user: TestUser) => ecosystemClient(api, user.token)

  /** An organization of a new owner, invited into the ecosystem; accepted unless `pending`. */
  async function anOrganizationInTheEcosystem(options: { owner?: TestUser; pending?: boolean } = {}) {
    const owner = options.owner ?? (await aMember(api))
    const org = await anOrganization(api, owner.token)
    await as(users.lead).invite(ecosystemId, org.id).expect(201)
    if (!options.pending) await as(owner).answer(ecosystemId, org.id, 'accepted').expect(200)
    return org.id
  }

  beforeAll(async () => {
    api = await startApi({ ECOSYSTEM_ENABLED: 'true', PLATFORM_ADMIN_EMAILS: platformAdminEmail })
    users.lead = await aMember(api)
    users.member = await aMember(api)
    users.platformAdmin = await aUserWithToken(api, platformAdminEmail)
    users.outsider = await aMember(api)
    leadOrgId = (await anOrganization(api, users.lead.token)).id
    await anOrganization(api, users.outsider.token)
    ecosystemId = (await as(users.lead).create(leadOrgId).expect(201)).body.data.id
    memberOrgId = await anOrganizationInTheEcosystem({ owner: users.member })
  })

  afterAll(async () => {
    await api?.stop()
  })

  const ROWS: Row[] = [
    {
      route: 'post /v1/ecosystem',
      what: 'create an ecosystem led by the lead organization',
      call: async () => ({
        method: 'post',
        path: '/v1/ecosystem',
        query: { orgId: leadOrgId },
        body: anEcosystemBody(),
      }),
      expected: { lead: 201, member: 403, platformAdmin: 403, outsider: 403 },
    },
    {
      route: 'get /v1/ecosystem',
      what: "list the lead organization's ecosystems",
      call: async () => ({ method: 'get', path: '/v1/ecosystem', query: { orgId: leadOrgId } }),
      expected: { lead: 200, member: 403, platformAdmin: 200, outsider: 403 },
    },
    {
      route: 'get /v1/ecosystem',
      what: "list the member organization's ecosystems",
      call: async () => ({ method: 'get', path: '/v1/ecosystem', query: { orgId: memberOrgId } }),
      expected: { lead: 403, member: 200, platformAdmin: 200, outsider: 403 },
    },
    {
      route: 'get /v1/ecosystem/:ecosystemId/org/:orgId',
      what: 'dashboard of the lead organization',
      call: async () => ({ method: 'get', path: `/v1/ecosystem/${ecosystemId}/org/${leadOrgId}` }),
      expected: { lead: 200, member: 403, platformAdmin: 200, outsider: 403 },
    },
    {
      route: 'get /v1/ecosystem/:ecosystemId/org/:orgId',
      what: 'dashboard of the member organization',
      call: async () => ({ method: 'get', path: `/v1/ecosystem/${ecosystemId}/org/${memberOrgId}` }),
      expected: { lead: 403, member: 200, platformAdmin: 200, outsider: 403 },
    },
    {
      route: 'post /v1/ecosystem/invitation',
      what: 'invite a new organization',
      call: async () => {
        const invitee = await anOrganization(api, (await aMember(api)).token)
        return { method: 'post', path: '/v1/ecosystem/invitation', body: { ecosystemId, orgId: invitee.id } }
      },
      expected: { lead: 201, member: 403, platformAdmin: 403, outsider: 403 },
    },
    {
      route: 'put /v1/ecosystem/invitation/status',
      what: "accept an invitation of an organization the member's owner also owns",
      call: async () => {
        const orgId = await anOrganizationInTheEcosystem({ owner: users.member, pending: true })
        return {
          method: 'put',
          path: '/v1/ecosystem/invitation/status',
          query: { status: 'accepted' },
          body: { ecosystemId, orgId },
        }
      },
      expected: { lead: 403, member: 200, platformAdmin: 403, outsider: 403 },
    },
    {
      route: 'get /v1/ecosystem/invitations',
      what: 'invitations sent, as ECOSYSTEM_LEAD',
      call: async () => ({
        method: 'get',
        path: '/v1/ecosystem/invitations',
        query: { orgId: leadOrgId, role: 'ECOSYSTEM_LEAD', ecosystemId },
      }),
      expected: { lead: 200, member: 403, platformAdmin: 403, outsider: 403 },
    },
    {
      route: 'get /v1/ecosystem/invitations',
      what: 'invitations received, as ECOSYSTEM_MEMBER',
      call: async () => ({
        method: 'get',
        path: '/v1/ecosystem/invitations',
        query: { orgId: memberOrgId, role: 'ECOSYSTEM_MEMBER' },
      }),
      expected: { lead: 403, member: 200, platformAdmin: 403, outsider: 403 },
    },
    {
      route: 'get /v1/ecosystem/invitation/status',
      what: "the caller's own invitations of one status",
      call: async () => ({ method: 'get', path: '/v1/ecosystem/invitation/status', query: { status: 'accepted' } }),
      expected: { lead: 200, member: 200, platformAdmin: 200, outsider: 200 },
    },
    {
      route: 'get /v1/ecosystem/members',
      what: 'members of the ecosystem',
      call: async () => ({ method: 'get', path: '/v1/ecosystem/members', query: { ecosystemId } }),
      expected: { lead: 200, member: 403, platformAdmin: 403, outsider: 403 },
    },
    {
      route: 'delete /v1/ecosystem/member',
      what: 'remove a member',
      call: async () => ({
        method: 'delete',
        path: '/v1/ecosystem/member',
        body: { ecosystemId, orgIds: [await anOrganizationInTheEcosystem()] },
      }),
      expected: { lead: 200, member: 403, platformAdmin: 403, outsider: 403 },
    },
    {
      route: 'put /v1/ecosystem/member/status',
      what: "set a member's status",
      call: async () => ({
        method: 'put',
        path: '/v1/ecosystem/member/status',
        query: { status: 'REJECTED' },
        body: { ecosystemId, orgIds: [await anOrganizationInTheEcosystem()] },
      }),
      expected: { lead: 200, member: 403, platformAdmin: 403, outsider: 403 },
    },
  ]

  it('has a row for every ecosystem route', () => {
    const covered = new Set<string>(ROWS.map((row) => row.route))
    expect(ECOSYSTEM_ROUTES.map((route) => `${route.method} ${route.path}`).filter((r) => !covered.has(r))).toEqual([])
  })

  describe.each(ROWS)('$route: $what', (row) => {
    it.each(ACTORS)('as %s', async (actor) => {
      const call = await row.call()
      const agent = request(api.app)
      let req = agent[call.method](call.path).query(call.query ?? {})
      if (actor !== 'noToken') req = req.set('Authorization', `Bearer ${users[actor].token}`)
      const res = call.body === undefined ? await req : await req.send(call.body)
      const expected = actor === 'noToken' ? 401 : row.expected[actor]
      expect({ actor, status: res.status, message: res.body?.message }).toEqual({
        actor,
        status: expected,
        message: expect.any(String),
      })
    })
  })

  it("shows an unrelated owner none of the ecosystem's invitations", async () => {
    for (const status of ['accepted', 'pending', 'rejected']) {
      const res = await as(users.outsider).invitationsWithStatus({ status }).expect(200)
      expect(res.body.data.totalItems).toBe(0)
    }
  })
})
