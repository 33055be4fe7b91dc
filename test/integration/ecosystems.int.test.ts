import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { API_MODULES } from '../../api/src/modules'
import type { OpenAPIObject } from 'openapi3-ts'
import { startApi, type TestApi } from '../helpers/api'
import { openApiAnswerChecker } from '../helpers/openapi-answers'
import {
  ECOSYSTEM_ROUTES,
  EventRecorder,
  anEcosystemBody,
  ecosystemClient,
  eventRecordingModule,
} from '../helpers/ecosystem-fixtures'
import { aMember, anOrganization, grantRoles, type TestUser } from '../helpers/org-fixtures'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'
import { aUserWithToken } from '../helpers/tokens'

// The project's testTimeout is not applied when the file is run on its own; PGlite's first start takes seconds.
jest.setTimeout(90_000)

const recorder = new EventRecorder()
API_MODULES.push(eventRecordingModule(recorder))

interface Membership {
  id: string
  ecosystemId: string
  ecosystemName: string
  orgId: string
  orgName: string
  role: string
  status: string
}

describe('Ecosystems: a lead and three organizations', () => {
  let api: TestApi
  let capture: SmtpCapture
  const platformAdminEmail = `platform-admin-${randomUUID().slice(0, 8)}@example.test`
  let leadOwner: TestUser
  let aliceOwner: TestUser
  let aliceCoOwner: TestUser
  let bobOwner: TestUser
  let carolOwner: TestUser
  let platformAdmin: TestUser
  let lead: { id: string; name: string }
  let alice: { id: string; name: string }
  let bob: { id: string; name: string }
  let carol: { id: string; name: string }
  let ecosystemId: string
  const ecosystemName = `Health ${randomUUID().slice(0, 6)}`

  const as = (user?: TestUser) => ecosystemClient(api, user?.token)

  beforeAll(async () => {
    capture = await startSmtpCapture()
    api = await startApi({
      ECOSYSTEM_ENABLED: 'true',
      SMTP_URL: capture.url,
      MAIL_OUTBOX_POLL_INTERVAL_MS: '100',
      PLATFORM_ADMIN_EMAILS: ` Other@Example.test , ${platformAdminEmail.toUpperCase()}`,
    })
    leadOwner = await aMember(api)
    aliceOwner = await aMember(api)
    bobOwner = await aMember(api)
    carolOwner = await aMember(api)
    platformAdmin = await aUserWithToken(api, platformAdminEmail)
    lead = await anOrganization(api, leadOwner.token, { name: `Lead ${randomUUID().slice(0, 6)}` })
    alice = await anOrganization(api, aliceOwner.token)
    bob = await anOrganization(api, bobOwner.token)
    carol = await anOrganization(api, carolOwner.token)
    aliceCoOwner = await aMember(api, alice.id, ['owner'])
  })

  afterAll(async () => {
    await api?.stop()
    await capture?.stop()
  })

  describe('creation', () => {
    it('creates an ecosystem led by the organization of an owner', async () => {
      const res = await as(leadOwner)
        .create(lead.id, {
          name: ecosystemName,
          description: 'Hospitals and insurers',
          tags: 'health,insurance',
          logo: 'https://example.test/logo.png',
        })
        .expect(201)
      expect(res.body).toEqual(
        expect.objectContaining({
          statusCode: 201,
          data: expect.objectContaining({
            name: ecosystemName,
            description: 'Hospitals and insurers',
            tags: 'health,insurance',
            logoUrl: 'https://example.test/logo.png',
            leadOrgId: lead.id,
          }),
        }),
      )
      ecosystemId = res.body.data.id
    })

    it('lets an admin create one and refuses the other roles of the organization', async () => {
      const admin = await aMember(api, lead.id, ['admin'])
      await as(admin).create(lead.id).expect(201)
      for (const role of ['issuer', 'verifier', 'member'] as const) {
        const user = await aMember(api, lead.id, [role])
        await as(user).create(lead.id).expect(403)
      }
      await as(aliceOwner).create(lead.id).expect(403)
    })

    it.each([
      ['a one-character name', { name: 'x' }],
      ['a 51-character name', { name: 'n'.repeat(51) }],
      ['a one-character description', { description: 'd' }],
      ['a 256-character description', { description: 'd'.repeat(256) }],
      ['a missing name', { name: undefined }],
      ['a logo that is not a URL', { logo: 'not a url' }],
      ['an unknown field', { colour: 'red' }],
    ])('answers 400 to %s', async (_label, overrides) => {
      const res = await as(leadOwner).create(lead.id, anEcosystemBody(overrides)).expect(400)
      expect(res.body).toEqual(expect.objectContaining({ statusCode: 400, error: 'Bad Request' }))
    })

    it('answers 400 to a missing or malformed orgId', async () => {
      await request(api.app)
        .post('/v1/ecosystem')
        .set('Authorization', `Bearer ${leadOwner.token}`)
        .send(anEcosystemBody())
        .expect(400)
      await as(leadOwner).create('not-a-uuid').expect(400)
    })
  })

  describe('invitations', () => {
    it('invites two organizations (PENDING), mails each owner and tells both webhooks', async () => {
      for (const org of [alice, bob]) {
        const res = await as(leadOwner).invite(ecosystemId, org.id).expect(201)
        expect(res.body.data).toEqual(
          expect.objectContaining({
            ecosystemId,
            ecosystemName,
            orgId: org.id,
            orgName: org.name,
            role: 'ECOSYSTEM_MEMBER',
            status: 'PENDING',
          }),
        )
      }
      for (const owner of [aliceOwner, aliceCoOwner]) {
        const mail = await capture.waitForMail(owner.email, { timeoutMs: 15_000 })
        expect(mail.subject).toBe(`Invitation to join the ecosystem ${ecosystemName} on idplane`)
        expect(mail.text).toContain(`"${lead.name}" invited your organization "${alice.name}"`)
        expect(mail.text).toContain(`ecosystemId=${ecosystemId}&orgId=${alice.id}`)
      }
      await capture.waitForMail(bobOwner.email, { timeoutMs: 15_000 })
      const sent = recorder.ofType('ecosystem.invitation-sent')
      expect(sent.map((event) => event.orgId).sort()).toEqual([alice.id, lead.id, bob.id, lead.id].sort())
      const toAlice = sent.find((event) => event.orgId === alice.id)
      expect(toAlice?.record).toEqual(expect.objectContaining({ orgId: alice.id, status: 'PENDING', ecosystemId }))
    })

    it("opens the mailed link on the API's own page, which shows how to answer", async () => {
      const mail = await capture.waitForMail(aliceOwner.email, { timeoutMs: 15_000 })
      const link = /https?:\/\/\S+\/ecosystems\/invitations\?\S+/.exec(mail.text)?.[0]
      expect(link).toBeDefined()
      const page = await request(api.app).get(new URL(link as string).pathname + new URL(link as string).search)
      expect(page.status).toBe(200)
      expect(page.text).toContain('/v1/ecosystem/invitation/status?status=accepted')
      expect(page.text).toContain(JSON.stringify({ ecosystemId, orgId: alice.id }).replace(/"/g, '&quot;'))
      const broken = await request(api.app).get('/ecosystems/invitations?ecosystemId=x&orgId=y')
      expect(broken.status).toBe(400)
      expect(broken.text).toContain('Broken link')
    })

    it('sends each invitation mail once per owner', async () => {
      await new Promise((resolve) => setTimeout(resolve, 500))
      const toAliceOwner = capture.messages.filter((mail) => mail.to.includes(aliceOwner.email.toLowerCase()))
      expect(toAliceOwner).toHaveLength(1)
    })

    it('refuses to invite an organization twice, or the lead itself (409)', async () => {
      const again = await as(leadOwner).invite(ecosystemId, alice.id).expect(409)
      expect(again.body.message).toBe('An organization whose ecosystem status is PENDING cannot be invited')
      await as(leadOwner).invite(ecosystemId, lead.id).expect(409)
    })

    it('answers 404 for an unknown organization or ecosystem, 403 to anyone but the lead', async () => {
      await as(leadOwner).invite(ecosystemId, randomUUID()).expect(404)
      await as(leadOwner).invite(randomUUID(), carol.id).expect(404)
      await as(aliceOwner).invite(ecosystemId, carol.id).expect(403)
      await as(platformAdmin).invite(ecosystemId, carol.id).expect(403)
      const leadMember = await aMember(api, lead.id, ['member'])
      await as(leadMember).invite(ecosystemId, carol.id).expect(403)
    })

    it('lets only an owner or admin of the invited organization answer', async () => {
      await as(leadOwner).answer(ecosystemId, alice.id, 'accepted').expect(403)
      await as(bobOwner).answer(ecosystemId, alice.id, 'accepted').expect(403)
      const aliceIssuer = await aMember(api, alice.id, ['issuer'])
      await as(aliceIssuer).answer(ecosystemId, alice.id, 'accepted').expect(403)
      await as(carolOwner).answer(ecosystemId, carol.id, 'accepted').expect(404)
    })

    it('one accepts, one rejects; each answer is final', async () => {
      const aliceAdmin = await aMember(api, alice.id, ['admin'])
      const accepted = await as(aliceAdmin).answer(ecosystemId, alice.id, 'accepted').expect(200)
      expect(accepted.body).toEqual(
        expect.objectContaining({
          message: 'Invitation accepted',
          data: expect.objectContaining({ status: 'ACCEPTED' }),
        }),
      )
      const rejected = await as(bobOwner).answer(ecosystemId, bob.id, 'rejected').expect(200)
      expect(rejected.body.data.status).toBe('REJECTED')
      await as(aliceOwner).answer(ecosystemId, alice.id, 'rejected').expect(409)
      await as(bobOwner).answer(ecosystemId, bob.id, 'accepted').expect(409)
      await as(bobOwner).answer(ecosystemId, bob.id, 'ACCEPTED').expect(400)
      expect(
        recorder
          .ofType('ecosystem.invitation-accepted')
          .map((event) => event.orgId)
          .sort(),
      ).toEqual([alice.id, lead.id].sort())
      expect(
        recorder
          .ofType('ecosystem.invitation-rejected')
          .map((event) => event.orgId)
          .sort(),
      ).toEqual([bob.id, lead.id].sort())
    })

    it('lets only one of two simultaneous answers through', async () => {
      const owner = await aMember(api)
      const org = await anOrganization(api, owner.token)
      const otherLeadOwner = await aMember(api)
      const otherLead = await anOrganization(api, otherLeadOwner.token)
      const created = await as(otherLeadOwner).create(otherLead.id).expect(201)
      await as(otherLeadOwner).invite(created.body.data.id, org.id).expect(201)
      const answers = await Promise.all([
        as(owner).answer(created.body.data.id, org.id, 'accepted'),
        as(owner).answer(created.body.data.id, org.id, 'rejected'),
      ])
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409])
    })

    it('lists the invitations by role: sent by the lead, received by a member', async () => {
      const sent = await as(leadOwner).invitations({ orgId: lead.id, role: 'ECOSYSTEM_LEAD', ecosystemId }).expect(200)
      expect(sent.body.data.totalItems).toBe(2)
      const upperCase = { orgId: lead.id.toUpperCase(), role: 'ECOSYSTEM_LEAD', ecosystemId: ecosystemId.toUpperCase() }
      expect((await as(leadOwner).invitations(upperCase).expect(200)).body.data.totalItems).toBe(2)
      expect((sent.body.data.data as Membership[]).map((item) => [item.orgId, item.status]).sort()).toEqual(
        [
          [alice.id, 'ACCEPTED'],
          [bob.id, 'REJECTED'],
        ].sort(),
      )
      const received = await as(aliceOwner).invitations({ orgId: alice.id, role: 'ECOSYSTEM_MEMBER' }).expect(200)
      expect((received.body.data.data as Membership[]).map((item) => item.ecosystemId)).toEqual([ecosystemId])
      await as(leadOwner).invitations({ orgId: lead.id, role: 'ECOSYSTEM_LEAD' }).expect(400)
      await as(leadOwner).invitations({ orgId: lead.id, role: 'LEAD', ecosystemId }).expect(400)
      await as(aliceOwner).invitations({ orgId: alice.id, role: 'ECOSYSTEM_LEAD', ecosystemId }).expect(403)
      await as(aliceCoOwner).invitations({ orgId: lead.id, role: 'ECOSYSTEM_MEMBER' }).expect(403)
      const aliceAdmin = await aMember(api, alice.id, ['admin'])
      await as(aliceAdmin).invitations({ orgId: alice.id, role: 'ECOSYSTEM_MEMBER' }).expect(403)
    })

    it("shows the caller's invitations of one status, sent or received (default accepted)", async () => {
      const leadView = await as(leadOwner).invitationsWithStatus({}).expect(200)
      expect((leadView.body.data.data as Membership[]).map((item) => item.orgId)).toEqual([alice.id])
      const bobView = await as(bobOwner).invitationsWithStatus({ status: 'rejected' }).expect(200)
      expect((bobView.body.data.data as Membership[]).map((item) => item.orgId)).toEqual([bob.id])
      const carolView = await as(carolOwner).invitationsWithStatus({ status: 'pending' }).expect(200)
      expect(carolView.body.data.totalItems).toBe(0)
      await as(carolOwner).invitationsWithStatus({ status: 'ACCEPTED' }).expect(400)
    })
  })

  describe('the organizations of the ecosystem', () => {
    it('lists members for the lead (lead first), paged', async () => {
      const res = await as(leadOwner).members({ ecosystemId }).expect(200)
      expect(res.body.data.totalItems).toBe(3)
      expect((res.body.data.data as Membership[]).map((item) => [item.orgId, item.role, item.status])).toEqual([
        [lead.id, 'ECOSYSTEM_LEAD', 'ACCEPTED'],
        [alice.id, 'ECOSYSTEM_MEMBER', 'ACCEPTED'],
        [bob.id, 'ECOSYSTEM_MEMBER', 'REJECTED'],
      ])
      const page = await as(leadOwner).members({ ecosystemId, pageSize: 2, pageNumber: 2 }).expect(200)
      expect(page.body.data).toEqual(
        expect.objectContaining({ totalItems: 3, lastPage: 2, hasNextPage: false, hasPreviousPage: true }),
      )
      expect((page.body.data.data as Membership[]).map((item) => item.orgId)).toEqual([bob.id])
      await as(aliceOwner).members({ ecosystemId }).expect(403)
      await as(leadOwner).members({ ecosystemId: randomUUID() }).expect(404)
      await as(leadOwner).members({ ecosystemId: 'nope' }).expect(400)
    })

    it('lists the ecosystems of an organization: led, or joined (not rejected)', async () => {
      const aliceList = await as(aliceOwner).list({ orgId: alice.id }).expect(200)
      expect(aliceList.body.data.data).toEqual([
        expect.objectContaining({ id: ecosystemId, orgRole: 'ECOSYSTEM_MEMBER', leadOrgId: lead.id }),
      ])
      const bobList = await as(bobOwner).list({ orgId: bob.id }).expect(200)
      expect(bobList.body.data.totalItems).toBe(0)
      const aliceVerifier = await aMember(api, alice.id, ['verifier'])
      await as(aliceVerifier).list({ orgId: alice.id }).expect(200)
      await as(bobOwner).list({ orgId: alice.id }).expect(403)
      const adminView = await as(platformAdmin).list({ orgId: alice.id }).expect(200)
      expect(adminView.body.data.totalItems).toBe(1)
    })

    it('sorts by name or creation time, either way, and searches names', async () => {
      const owner = await aMember(api)
      const org = await anOrganization(api, owner.token)
      // One case: name order is the database collation's (C in PGlite, the locale's in PostgreSQL).
      const names = ['beta eco', 'alpha eco', 'gamma eco']
      for (const name of names) {
        await as(owner).create(org.id, anEcosystemBody({ name })).expect(201)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      const namesOf = (res: request.Response) => (res.body.data.data as { name: string }[]).map((item) => item.name)
      expect(namesOf(await as(owner).list({ orgId: org.id }).expect(200))).toEqual([
        'gamma eco',
        'alpha eco',
        'beta eco',
      ])
      expect(namesOf(await as(owner).list({ orgId: org.id, sortBy: 'asc' }).expect(200))).toEqual(names)
      const byName = await as(owner).list({ orgId: org.id, sortField: 'name', sortBy: 'asc' }).expect(200)
      expect(namesOf(byName)).toEqual(['alpha eco', 'beta eco', 'gamma eco'])
      const byNameDesc = await as(owner).list({ orgId: org.id, sortField: 'name' }).expect(200)
      expect(namesOf(byNameDesc)).toEqual(['gamma eco', 'beta eco', 'alpha eco'])
      expect(namesOf(await as(owner).list({ orgId: org.id, search: 'ALPHA' }).expect(200))).toEqual(['alpha eco'])
      const paged = await as(owner).list({ orgId: org.id, pageSize: 1, pageNumber: 2 }).expect(200)
      expect(paged.body.data).toEqual(expect.objectContaining({ totalItems: 3, lastPage: 3, nextPage: 3 }))
      await as(owner).list({ orgId: org.id, sortField: 'createdAt' }).expect(400)
      await as(owner).list({ orgId: org.id, sortBy: 'up' }).expect(400)
      await as(owner).list({ orgId: org.id, pageSize: 101 }).expect(400)
      await as(owner).list({}).expect(400)
    })

    it('shows the dashboard of a member organization to its owners and admins and to platform admins', async () => {
      const res = await as(aliceOwner).dashboard(ecosystemId, alice.id).expect(200)
      expect(res.body.data).toEqual({
        ecosystem: expect.objectContaining({ id: ecosystemId, name: ecosystemName }),
        leadOrg: { id: lead.id, name: lead.name },
        org: { id: alice.id, name: alice.name, role: 'ECOSYSTEM_MEMBER', status: 'ACCEPTED' },
        members: { total: 2, accepted: 1, pending: 0, rejected: 1 },
      })
      await as(platformAdmin).dashboard(ecosystemId, lead.id).expect(200)
      await as(leadOwner).dashboard(ecosystemId, lead.id).expect(200)
      await as(bobOwner).dashboard(ecosystemId, bob.id).expect(404)
      await as(bobOwner).dashboard(ecosystemId, alice.id).expect(403)
      const aliceMember = await aMember(api, alice.id, ['member'])
      await as(aliceMember).dashboard(ecosystemId, alice.id).expect(403)
      await as(aliceOwner).dashboard(randomUUID(), alice.id).expect(404)
      await as(aliceOwner).dashboard('x', alice.id).expect(400)
    })

    it('sets member status, all or none; the lead keeps its own', async () => {
      const before = recorder.ofType('ecosystem.member-status-changed').length
      const res = await as(leadOwner).setStatus(ecosystemId, [bob.id, alice.id], 'PENDING').expect(200)
      expect((res.body.data as Membership[]).map((item) => [item.orgId, item.status])).toEqual([
        [bob.id, 'PENDING'],
        [alice.id, 'PENDING'],
      ])
      const changed = recorder.ofType('ecosystem.member-status-changed').slice(before)
      expect(changed.map((event) => event.orgId).sort()).toEqual([bob.id, lead.id, alice.id, lead.id].sort())
      // Setting the status an organization already has announces nothing.
      await as(leadOwner).setStatus(ecosystemId, [alice.id], 'PENDING').expect(200)
      expect(recorder.ofType('ecosystem.member-status-changed')).toHaveLength(before + 4)
      await as(leadOwner).setStatus(ecosystemId, [alice.id], 'ACCEPTED').expect(200)
      // A PENDING organization may answer again.
      await as(bobOwner).answer(ecosystemId, bob.id, 'accepted').expect(200)

      const refused = await as(leadOwner).setStatus(ecosystemId, [bob.id, lead.id], 'REJECTED').expect(409)
      expect(refused.body.message).toBe('The lead organization of an ecosystem cannot be given a new status')
      const unchanged = await as(leadOwner).members({ ecosystemId }).expect(200)
      expect((unchanged.body.data.data as Membership[]).find((item) => item.orgId === bob.id)?.status).toBe('ACCEPTED')
      await as(leadOwner).setStatus(ecosystemId, [carol.id], 'ACCEPTED').expect(404)
      await as(leadOwner).setStatus(ecosystemId, [], 'ACCEPTED').expect(400)
      await as(leadOwner).setStatus(ecosystemId, ['not-a-uuid'], 'ACCEPTED').expect(400)
      await as(leadOwner).setStatus(ecosystemId, [bob.id], 'accepted').expect(400)
      await as(aliceOwner).setStatus(ecosystemId, [bob.id], 'REJECTED').expect(403)
    })

    it('removes members, all or none; the lead cannot be removed; a removed one can be invited again', async () => {
      await as(leadOwner).remove(ecosystemId, [alice.id, lead.id]).expect(409)
      await as(leadOwner).remove(ecosystemId, [alice.id, carol.id]).expect(404)
      await as(aliceOwner).remove(ecosystemId, [alice.id]).expect(403)
      await as(leadOwner).remove(ecosystemId, []).expect(400)
      await as(leadOwner).remove(ecosystemId, 'x').expect(400)

      const before = recorder.ofType('ecosystem.member-removed').length
      const res = await as(leadOwner).remove(ecosystemId, [alice.id]).expect(200)
      expect(res.body.message).toBe('1 organization removed from the ecosystem')
      const removed = recorder.ofType('ecosystem.member-removed').slice(before)
      expect(removed.map((event) => event.orgId).sort()).toEqual([alice.id, lead.id].sort())
      expect(removed[0]?.record).toEqual(expect.objectContaining({ orgId: alice.id, ecosystemId }))

      const members = await as(leadOwner).members({ ecosystemId }).expect(200)
      expect((members.body.data.data as Membership[]).map((item) => item.orgId)).toEqual([lead.id, bob.id])
      await as(aliceOwner).list({ orgId: alice.id }).expect(200)
      await as(aliceOwner).dashboard(ecosystemId, alice.id).expect(404)
      const again = await as(leadOwner).invite(ecosystemId, alice.id).expect(201)
      expect(again.body.data.status).toBe('PENDING')
    })

    it("deletes a deleted lead organization's ecosystems, and a deleted member's rows", async () => {
      const owner = await aMember(api)
      const org = await anOrganization(api, owner.token)
      const created = await as(owner).create(org.id).expect(201)
      await as(owner).invite(created.body.data.id, carol.id).expect(201)
      await as(carolOwner).answer(created.body.data.id, carol.id, 'accepted').expect(200)
      await request(api.app).delete(`/v1/orgs/${org.id}`).set('Authorization', `Bearer ${owner.token}`).expect(200)
      await as(platformAdmin).dashboard(created.body.data.id, carol.id).expect(404)
      const carolList = await as(carolOwner).list({ orgId: carol.id }).expect(200)
      expect(carolList.body.data.totalItems).toBe(0)

      const memberOwner = await aMember(api)
      const member = await anOrganization(api, memberOwner.token)
      await as(leadOwner).invite(ecosystemId, member.id).expect(201)
      await request(api.app)
        .delete(`/v1/orgs/${member.id}`)
        .set('Authorization', `Bearer ${memberOwner.token}`)
        .expect(200)
      const members = await as(leadOwner).members({ ecosystemId }).expect(200)
      expect((members.body.data.data as Membership[]).map((item) => item.orgId)).not.toContain(member.id)
    })

    it('answers as the OpenAPI document describes, successes and errors', async () => {
      const doc = (await request(api.app).get('/api-json').expect(200)).body as OpenAPIObject
      const { check, problems } = openApiAnswerChecker(doc)
      const asLead = as(leadOwner)
      const created = check('post', '/v1/ecosystem', await asLead.create(lead.id))
      const id = created.body.data.id as string
      check('post', '/v1/ecosystem', await asLead.create(lead.id, { name: 'x' }))
      check('post', '/v1/ecosystem', await as(bobOwner).create(lead.id))
      check('get', '/v1/ecosystem', await asLead.list({ orgId: lead.id }))
      check('post', '/v1/ecosystem/invitation', await asLead.invite(id, carol.id))
      check('post', '/v1/ecosystem/invitation', await asLead.invite(id, carol.id))
      check('post', '/v1/ecosystem/invitation', await asLead.invite(randomUUID(), carol.id))
      check('put', '/v1/ecosystem/invitation/status', await as(carolOwner).answer(id, carol.id, 'accepted'))
      check('get', '/v1/ecosystem/{ecosystemId}/org/{orgId}', await as(carolOwner).dashboard(id, carol.id))
      check(
        'get',
        '/v1/ecosystem/invitations',
        await asLead.invitations({ orgId: lead.id, role: 'ECOSYSTEM_LEAD', ecosystemId: id }),
      )
      check('get', '/v1/ecosystem/invitation/status', await asLead.invitationsWithStatus({ status: 'accepted' }))
      check('get', '/v1/ecosystem/members', await asLead.members({ ecosystemId: id }))
      check('put', '/v1/ecosystem/member/status', await asLead.setStatus(id, [carol.id], 'REJECTED'))
      check('put', '/v1/ecosystem/member/status', await asLead.setStatus(id, [lead.id], 'REJECTED'))
      check('delete', '/v1/ecosystem/member', await asLead.remove(id, [carol.id]))
      check('delete', '/v1/ecosystem/member', await asLead.remove(id, [carol.id]))
      check('get', '/v1/ecosystem/members', await request(api.app).get('/v1/ecosystem/members'))
      expect(problems).toEqual([])
    })

    it('treats a holder of the platform_admin role in any organization as a platform admin', async () => {
      const user = await aMember(api)
      const ownOrg = await anOrganization(api, user.token)
      await as(user).dashboard(ecosystemId, lead.id).expect(403)
      await grantRoles(api, ownOrg.id, user.id, ['platform_admin'])
      await as(user).dashboard(ecosystemId, lead.id).expect(200)
    })
  })
})

describe('Ecosystems with the feature flag off (the default)', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string

  beforeAll(async () => {
    api = await startApi()
    owner = await aMember(api)
    orgId = (await anOrganization(api, owner.token)).id
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('keeps every ecosystem route in the explorer', async () => {
    const doc = await request(api.app).get('/api-json').expect(200)
    const paths = doc.body.paths as Record<string, Record<string, unknown>>
    for (const route of ECOSYSTEM_ROUTES) {
      expect({ route, documented: paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method] !== undefined }).toEqual(
        { route, documented: true },
      )
    }
  })

  it.each(ECOSYSTEM_ROUTES)('answers 403 to $method $path, with a token or without', async (route) => {
    const doc = (await request(api.app).get('/api-json').expect(200)).body as OpenAPIObject
    const { check, problems } = openApiAnswerChecker(doc)
    const path = route.path.replace(':orgId', orgId).replace(/:(\w+)/g, () => randomUUID())
    for (const token of [owner.token, undefined]) {
      let req = request(api.app)[route.method](path).query({ orgId })
      if (token) req = req.set('Authorization', `Bearer ${token}`)
      const res = route.method === 'get' ? await req : await req.send({ ecosystemId: randomUUID(), orgId })
      check(route.method, route.path.replace(/:(\w+)/g, '{$1}'), res)
      expect(problems).toEqual([])
      expect(res.status).toBe(403)
      expect(res.body).toEqual(
        expect.objectContaining({ statusCode: 403, error: 'Forbidden', message: expect.stringContaining('disabled') }),
      )
    }
  })
})
