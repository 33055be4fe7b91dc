import { randomUUID } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import request from 'supertest'
import { mailDirectory, readLatestMail } from '../../api/src/infra/mail/file-mailer'
import { eventually } from '../helpers/queue-contract'
import type { OrgRoleName } from '../../api/src/modules/memberships/org-role.entity'
import { startApi, type TestApi } from '../helpers/api'
import {
  anInvitee,
  anOrganizationOf,
  clientTokenFor,
  roleIdsByName,
  rolesHeld,
  type TestUser,
} from '../helpers/invitation-fixtures'

const MAIL_TIMEOUT_MS = 15_000

// The project's testTimeout is not applied when the file is run on its own; PGlite's first start takes seconds.
jest.setTimeout(60_000)

describe('Invitations and membership', () => {
  let api: TestApi
  let roleIds: Record<OrgRoleName, string>
  let owner: TestUser
  let admin: TestUser
  let verifier: TestUser
  let outsider: TestUser
  let org: { id: string; name: string }
  let otherOrg: { id: string; name: string }

  const auth = (user: TestUser | string) => `Bearer ${typeof user === 'string' ? user : user.token}`
  const roleList = (...names: OrgRoleName[]) => names.map((name) => roleIds[name])
  const fresh = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.test`

  const invite = (caller: TestUser | string, orgId: string, invitations: unknown, query = '') =>
    request(api.app)
      .post(`/v1/orgs/${orgId}/invitations${query}`)
      .set('Authorization', auth(caller))
      .send({ invitations })
  const listOrg = (caller: TestUser | string, orgId: string, query: Record<string, string | number> = {}) =>
    request(api.app).get(`/v1/orgs/${orgId}/invitations`).query(query).set('Authorization', auth(caller))
  const listMine = (caller: TestUser | string, query: Record<string, string | number> = {}) =>
    request(api.app).get('/v1/users/invitations').query(query).set('Authorization', auth(caller))
  const answer = (caller: TestUser | string, invitationId: string, status: unknown) =>
    request(api.app).put(`/v1/users/invitations/${invitationId}`).set('Authorization', auth(caller)).send({ status })
  const replaceRoles = (caller: TestUser, orgId: string, userId: string, orgRoleId: unknown) =>
    request(api.app)
      .put(`/v1/orgs/${orgId}/user-roles/${userId}`)
      .set('Authorization', auth(caller))
      .send({ orgRoleId })

  /** Invites one address with the roles and returns the invitation id (read back through the list). */
  async function invited(email: string, names: OrgRoleName[], orgId = org.id): Promise<string> {
    await invite(owner, orgId, [{ email, orgRoleId: roleList(...names) }]).expect(201)
    const res = await listOrg(owner, orgId, { search: email }).expect(200)
    expect(res.body.data.data).toHaveLength(1)
    return res.body.data.data[0].id
  }

  beforeAll(async () => {
    api = await startApi()
    roleIds = await roleIdsByName(api)
    ;[owner, admin, verifier, outsider] = await Promise.all([
      anInvitee(api, fresh('owner')),
      anInvitee(api, fresh('admin')),
      anInvitee(api, fresh('verifier')),
      anInvitee(api, fresh('outsider')),
    ])
    org = await anOrganizationOf(api, [
      { user: owner, roles: ['owner'] },
      { user: admin, roles: ['admin'] },
      { user: verifier, roles: ['verifier'] },
    ])
    otherOrg = await anOrganizationOf(api, [{ user: outsider, roles: ['owner'] }])
  })

  afterAll(async () => {
    await api?.stop()
  })

  describe('POST /v1/orgs/:orgId/invitations', () => {
    it('sends one mail per address, naming the organization and the inviter, with a link carrying the id', async () => {
      const alice = fresh('alice')
      const bob = fresh('bob')
      const res = await invite(owner, org.id, [
        { email: alice, orgRoleId: roleList('issuer') },
        { email: bob.toUpperCase(), orgRoleId: roleList('member') },
        { email: bob, orgRoleId: roleList('verifier') },
      ]).expect(201)
      expect(res.body).toEqual({ statusCode: 201, message: '2 invitations sent' })

      const front = api.config.clientAliases[0]?.url
      for (const email of [alice, bob]) {
        const listed = await listOrg(owner, org.id, { search: email }).expect(200)
        expect(listed.body.data.data).toHaveLength(1)
        const id: string = listed.body.data.data[0].id
        const mail = await eventually(() => readLatestMail(api.dataDir, email), MAIL_TIMEOUT_MS)
        expect(mail.subject).toContain(org.name)
        expect(mail.text).toContain(`Test User (${owner.email}) invited you to join the organization "${org.name}"`)
        expect(mail.text).toContain(`${front}/invitations?invitationId=${id}`)
        expect(mail.text).toContain('sign up first')
        expect(await readdir(mailDirectory(api.dataDir, email))).toHaveLength(1)
      }
      const bobs = await listOrg(owner, org.id, { search: bob }).expect(200)
      expect(bobs.body.data.data[0].orgRoles.map((role: { name: string }) => role.name).sort()).toEqual([
        'member',
        'verifier',
      ])
    })

    it('skips an address that already has a pending invitation instead of inviting it twice', async () => {
      const carol = fresh('carol')
      await invited(carol, ['member'])
      const res = await invite(admin, org.id, [{ email: carol, orgRoleId: roleList('issuer') }]).expect(201)
      expect(res.body.message).toBe('0 invitations sent; 1 address already had a pending invitation')
      const listed = await listOrg(owner, org.id, { search: carol }).expect(200)
      expect(listed.body.data.totalItems).toBe(1)
    })

    it('answers 409 for an address of a member and sends nothing', async () => {
      const dave = fresh('dave')
      const res = await invite(owner, org.id, [
        { email: dave, orgRoleId: roleList('member') },
        { email: verifier.email, orgRoleId: roleList('member') },
      ]).expect(409)
      expect(res.body.message).toContain(verifier.email)
      expect((await listOrg(owner, org.id, { search: dave })).body.data.totalItems).toBe(0)
    })

    it('lets only an owner grant the owner role', async () => {
      await invite(admin, org.id, [{ email: fresh('eve'), orgRoleId: roleList('owner') }]).expect(403)
      await invite(owner, org.id, [{ email: fresh('eve'), orgRoleId: roleList('owner') }]).expect(201)
    })

    it('accepts an M2M client token of the organization (admin) and uses a chosen client alias', async () => {
      const frank = fresh('frank')
      await invite(clientTokenFor(api, org.id), org.id, [{ email: frank, orgRoleId: roleList('member') }]).expect(201)
      const mail = await eventually(() => readLatestMail(api.dataDir, frank), MAIL_TIMEOUT_MS)
      expect(mail.text).toContain(`You are invited to join the organization "${org.name}"`)
      await invite(owner, org.id, [{ email: fresh('x'), orgRoleId: roleList('member') }], '?clientAlias=nope').expect(
        400,
      )
    })

    it.each<[string, () => unknown]>([
      ['no invitations field', () => undefined],
      ['an empty list', () => []],
      ['an empty role list', () => [{ email: 'a@example.test', orgRoleId: [] }]],
      ['a missing role list', () => [{ email: 'a@example.test' }]],
      ['a bad e-mail', () => [{ email: 'not-an-address', orgRoleId: roleList('member') }]],
      ['a malformed role id', () => [{ email: 'a@example.test', orgRoleId: ['member'] }]],
      ['an unknown role id', () => [{ email: 'a@example.test', orgRoleId: [randomUUID()] }]],
      ['an unknown field', () => [{ email: 'a@example.test', orgRoleId: roleList('member'), note: 'x' }]],
      [
        'more than 50 addresses',
        () =>
          Array.from({ length: 51 }, (_, index) => ({
            email: `n${index}@example.test`,
            orgRoleId: roleList('member'),
          })),
      ],
    ])('answers 400 for %s', async (_label, invitations) => {
      const res = await invite(owner, org.id, invitations()).expect(400)
      expect(res.body.statusCode).toBe(400)
      expect(res.body.error).toBe('Bad Request')
    })

    it('names the field of an unknown role id', async () => {
      const res = await invite(owner, org.id, [{ email: fresh('g'), orgRoleId: [randomUUID()] }]).expect(400)
      expect(res.body.errors).toEqual([{ field: 'invitations.orgRoleId', message: expect.any(String) }])
    })

    it('answers 401 without a token, 400 for a malformed orgId, 403 to a verifier and to a non-member', async () => {
      const body = [{ email: fresh('h'), orgRoleId: roleList('member') }]
      await request(api.app).post(`/v1/orgs/${org.id}/invitations`).send({ invitations: body }).expect(401)
      await invite(owner, 'not-a-uuid', body).expect(400)
      await invite(verifier, org.id, body).expect(403)
      await invite(outsider, org.id, body).expect(403)
    })
  })

  describe('GET /v1/orgs/:orgId/invitations', () => {
    it('lists invitations of every status with their roles, searching by e-mail with wildcards taken literally', async () => {
      const tag = randomUUID().slice(0, 8)
      const plain = `list_${tag}@example.test`
      const similar = `listx${tag}@example.test`
      await invited(plain, ['issuer', 'member'])
      await invited(similar, ['member'])

      const res = await listOrg(verifier, org.id, { search: `LIST_${tag}` }).expect(200)
      expect(res.body.data).toMatchObject({ totalItems: 1, hasNextPage: false, lastPage: 1 })
      const [item] = res.body.data.data
      expect(item).toEqual({
        id: expect.any(String),
        email: plain,
        status: 'pending',
        orgRoles: expect.arrayContaining([
          { id: roleIds.issuer, name: 'issuer' },
          { id: roleIds.member, name: 'member' },
        ]),
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      })
      expect((await listOrg(owner, org.id, { search: `%${tag}` })).body.data.totalItems).toBe(0)
      expect((await listOrg(owner, org.id, { search: tag })).body.data.totalItems).toBe(2)
    })

    it('paginates', async () => {
      const all = await listOrg(owner, org.id).expect(200)
      expect(all.body.data.data.length).toBeLessThanOrEqual(10)
      const total: number = all.body.data.totalItems
      expect(total).toBeGreaterThan(2)
      const second = await listOrg(owner, org.id, { pageNumber: 2, pageSize: 1 }).expect(200)
      expect(second.body.data).toMatchObject({
        totalItems: total,
        hasNextPage: true,
        hasPreviousPage: true,
        nextPage: 3,
        previousPage: 1,
        lastPage: total,
      })
      expect(second.body.data.data).toHaveLength(1)
    })

    it.each<Record<string, string | number>>([
      { pageSize: 0 },
      { pageSize: 101 },
      { pageNumber: 0 },
      { pageSize: 'ten' },
      { other: 'x' },
    ])('answers 400 for %j', async (query) => {
      await listOrg(owner, org.id, query).expect(400)
    })

    it('answers 403 to a non-member', async () => {
      await listOrg(outsider, org.id).expect(403)
    })
  })

  describe('DELETE /v1/orgs/:orgId/invitations/:invitationId', () => {
    it('removes a pending invitation; the link in the mail then answers 404', async () => {
      const invitee = await anInvitee(api)
      const id = await invited(invitee.email, ['member'])
      const res = await request(api.app)
        .delete(`/v1/orgs/${org.id}/invitations/${id}`)
        .set('Authorization', auth(admin))
        .expect(200)
      expect(res.body).toEqual({ statusCode: 200, message: 'Invitation deleted' })
      await answer(invitee, id, 'accepted').expect(404)
      expect((await listMine(invitee)).body.data.totalItems).toBe(0)
    })

    it('answers 404 for an invitation of another organization, 400 for a malformed id, 403 to a verifier', async () => {
      const id = await invited(fresh('i'), ['member'])
      const del = (caller: TestUser, orgId: string, invitationId: string) =>
        request(api.app).delete(`/v1/orgs/${orgId}/invitations/${invitationId}`).set('Authorization', auth(caller))
      await del(outsider, otherOrg.id, id).expect(404)
      await del(owner, org.id, 'not-a-uuid').expect(400)
      await del(verifier, org.id, id).expect(403)
      await del(owner, org.id, randomUUID()).expect(404)
    })

    it('refuses to remove an invitation that was already answered (409)', async () => {
      const invitee = await anInvitee(api)
      const id = await invited(invitee.email, ['member'])
      await answer(invitee, id, 'rejected').expect(200)
      await request(api.app)
        .delete(`/v1/orgs/${org.id}/invitations/${id}`)
        .set('Authorization', auth(owner))
        .expect(409)
    })
  })

  describe('GET /v1/users/invitations', () => {
    it("lists the caller's own invitations of every organization, searching by organization name", async () => {
      const invitee = await anInvitee(api)
      const first = await invited(invitee.email, ['issuer'])
      await invite(outsider, otherOrg.id, [
        { email: invitee.email.toUpperCase(), orgRoleId: roleList('member') },
      ]).expect(201)
      const res = await listMine(invitee).expect(200)
      expect(res.body.data.totalItems).toBe(2)
      const mine = await listMine(invitee, { search: org.name.toLowerCase() }).expect(200)
      expect(mine.body.data.data).toEqual([
        {
          id: first,
          orgName: org.name,
          orgId: org.id,
          status: 'pending',
          orgRoles: [{ id: roleIds.issuer, name: 'issuer' }],
          createdAt: expect.any(String),
        },
      ])
      expect((await listMine(outsider)).body.data.totalItems).toBe(0)
      await listMine(invitee, { pageSize: 101 }).expect(400)
    })

    it('answers 403 to an M2M client token and 401 without a token', async () => {
      await listMine(clientTokenFor(api, org.id)).expect(403)
      await request(api.app).get('/v1/users/invitations').expect(401)
    })
  })

  describe('PUT /v1/users/invitations/:invitationId', () => {
    it('accepting makes the invitee a member with exactly the invited roles', async () => {
      const invitee = await anInvitee(api)
      const id = await invited(invitee.email, ['issuer', 'member'])
      const getOrg = () => request(api.app).get(`/v1/orgs/${org.id}`).set('Authorization', auth(invitee))
      await getOrg().expect(403)
      await listOrg(invitee, org.id).expect(403)

      const res = await answer(invitee, id, 'accepted').expect(200)
      expect(res.body).toEqual({ statusCode: 200, message: 'Invitation accepted' })
      expect(await rolesHeld(api, org.id, invitee.id)).toEqual(['issuer', 'member'])
      await getOrg().expect(200)
      await listOrg(invitee, org.id).expect(200)
      await invite(invitee, org.id, [{ email: fresh('j'), orgRoleId: roleList('member') }]).expect(403)
      const mine = await listMine(invitee).expect(200)
      expect(mine.body.data.data[0].status).toBe('accepted')
    })

    it('rejecting records the status and grants nothing', async () => {
      const invitee = await anInvitee(api)
      const id = await invited(invitee.email, ['admin'])
      const res = await answer(invitee, id, 'rejected').expect(200)
      expect(res.body.message).toBe('Invitation rejected')
      expect(await rolesHeld(api, org.id, invitee.id)).toEqual([])
      const listed = await listOrg(owner, org.id, { search: invitee.email }).expect(200)
      expect(listed.body.data.data[0].status).toBe('rejected')
    })

    it('answers 409 to a second answer', async () => {
      const invitee = await anInvitee(api)
      const id = await invited(invitee.email, ['member'])
      await answer(invitee, id, 'accepted').expect(200)
      await answer(invitee, id, 'accepted').expect(409)
      await answer(invitee, id, 'rejected').expect(409)
    })

    it("answers 404 for someone else's invitation and leaves it pending", async () => {
      const invitee = await anInvitee(api)
      const id = await invited(invitee.email, ['member'])
      await answer(outsider, id, 'accepted').expect(404)
      await answer(owner, id, 'accepted').expect(404)
      await answer(invitee, randomUUID(), 'accepted').expect(404)
      expect((await listMine(invitee)).body.data.data[0].status).toBe('pending')
    })

    it('accepts an invitation sent before the invitee had an account', async () => {
      const email = fresh('later')
      const id = await invited(email, ['verifier'])
      const invitee = await anInvitee(api, email)
      const mine = await listMine(invitee).expect(200)
      expect(mine.body.data.data.map((item: { id: string }) => item.id)).toEqual([id])
      await answer(invitee, id, 'accepted').expect(200)
      expect(await rolesHeld(api, org.id, invitee.id)).toEqual(['verifier'])
    })

    it.each([['maybe'], [undefined], ['ACCEPTED']])('answers 400 for status %j', async (status) => {
      const invitee = await anInvitee(api)
      const id = await invited(invitee.email, ['member'])
      await answer(invitee, id, status).expect(400)
    })

    it('answers 400 for a malformed invitation id and 403 to an M2M client', async () => {
      await answer(outsider, 'not-a-uuid', 'accepted').expect(400)
      await answer(clientTokenFor(api, org.id), randomUUID(), 'accepted').expect(403)
    })
  })

  describe('PUT /v1/orgs/:orgId/user-roles/:userId', () => {
    let member: TestUser

    beforeAll(async () => {
      member = await anInvitee(api)
      await answer(member, await invited(member.email, ['member']), 'accepted').expect(200)
    })

    it('replaces all of a member’s roles', async () => {
      const res = await replaceRoles(admin, org.id, member.id, roleList('issuer', 'verifier')).expect(200)
      expect(res.body).toEqual({ statusCode: 200, message: 'User roles updated' })
      expect(await rolesHeld(api, org.id, member.id)).toEqual(['issuer', 'verifier'])
    })

    it('answers 404 for a user who is not a member', async () => {
      await replaceRoles(owner, org.id, outsider.id, roleList('member')).expect(404)
      await replaceRoles(owner, org.id, randomUUID(), roleList('member')).expect(404)
    })

    it.each([
      ['a malformed user id', 'not-a-uuid', undefined],
      ['an empty role list', undefined, []],
      ['a malformed role id', undefined, ['member']],
      ['an unknown role id', undefined, [randomUUID()]],
    ])('answers 400 for %s', async (_label, userId, orgRoleId) => {
      await replaceRoles(owner, org.id, userId ?? member.id, orgRoleId ?? [roleIds.member]).expect(400)
    })

    it('lets only an owner grant or take away the owner role', async () => {
      await replaceRoles(admin, org.id, member.id, roleList('owner')).expect(403)
      await replaceRoles(admin, org.id, owner.id, roleList('member')).expect(403)
      await replaceRoles(owner, org.id, member.id, roleList('owner', 'member')).expect(200)
      await replaceRoles(owner, org.id, member.id, roleList('member')).expect(200)
    })

    it('never removes the last owner (409)', async () => {
      const res = await replaceRoles(owner, org.id, owner.id, roleList('admin')).expect(409)
      expect(res.body.message).toBe('An organization must keep at least one owner')
      expect(await rolesHeld(api, org.id, owner.id)).toEqual(['owner'])

      await replaceRoles(owner, org.id, member.id, roleList('owner')).expect(200)
      await replaceRoles(member, org.id, member.id, roleList('member')).expect(200)
    })

    it('answers 403 to a verifier and to a non-member', async () => {
      await replaceRoles(verifier, org.id, member.id, roleList('member')).expect(403)
      await replaceRoles(outsider, org.id, member.id, roleList('member')).expect(403)
    })
  })
})

describe('Invitation mail limit per organization', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_INVITATION_MAIL_MAX: '3', RATE_LIMIT_INVITATION_MAIL_WINDOW_SECONDS: '3600' })
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('answers 429 with Retry-After once an organization passes its invitation mails, counting addresses', async () => {
    const owner = await anInvitee(api)
    const org = await anOrganizationOf(api, [{ user: owner, roles: ['owner'] }])
    const member = (await roleIdsByName(api)).member
    const batch = (count: number) =>
      Array.from({ length: count }, () => ({
        email: `limited-${randomUUID().slice(0, 8)}@example.test`,
        orgRoleId: [member],
      }))
    const post = (invitations: unknown) =>
      request(api.app)
        .post(`/v1/orgs/${org.id}/invitations`)
        .set('Authorization', `Bearer ${owner.token}`)
        .send({ invitations })

    await post(batch(2)).expect(201)
    const limited = await post(batch(2)).expect(429)
    expect(limited.body).toMatchObject({
      statusCode: 429,
      message: 'Too many invitation mails for this organization; try again later',
    })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    const listed = await request(api.app)
      .get(`/v1/orgs/${org.id}/invitations`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(listed.body.data.totalItems).toBe(2)
  })
})
