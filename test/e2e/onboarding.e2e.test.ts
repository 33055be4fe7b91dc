import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'

jest.setTimeout(180_000)

/**
 * The onboarding path of a new organization, end to end through a real SMTP server: every code and link is
 * read from the delivered mail, as a person would.
 */
describe('onboarding through mail', () => {
  let smtp: SmtpCapture
  let api: TestApi

  beforeAll(async () => {
    smtp = await startSmtpCapture()
    api = await startApi({ SMTP_URL: smtp.url })
  })

  afterAll(async () => {
    await api?.stop()
    await smtp?.stop()
  })

  async function verifyAndSignUp(email: string, firstName: string): Promise<{ userId: string; password: string }> {
    // The invitee already holds an invitation mail: wait for the next one to the address.
    const earlier = smtp.messages.filter((message) => message.to.includes(email)).length
    await request(api.app).post('/v1/auth/verification-mail').send({ email }).expect(201)
    const mail = await smtp.waitForMail(email, { timeoutMs: 15_000, count: earlier + 1 })
    const code = /verificationCode=([A-Za-z0-9]+)/.exec(mail.text)?.[1]
    expect(code).toBeDefined()
    await request(api.app).get('/v1/auth/verify').query({ email, verificationCode: code }).expect(200)
    const password = 'correct horse 42 battery'
    const signup = await request(api.app)
      .post('/v1/auth/signup')
      .send({ email, firstName, lastName: 'Example', password, isEmailVerified: true })
      .expect(201)
    return { userId: signup.body.data.id as string, password }
  }

  async function signIn(email: string, password: string): Promise<{ access: string; refresh: string }> {
    const res = await request(api.app).post('/v1/auth/signin').send({ email, password }).expect(200)
    expect(res.body.data.expires_in).toBeGreaterThan(0)
    return { access: res.body.data.access_token as string, refresh: res.body.data.refresh_token as string }
  }

  it('takes an owner from the first mail to a machine-to-machine call', async () => {
    // Owner: verification mail → verify → sign-up → sign-in → refresh.
    const ownerEmail = 'owner@acme.test'
    const owner = await verifyAndSignUp(ownerEmail, 'Olivia')
    const first = await signIn(ownerEmail, owner.password)
    const refreshed = await request(api.app)
      .post('/v1/auth/refresh-token')
      .send({ refreshToken: first.refresh })
      .expect(200)
    const ownerToken = refreshed.body.data.access_token as string
    const auth = { Authorization: `Bearer ${ownerToken}` }

    // Organization, its roles.
    const org = await request(api.app)
      .post('/v1/orgs')
      .set(auth)
      .send({ name: 'Acme Credentials', description: 'Issues employee badges' })
      .expect(201)
    const orgId = org.body.data.id as string
    const roles = await request(api.app).get(`/v1/orgs/${orgId}/roles`).set(auth).expect(200)
    const roleId = (name: string) =>
      (roles.body.data as { id: string; name: string }[]).find((role) => role.name === name)?.id

    // Invite a second person who has no account yet.
    const inviteeEmail = 'issuer@acme.test'
    await request(api.app)
      .post(`/v1/orgs/${orgId}/invitations`)
      .set(auth)
      .send({ invitations: [{ email: inviteeEmail, orgRoleId: [roleId('member')] }] })
      .expect(201)
    const invitationMail = await smtp.waitForMail(inviteeEmail, { timeoutMs: 15_000 })
    expect(invitationMail.text).toContain('Acme Credentials')

    // The invitee signs up, finds the invitation and accepts it.
    const invitee = await verifyAndSignUp(inviteeEmail, 'Ivan')
    const inviteeToken = (await signIn(inviteeEmail, invitee.password)).access
    const inviteeAuth = { Authorization: `Bearer ${inviteeToken}` }
    const own = await request(api.app).get('/v1/users/invitations').set(inviteeAuth).expect(200)
    const invitationId = own.body.data.data[0].id as string
    expect(invitationMail.text).toContain(invitationId)
    await request(api.app)
      .put(`/v1/users/invitations/${invitationId}`)
      .set(inviteeAuth)
      .send({ status: 'accepted' })
      .expect(200)
    await request(api.app).get(`/v1/orgs/${orgId}`).set(inviteeAuth).expect(200)
    await request(api.app).get(`/v1/orgs/${orgId}/roles`).set(inviteeAuth).expect(403)

    // Role change: the member becomes an admin and may now read the role list.
    await request(api.app)
      .put(`/v1/orgs/${orgId}/user-roles/${invitee.userId}`)
      .set(auth)
      .send({ orgRoleId: [roleId('admin')] })
      .expect(200)
    await request(api.app).get(`/v1/orgs/${orgId}/roles`).set(inviteeAuth).expect(200)

    // Client credentials → M2M token → a call scoped to the organization.
    const credentials = await request(api.app).post(`/v1/orgs/${orgId}/client_credentials`).set(auth).expect(201)
    const { clientId, clientSecret } = credentials.body.data as { clientId: string; clientSecret: string }
    const exchange = await request(api.app).post(`/v1/orgs/${clientId}/token`).send({ clientSecret })
    expect([200, 201]).toContain(exchange.status)
    expect(exchange.headers['set-cookie']?.[0]).toMatch(/^session_id=.+HttpOnly/i)
    const m2m = { Authorization: `Bearer ${exchange.body.data.access_token as string}` }
    const read = await request(api.app).get(`/v1/orgs/${orgId}`).set(m2m).expect(200)
    expect(read.body.data.name).toBe('Acme Credentials')
    const stored = await request(api.app).get(`/v1/orgs/${orgId}/client_credentials`).set(auth).expect(200)
    expect(JSON.stringify(stored.body)).not.toContain(clientSecret)
  })
})
