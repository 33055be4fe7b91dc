import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { startApi, type TestApi } from '../helpers/api'
import { aMember, anOrganization, anOrganizationBody, grantRoles, type TestUser } from '../helpers/org-fixtures'
import { OrgDidsService } from '../../api/src/modules/orgs/org-dids.service'
import { Invitation } from '../../api/src/modules/invitations/invitation.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { TokenService } from '../../api/src/infra/auth/token.service'

const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const GIF_1X1 = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'

describe('organizations', () => {
  let api: TestApi
  let owner: TestUser

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` })

  beforeAll(async () => {
    // One owner creates a few dozen organizations here; the quota has tests of its own (agents-lifecycle).
    api = await startApi({ LIMIT_ORGS_PER_USER: '0' })
    owner = await aMember(api)
  })

  afterAll(async () => {
    await api?.stop()
  })

  describe('POST /v1/orgs', () => {
    it('creates an organization whose creator becomes owner, with defaults', async () => {
      const res = await request(api.app)
        .post('/v1/orgs')
        .set(auth(owner.token))
        .send({
          name: '  Acme Corp ',
          description: 'Makes everything',
          website: 'https://acme.example.com',
          notificationWebhook: 'https://hooks.acme.example.com/idplane',
          registrationNumber: 'REG-1',
          countryId: 1,
          stateId: 2,
          cityId: 3,
        })
        .expect(201)
      expect(res.body).toMatchObject({ statusCode: 201, message: 'Organization created' })
      expect(res.body.data).toMatchObject({
        name: 'Acme Corp',
        slug: 'acme-corp',
        description: 'Makes everything',
        logoUrl: '',
        website: 'https://acme.example.com',
        notificationWebhook: 'https://hooks.acme.example.com/idplane',
        registrationNumber: 'REG-1',
        isPublic: false,
        countryId: 1,
        stateId: 2,
        cityId: 3,
      })
      expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(new Date(res.body.data.createdAt).toISOString()).toBe(res.body.data.createdAt)

      const list = await request(api.app)
        .get('/v1/orgs')
        .query({ search: 'acme corp' })
        .set(auth(owner.token))
        .expect(200)
      expect(list.body.data.data[0].userOrgRoles).toEqual([{ orgRole: { id: expect.any(String), name: 'owner' } }])
    })

    it('derives a unique slug from the name', async () => {
      const second = await anOrganization(api, owner.token, { name: 'Acme Corp' })
      const third = await anOrganization(api, owner.token, { name: 'ACME  corp!' })
      expect([second.slug, third.slug]).toEqual(['acme-corp-2', 'acme-corp-3'])
    })

    it('accepts a logo URL or a base64 image and rejects anything else', async () => {
      expect((await anOrganization(api, owner.token, { logo: 'https://cdn.example.com/logo.png' })).logoUrl).toBe(
        'https://cdn.example.com/logo.png',
      )
      expect((await anOrganization(api, owner.token, { logo: PNG_1X1 })).logoUrl).toBe(PNG_1X1)
      const res = await request(api.app)
        .post('/v1/orgs')
        .set(auth(owner.token))
        .send(anOrganizationBody({ logo: 'not a logo' }))
        .expect(400)
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'logo' })])
    })

    it.each([
      ['name of 1 character', { name: 'a' }],
      ['name of 201 characters', { name: 'a'.repeat(201) }],
      ['description of 1 character', { description: 'a' }],
      ['description of 1001 characters', { description: 'a'.repeat(1001) }],
      ['missing name', { name: undefined }],
      ['missing description', { description: undefined }],
      ['webhook without a top-level domain', { notificationWebhook: 'http://localhost/hook' }],
      ['webhook without a scheme', { notificationWebhook: 'hooks.example.com/x' }],
      ['website that is not a URL', { website: 'acme' }],
      ['countryId of 0', { countryId: 0 }],
      ['cityId past the int range', { cityId: 2 ** 31 }],
      ['an unknown field', { owner: 'me' }],
    ])('answers 400 for %s', async (_case, overrides) => {
      const res = await request(api.app).post('/v1/orgs').set(auth(owner.token)).send(anOrganizationBody(overrides))
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('Bad Request')
    })

    it('accepts the bounds: name of 2 and 200 characters, description of 2 and 1000', async () => {
      await anOrganization(api, owner.token, { name: 'ab', description: 'cd' })
      await anOrganization(api, owner.token, { name: 'n'.repeat(200), description: 'd'.repeat(1000) })
    })

    it('answers 401 without a token and 403 for a machine-to-machine client', async () => {
      await request(api.app).post('/v1/orgs').send(anOrganizationBody()).expect(401)
      const org = await anOrganization(api, owner.token)
      const client = api.runtime.container
        .get(TokenService)
        .signForClient({ clientId: randomUUID(), orgId: org.id }, randomUUID())
      await request(api.app).post('/v1/orgs').set(auth(client.accessToken)).send(anOrganizationBody()).expect(403)
    })
  })

  describe('GET /v1/orgs', () => {
    let user: TestUser

    beforeAll(async () => {
      user = await aMember(api)
      const a = await anOrganization(api, user.token, { name: 'Zeta 100% Labs' })
      const b = await anOrganization(api, owner.token, { name: 'Zeta_Verifiers' })
      await anOrganization(api, owner.token, { name: 'Zeta Outsiders' })
      const roles = await request(api.app).get(`/v1/orgs/${a.id}/roles`).set(auth(user.token)).expect(200)
      expect(roles.body.data).toHaveLength(8)
      await grantRoles(api, b.id, user.id, ['verifier', 'issuer'])
    })

    it("lists only the caller's organizations with the caller's roles", async () => {
      const res = await request(api.app).get('/v1/orgs').set(auth(user.token)).expect(200)
      expect(res.body.data).toMatchObject({ totalItems: 2, hasNextPage: false, lastPage: 1 })
      const byName = Object.fromEntries(
        res.body.data.data.map((org: { name: string; userOrgRoles: { orgRole: { name: string } }[] }) => [
          org.name,
          org.userOrgRoles.map((role) => role.orgRole.name).sort(),
        ]),
      )
      expect(byName).toEqual({ 'Zeta 100% Labs': ['owner'], Zeta_Verifiers: ['issuer', 'verifier'] })
    })

    it('filters by role and searches names with wildcards taken literally', async () => {
      const byRole = await request(api.app)
        .get('/v1/orgs')
        .query({ role: 'verifier' })
        .set(auth(user.token))
        .expect(200)
      expect(byRole.body.data.data.map((org: { name: string }) => org.name)).toEqual(['Zeta_Verifiers'])
      const percent = await request(api.app).get('/v1/orgs').query({ search: '100%' }).set(auth(user.token)).expect(200)
      expect(percent.body.data.totalItems).toBe(1)
      const underscore = await request(api.app)
        .get('/v1/orgs')
        .query({ search: 'a_v' })
        .set(auth(user.token))
        .expect(200)
      expect(underscore.body.data.totalItems).toBe(1)
      const wildcard = await request(api.app).get('/v1/orgs').query({ search: '%' }).set(auth(user.token)).expect(200)
      expect(wildcard.body.data.data.map((org: { name: string }) => org.name)).toEqual(['Zeta 100% Labs'])
    })

    it('paginates', async () => {
      const res = await request(api.app).get('/v1/orgs').query({ pageSize: 1, pageNumber: 2 }).set(auth(user.token))
      expect(res.body.data).toMatchObject({
        totalItems: 2,
        hasNextPage: false,
        hasPreviousPage: true,
        previousPage: 1,
        nextPage: null,
        lastPage: 2,
      })
      expect(res.body.data.data).toHaveLength(1)
    })

    it.each([
      [{ pageSize: 0 }],
      [{ pageSize: 101 }],
      [{ pageNumber: 0 }],
      [{ pageSize: 'ten' }],
      [{ role: 'captain' }],
    ])('answers 400 for %j', async (query) => {
      await request(api.app).get('/v1/orgs').query(query).set(auth(user.token)).expect(400)
    })
  })

  describe('GET, PUT and DELETE /v1/orgs/:orgId', () => {
    let orgId: string

    beforeAll(async () => {
      orgId = (await anOrganization(api, owner.token, { name: 'Editable Org' })).id
    })

    it('reads the organization for each reading role and refuses holders and outsiders', async () => {
      for (const role of ['admin', 'issuer', 'verifier', 'member'] as const) {
        const member = await aMember(api, orgId, [role])
        const res = await request(api.app).get(`/v1/orgs/${orgId}`).set(auth(member.token)).expect(200)
        expect(res.body.data).toMatchObject({ id: orgId, name: 'Editable Org' })
      }
      const holder = await aMember(api, orgId, ['holder'])
      await request(api.app).get(`/v1/orgs/${orgId}`).set(auth(holder.token)).expect(403)
      const outsider = await aMember(api)
      await request(api.app).get(`/v1/orgs/${orgId}`).set(auth(outsider.token)).expect(403)
      await request(api.app).get(`/v1/orgs/${orgId}`).expect(401)
      await request(api.app).get('/v1/orgs/not-a-uuid').set(auth(owner.token)).expect(400)
    })

    it('takes only a UUID v4 as orgId on every /orgs/:orgId route (issue 22 item 8)', async () => {
      // Well-formed UUIDs of versions 1, 5 and 7: the spec's orgId is v4, so each is malformed (400), not a 403.
      for (const otherVersion of [
        'c232ab00-9414-11ec-b3c8-9f6bdeced846',
        '2ed6657d-e927-568b-95e1-2665a8aea6a2',
        '01937c6e-8f2a-7b3c-9d4e-5f6a7b8c9d0e',
      ]) {
        for (const path of [
          `/v1/orgs/${otherVersion}`,
          `/v1/orgs/${otherVersion}/connections`,
          `/v1/orgs/dashboard/${otherVersion}`,
          `/v1/webhooks/orgs/${otherVersion}/deliveries`,
          `/v1/webhooks/orgs/webhookurl?orgId=${otherVersion}`,
        ]) {
          const res = await request(api.app).get(path).set(auth(owner.token))
          expect({ path, status: res.status }).toEqual({ path, status: 400 })
          expect(res.body.errors).toEqual([{ field: 'orgId', message: 'orgId must be a UUID v4' }])
        }
      }
      await request(api.app).get(`/v1/orgs/${orgId}`).set(auth(owner.token)).expect(200)
    })

    it('reads every field as the creation answered it, then as changed (the plain read of GET)', async () => {
      const body = {
        name: 'Every Field Org',
        description: 'All of them',
        website: 'https://every.example.com',
        notificationWebhook: 'https://hooks.every.example.com/idplane',
        registrationNumber: 'REG-77',
        countryId: 7,
        stateId: 8,
        cityId: 9,
      }
      const made = (await request(api.app).post('/v1/orgs').set(auth(owner.token)).send(body).expect(201)).body.data
      const read = await request(api.app).get(`/v1/orgs/${made.id}`).set(auth(owner.token)).expect(200)
      expect(read.body).toEqual({ statusCode: 200, message: 'Organization fetched', data: made })
      expect(new Date(made.createdAt).toISOString()).toBe(made.createdAt)

      await request(api.app)
        .put(`/v1/orgs/${made.id}`)
        .set(auth(owner.token))
        .send({ website: 'https://changed.example.com', isPublic: true, cityId: 10, logo: PNG_1X1 })
        .expect(200)
      const changed = (await request(api.app).get(`/v1/orgs/${made.id}`).set(auth(owner.token)).expect(200)).body.data
      expect(changed).toEqual({
        ...made,
        website: 'https://changed.example.com',
        isPublic: true,
        cityId: 10,
        logoUrl: PNG_1X1,
        updatedAt: changed.updatedAt,
      })
      expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(made.updatedAt))
      await request(api.app).get(`/v1/orgs/${randomUUID()}`).set(auth(owner.token)).expect(403)
    })

    it('changes only the supplied fields', async () => {
      const res = await request(api.app)
        .put(`/v1/orgs/${orgId}`)
        .set(auth(owner.token))
        .send({ description: 'New description', isPublic: true, logo: GIF_1X1 })
        .expect(200)
      expect(res.body).toEqual({ statusCode: 200, message: 'Organization updated' })
      const read = await request(api.app).get(`/v1/orgs/${orgId}`).set(auth(owner.token)).expect(200)
      expect(read.body.data).toMatchObject({
        name: 'Editable Org',
        slug: 'editable-org',
        description: 'New description',
        isPublic: true,
        logoUrl: GIF_1X1,
      })
    })

    it.each([
      ['a logo URL', { logo: 'https://cdn.example.com/logo.png' }],
      ['a logo whose bytes are not the declared type', { logo: PNG_1X1.replace('image/png', 'image/jpeg') }],
      ['a logo of plain text', { logo: `data:image/png;base64,${Buffer.from('hello').toString('base64')}` }],
      ['a logo over 512 KiB', { logo: `data:image/png;base64,${'A'.repeat(800_000)}` }],
      ['a name of 1 character', { name: 'x' }],
      ['a description of 1001 characters', { description: 'd'.repeat(1001) }],
      ['isPublic as a string', { isPublic: 'yes' }],
      ['a notificationWebhook (not updatable)', { notificationWebhook: 'https://hooks.example.com/x' }],
    ])('answers 400 for %s', async (_case, body) => {
      await request(api.app).put(`/v1/orgs/${orgId}`).set(auth(owner.token)).send(body).expect(400)
    })

    it('lets owners and admins update, and nobody else', async () => {
      const admin = await aMember(api, orgId, ['admin'])
      await request(api.app).put(`/v1/orgs/${orgId}`).set(auth(admin.token)).send({ cityId: 7 }).expect(200)
      const issuer = await aMember(api, orgId, ['issuer'])
      await request(api.app).put(`/v1/orgs/${orgId}`).set(auth(issuer.token)).send({ cityId: 8 }).expect(403)
      await request(api.app).put('/v1/orgs/123').set(auth(owner.token)).send({ cityId: 8 }).expect(400)
    })

    it('deletes only for the owner and cascades to members, DIDs, invitations and credentials', async () => {
      const doomed = await anOrganization(api, owner.token, { name: 'Doomed Org' })
      const admin = await aMember(api, doomed.id, ['admin'])
      await api.runtime.container.get(OrgDidsService).register(doomed.id, 'did:key:z6MkDoomed', 'key')
      await request(api.app).post(`/v1/orgs/${doomed.id}/client_credentials`).set(auth(owner.token)).expect(201)
      const em = api.runtime.container.get(EntityManager).fork()
      em.create(Invitation, {
        organization: em.getReference(Organization, doomed.id),
        email: 'x@example.test',
        orgRoleIds: [],
      })
      await em.flush()

      await request(api.app).delete(`/v1/orgs/${doomed.id}`).set(auth(admin.token)).expect(403)
      const res = await request(api.app).delete(`/v1/orgs/${doomed.id}`).set(auth(owner.token)).expect(200)
      expect(res.body).toEqual({ statusCode: 200, message: 'Organization deleted' })

      const [left] = await em.getConnection().execute<{ n: number }[]>(
        `select (select count(*) from user_org_roles where organization_id = ?)::int
             + (select count(*) from org_dids where organization_id = ?)::int
             + (select count(*) from org_invitations where organization_id = ?)::int
             + (select count(*) from client_credentials where organization_id = ?)::int as n`,
        [doomed.id, doomed.id, doomed.id, doomed.id],
      )
      expect(Number(left?.n)).toBe(0)
      // The former owner is no longer a member: the organization is gone for everyone.
      await request(api.app).get(`/v1/orgs/${doomed.id}`).set(auth(owner.token)).expect(403)
    })
  })

  describe('DIDs', () => {
    let orgId: string
    let otherOrgId: string

    beforeAll(async () => {
      orgId = (await anOrganization(api, owner.token)).id
      otherOrgId = (await anOrganization(api, owner.token)).id
      const dids = api.runtime.container.get(OrgDidsService)
      await dids.register(orgId, 'did:key:z6MkFirst', 'key')
      await dids.register(orgId, 'did:key:z6MkSecond', 'key')
      await dids.register(otherOrgId, 'did:key:z6MkOther', 'key')
    })

    const listDids = async (id: string) =>
      (await request(api.app).get(`/v1/orgs/${id}/dids`).set(auth(owner.token)).expect(200)).body.data as {
        id: string
        did: string
        isPrimaryDid: boolean
        createdAt: string
      }[]

    it('lists the DIDs with the first one primary', async () => {
      const dids = await listDids(orgId)
      expect(dids.map(({ did, isPrimaryDid }) => ({ did, isPrimaryDid }))).toEqual([
        { did: 'did:key:z6MkFirst', isPrimaryDid: true },
        { did: 'did:key:z6MkSecond', isPrimaryDid: false },
      ])
      expect(Object.keys(dids[0] ?? {}).sort()).toEqual(['createdAt', 'did', 'id', 'isPrimaryDid'])
    })

    it('moves the primary DID, keeping exactly one', async () => {
      const second = (await listDids(orgId)).find((record) => record.did === 'did:key:z6MkSecond')
      const res = await request(api.app)
        .put(`/v1/orgs/${orgId}/primary-did`)
        .set(auth(owner.token))
        .send({ id: second?.id, did: 'did:key:z6MkSecond' })
        .expect(201)
      expect(res.body).toMatchObject({ statusCode: 201, data: { id: second?.id, isPrimaryDid: true } })
      const primaries = (await listDids(orgId)).filter((record) => record.isPrimaryDid)
      expect(primaries.map((record) => record.did)).toEqual(['did:key:z6MkSecond'])
    })

    it("answers 404 for another organization's DID record, 400 for a mismatched did", async () => {
      const [other] = await listDids(otherOrgId)
      await request(api.app)
        .put(`/v1/orgs/${orgId}/primary-did`)
        .set(auth(owner.token))
        .send({ id: other?.id, did: other?.did })
        .expect(404)
      const [mine] = await listDids(orgId)
      await request(api.app)
        .put(`/v1/orgs/${orgId}/primary-did`)
        .set(auth(owner.token))
        .send({ id: mine?.id, did: 'did:key:z6MkSomethingElse' })
        .expect(400)
      await request(api.app)
        .put(`/v1/orgs/${orgId}/primary-did`)
        .set(auth(owner.token))
        .send({ id: 'nope', did: 'did:key:z6MkFirst' })
        .expect(400)
    })

    it('follows the roles of the spec: verifiers may set the primary DID but not list DIDs', async () => {
      const verifier = await aMember(api, orgId, ['verifier'])
      await request(api.app).get(`/v1/orgs/${orgId}/dids`).set(auth(verifier.token)).expect(403)
      const [first] = await listDids(orgId)
      await request(api.app)
        .put(`/v1/orgs/${orgId}/primary-did`)
        .set(auth(verifier.token))
        .send({ id: first?.id, did: first?.did })
        .expect(201)
      const holder = await aMember(api, orgId, ['holder'])
      await request(api.app)
        .put(`/v1/orgs/${orgId}/primary-did`)
        .set(auth(holder.token))
        .send({ id: first?.id, did: first?.did })
        .expect(403)
    })
  })

  describe('machine-to-machine access', () => {
    let orgId: string

    beforeAll(async () => {
      orgId = (await anOrganization(api, owner.token)).id
    })

    it('generates, masks, exchanges and rotates client credentials', async () => {
      await request(api.app).get(`/v1/orgs/${orgId}/client_credentials`).set(auth(owner.token)).expect(404)
      const admin = await aMember(api, orgId, ['admin'])
      await request(api.app).post(`/v1/orgs/${orgId}/client_credentials`).set(auth(admin.token)).expect(403)

      const generated = await request(api.app)
        .post(`/v1/orgs/${orgId}/client_credentials`)
        .set(auth(owner.token))
        .expect(201)
      const { clientId, clientSecret } = generated.body.data as { clientId: string; clientSecret: string }
      expect(clientId).toMatch(/^[0-9a-f-]{36}$/)
      expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)

      const member = await aMember(api, orgId, ['member'])
      const masked = await request(api.app)
        .get(`/v1/orgs/${orgId}/client_credentials`)
        .set(auth(member.token))
        .expect(200)
      expect(masked.body.data).toMatchObject({ clientId, clientSecret: `••••••••${clientSecret.slice(-4)}` })

      const exchanged = await request(api.app).post(`/v1/orgs/${clientId}/token`).send({ clientSecret }).expect(200)
      expect(exchanged.body.data).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: api.config.jwt.accessTokenTtlSeconds,
      })
      const cookie = String(exchanged.headers['set-cookie']?.[0] ?? '')
      // The session of an M2M token is its credential: rotation and deletion end it (issue 8, Part 2 item 5).
      expect(cookie.startsWith(`session_id=${clientId};`)).toBe(true)
      expect(cookie).toContain(`Max-Age=${api.config.jwt.accessTokenTtlSeconds}`)
      expect(cookie).toContain('HttpOnly')
      expect(cookie).toContain('SameSite=Strict')
      expect(cookie.includes('Secure')).toBe(!api.config.isEmbedded)
      const principal = api.runtime.container.get(TokenService).verify(exchanged.body.data.access_token)
      expect(principal).toMatchObject({ kind: 'client', clientId, orgId })
      expect(cookie).toContain(`session_id=${principal.sessionId};`)

      const m2m = exchanged.body.data.access_token as string
      const read = await request(api.app).get(`/v1/orgs/${orgId}`).set(auth(m2m)).expect(200)
      expect(read.body.data.id).toBe(orgId)
      const elsewhere = await anOrganization(api, owner.token)
      await request(api.app).get(`/v1/orgs/${elsewhere.id}`).set(auth(m2m)).expect(403)
      await request(api.app).delete(`/v1/orgs/${orgId}`).set(auth(m2m)).expect(403)
      await request(api.app).post(`/v1/orgs/${orgId}/client_credentials`).set(auth(m2m)).expect(403)
      await request(api.app).get('/v1/orgs').set(auth(m2m)).expect(403)

      const rotated = await request(api.app)
        .post(`/v1/orgs/${orgId}/client_credentials`)
        .set(auth(owner.token))
        .expect(201)
      expect(rotated.body.data.clientId).not.toBe(clientId)
      await request(api.app).post(`/v1/orgs/${clientId}/token`).send({ clientSecret }).expect(401)
      await request(api.app)
        .post(`/v1/orgs/${rotated.body.data.clientId}/token`)
        .send({ clientSecret: rotated.body.data.clientSecret })
        .expect(200)
    })

    it('answers 401 with one message for a wrong secret, an unknown id and a malformed id', async () => {
      const { body } = await request(api.app)
        .post(`/v1/orgs/${orgId}/client_credentials`)
        .set(auth(owner.token))
        .expect(201)
      const wrongSecret = await request(api.app)
        .post(`/v1/orgs/${body.data.clientId}/token`)
        .send({ clientSecret: 'wrong' })
        .expect(401)
      const unknownId = await request(api.app)
        .post(`/v1/orgs/${randomUUID()}/token`)
        .send({ clientSecret: body.data.clientSecret })
        .expect(401)
      const malformedId = await request(api.app)
        .post('/v1/orgs/not-a-uuid/token')
        .send({ clientSecret: body.data.clientSecret })
        .expect(401)
      expect(new Set([wrongSecret.body.message, unknownId.body.message, malformedId.body.message]).size).toBe(1)
      expect(wrongSecret.headers['set-cookie']).toBeUndefined()
      await request(api.app).post(`/v1/orgs/${body.data.clientId}/token`).send({}).expect(400)
    })
  })

  describe('public profiles', () => {
    beforeAll(async () => {
      const org = await anOrganization(api, owner.token, { name: 'Shown Publicly' })
      await request(api.app).put(`/v1/orgs/${org.id}`).set(auth(owner.token)).send({ isPublic: true }).expect(200)
      await anOrganization(api, owner.token, { name: 'Shown Never' })
    })

    it('lists public organizations without a token, public fields only', async () => {
      const res = await request(api.app).get('/v1/orgs/public-profile').query({ search: 'shown' }).expect(200)
      expect(res.body.data.totalItems).toBe(1)
      expect(res.body.data.data[0]).toEqual({
        id: expect.any(String),
        name: 'Shown Publicly',
        slug: 'shown-publicly',
        description: 'An organization for tests',
        logoUrl: '',
        website: null,
        createdAt: expect.any(String),
      })
      await request(api.app).get('/v1/orgs/public-profile').query({ pageSize: 101 }).expect(400)
    })

    it('reads one public profile by slug and answers 404 for private or unknown slugs', async () => {
      const res = await request(api.app).get('/v1/orgs/public-profiles/shown-publicly').expect(200)
      expect(res.body.data.name).toBe('Shown Publicly')
      expect(res.body.data).not.toHaveProperty('userOrgRoles')
      await request(api.app).get('/v1/orgs/public-profiles/shown-never').expect(404)
      await request(api.app).get('/v1/orgs/public-profiles/nothing-here').expect(404)
    })
  })

  describe('members, dashboard and activity counts', () => {
    let orgId: string
    let issuer: TestUser

    beforeAll(async () => {
      orgId = (await anOrganization(api, owner.token)).id
      issuer = await aMember(api, orgId, ['issuer', 'verifier'])
      await aMember(api, orgId, ['holder'])
      await api.runtime.container.get(OrgDidsService).register(orgId, 'did:key:z6MkDash', 'key')
      const em = api.runtime.container.get(EntityManager).fork()
      for (const status of ['pending', 'pending', 'accepted'] as const) {
        em.create(Invitation, {
          organization: em.getReference(Organization, orgId),
          email: `${randomUUID()}@example.test`,
          orgRoleIds: [],
          status,
        })
      }
      await em.flush()
    })

    it('lists members with their roles, paginated and searchable', async () => {
      const res = await request(api.app).get(`/v1/orgs/${orgId}/users`).set(auth(issuer.token)).expect(200)
      expect(res.body.data.totalItems).toBe(3)
      const me = res.body.data.data.find((member: { id: string }) => member.id === issuer.id)
      expect(me).toEqual({
        id: issuer.id,
        email: issuer.email,
        firstName: 'Test',
        lastName: 'User',
        userOrgRoles: [
          { orgRole: { id: expect.any(String), name: 'issuer' } },
          { orgRole: { id: expect.any(String), name: 'verifier' } },
        ],
      })
      const found = await request(api.app)
        .get(`/v1/orgs/${orgId}/users`)
        .query({ search: issuer.email.toUpperCase() })
        .set(auth(issuer.token))
        .expect(200)
      expect(found.body.data.data.map((member: { id: string }) => member.id)).toEqual([issuer.id])
      const page = await request(api.app)
        .get(`/v1/orgs/${orgId}/users`)
        .query({ pageSize: 2, pageNumber: 2 })
        .set(auth(issuer.token))
        .expect(200)
      expect(page.body.data).toMatchObject({ totalItems: 3, lastPage: 2 })
      expect(page.body.data.data).toHaveLength(1)
      await request(api.app).get(`/v1/orgs/${orgId}/users`).query({ pageSize: 0 }).set(auth(issuer.token)).expect(400)
      const outsider = await aMember(api)
      await request(api.app).get(`/v1/orgs/${orgId}/users`).set(auth(outsider.token)).expect(403)
    })

    it('summarises the organization on the dashboard', async () => {
      const res = await request(api.app).get(`/v1/orgs/dashboard/${orgId}`).set(auth(issuer.token)).expect(200)
      expect(res.body.data).toEqual({
        members: 3,
        pendingInvitations: 2,
        dids: 1,
        hasClientCredentials: false,
        schemas: 0,
      })
      await request(api.app).get('/v1/orgs/dashboard/not-a-uuid').set(auth(issuer.token)).expect(400)
    })

    it('counts organization-level references for the owner only', async () => {
      const res = await request(api.app).get(`/v1/orgs/activity-count/${orgId}`).set(auth(owner.token)).expect(200)
      expect(res.body.data).toEqual({
        members: 3,
        dids: 1,
        clientCredentials: 0,
        invitations: { pending: 2, accepted: 1, rejected: 0 },
        schemas: 0,
      })
      await request(api.app).get(`/v1/orgs/activity-count/${orgId}`).set(auth(issuer.token)).expect(403)
    })
  })
})
