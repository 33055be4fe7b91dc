import { EntityManager } from '@mikro-orm/postgresql'
import request from 'supertest'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { startApi, type TestApi } from '../helpers/api'
import { requestVerificationCode } from '../helpers/auth-flow'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

/** Issue 8, item 16: the pages behind mailed links, without a browser: statuses, headers, escaping. */
describe('mail pages', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi()
  })

  afterAll(async () => api?.stop())

  it('answers the verification link with an HTML page under a strict CSP, and the GET spends nothing', async () => {
    const email = 'page@acme.test'
    const code = await requestVerificationCode(api.app, api.dataDir, email)
    const page = await request(api.app)
      .get('/verify-email-success')
      .query({ email, verificationCode: code })
      .expect(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toMatch(
      /default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'/,
    )
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.text).not.toContain('<script')
    expect(page.text).toContain('<form method="post" action="/verify-email-success">')
    // Opening the page did not use the code: the form (or the API) still verifies with it.
    await request(api.app)
      .post('/verify-email-success')
      .type('form')
      .send({ email, verificationCode: code })
      .expect(200)
    const again = await request(api.app)
      .post('/verify-email-success')
      .type('form')
      .send({ email, verificationCode: code })
      .expect(400)
    expect(again.text).toContain('Verification failed')
  })

  it('answers a damaged link or form with a 400 page, never a 500', async () => {
    await request(api.app).get('/verify-email-success').expect(400)
    await request(api.app).get('/verify-email-success?email=a@b.test&verificationCode=12').expect(400)
    await request(api.app).get('/verify-email-success?email[]=a@b.test&verificationCode[]=123456').expect(400)
    await request(api.app).post('/verify-email-success').type('form').send('email=%00&verificationCode=1').expect(400)
    await request(api.app)
      .post('/verify-email-success')
      .type('form')
      .send(`x=${'a'.repeat(5000)}`)
      .expect(413)
    await request(api.app).get('/invitations').expect(400)
    await request(api.app).get('/invitations?invitationId=not-a-uuid').expect(400)
    await request(api.app).get('/invitations?invitationId[]=x').expect(400)
  })

  it('escapes what it shows: an organization name cannot inject markup', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const em = api.runtime.container.get(EntityManager).fork()
    await em.nativeUpdate(Organization, { id: orgId }, { name: '<script>alert(1)</script> & "Co"' })
    const roles = await request(api.app).get(`/v1/orgs/${orgId}/roles`).set('Authorization', `Bearer ${owner.token}`)
    const member = (roles.body.data as { id: string; name: string }[]).find((role) => role.name === 'member')
    await request(api.app)
      .post(`/v1/orgs/${orgId}/invitations`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ invitations: [{ email: 'escape@acme.test', orgRoleId: [member?.id] }] })
      .expect(201)
    const list = await request(api.app)
      .get(`/v1/orgs/${orgId}/invitations`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    const invitationId = list.body.data.data[0].id as string
    const page = await request(api.app).get('/invitations').query({ invitationId }).expect(200)
    expect(page.text).not.toContain('<script>alert(1)</script>')
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;')
    expect(page.text).not.toContain('escape@acme.test')
  })
})
