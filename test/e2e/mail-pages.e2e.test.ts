import type { Server } from 'node:http'
import type { Page } from 'playwright-core'
import request from 'supertest'
import { closeServer, freePort } from '../helpers/ports'
import { startApi, type TestApi } from '../helpers/api'
import { hasBrowser, launchBrowser } from '../helpers/browser'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

jest.setTimeout(180_000)

const describeWithBrowser = hasBrowser('mail pages browser test') ? describe : describe.skip

/** The first http(s) URL in a mail's text that starts with `base`. */
function linkIn(text: string, base: string): string {
  const link = text.split(/\s+/).find((word) => word.startsWith(base))
  if (!link) throw new Error(`No link to ${base} in the mail:\n${text}`)
  return link
}

/**
 * Issue 8, item 16: in embedded mode the links in mails point at the API itself (the default client alias);
 * following them in a browser must reach working pages, not a 404.
 */
describeWithBrowser('pages the mailed links open, in a browser', () => {
  let smtp: SmtpCapture
  let api: TestApi
  let server: Server
  let baseUrl: string
  let close: () => Promise<void>
  let page: Page
  const cspViolations: string[] = []

  beforeAll(async () => {
    smtp = await startSmtpCapture()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    api = await startApi({ SMTP_URL: smtp.url, API_PUBLIC_URL: baseUrl })
    server = await new Promise<Server>((resolve) => {
      const listening = api.app.listen(port, '127.0.0.1', () => resolve(listening))
    })
    const browser = await launchBrowser()
    close = () => browser.close()
    page = await browser.newPage()
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text())
    })
  })

  afterAll(async () => {
    await close?.()
    await closeServer(server)
    await api?.stop()
    await smtp?.stop()
  })

  it('verifies the address from the link in the verification mail', async () => {
    const email = 'newcomer@acme.test'
    await request(api.app).post('/v1/auth/verification-mail').send({ email }).expect(201)
    const mail = await smtp.waitForMail(email, { timeoutMs: 15_000 })
    const link = linkIn(mail.text, `${baseUrl}/verify-email-success?`)

    const opened = await page.goto(link)
    expect(opened?.status()).toBe(200)
    expect(opened?.headers()['content-security-policy']).toContain("default-src 'none'")
    await expect(page.locator('h1').textContent()).resolves.toBe('Verify your e-mail address')
    await expect(page.locator('body').textContent()).resolves.toContain(email)
    // The stylesheet is allowed by its hash: the page is styled, not just readable.
    await expect(page.evaluate('getComputedStyle(document.body).maxWidth')).resolves.toBe('672px')

    const [answer] = await Promise.all([page.waitForResponse(`${baseUrl}/verify-email-success`), page.click('button')])
    expect(answer.status()).toBe(200)
    await expect(page.locator('#result').textContent()).resolves.toContain(`${email} is verified`)
    await expect(page.locator('pre').textContent()).resolves.toContain(`${baseUrl}/v1/auth/signup`)

    // The address really is verified: sign-up with it succeeds.
    await request(api.app)
      .post('/v1/auth/signup')
      .send({ email, firstName: 'New', lastName: 'Comer', password: 'correct horse 42 battery', isEmailVerified: true })
      .expect(201)
  })

  it('says clearly when the code in the link is wrong', async () => {
    const email = 'typo@acme.test'
    await request(api.app).post('/v1/auth/verification-mail').send({ email }).expect(201)
    const link = new URL(linkIn((await smtp.waitForMail(email, { timeoutMs: 15_000 })).text, baseUrl))
    const code = link.searchParams.get('verificationCode') ?? ''
    link.searchParams.set('verificationCode', code.startsWith('0') ? `1${code.slice(1)}` : `0${code.slice(1)}`)

    await page.goto(link.toString())
    const [answer] = await Promise.all([page.waitForResponse(`${baseUrl}/verify-email-success`), page.click('button')])
    expect(answer.status()).toBe(400)
    await expect(page.locator('h1').textContent()).resolves.toBe('Verification failed')
    await expect(page.locator('#result').textContent()).resolves.toBe('Invalid verification code')
  })

  it('shows the invitation from the link in the invitation mail, and how to accept it', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const org = await request(api.app).get(`/v1/orgs/${orgId}`).set('Authorization', `Bearer ${owner.token}`)
    const roles = await request(api.app).get(`/v1/orgs/${orgId}/roles`).set('Authorization', `Bearer ${owner.token}`)
    const issuerRole = (roles.body.data as { id: string; name: string }[]).find((role) => role.name === 'issuer')
    const inviteeEmail = 'invitee@acme.test'
    await request(api.app)
      .post(`/v1/orgs/${orgId}/invitations`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ invitations: [{ email: inviteeEmail, orgRoleId: [issuerRole?.id] }] })
      .expect(201)
    const link = linkIn((await smtp.waitForMail(inviteeEmail, { timeoutMs: 15_000 })).text, `${baseUrl}/invitations?`)
    const invitationId = new URL(link).searchParams.get('invitationId')

    const opened = await page.goto(link)
    expect(opened?.status()).toBe(200)
    await expect(page.locator('#organization').textContent()).resolves.toBe(org.body.data.name)
    await expect(page.locator('#roles').textContent()).resolves.toBe('issuer')
    await expect(page.locator('#status').textContent()).resolves.toContain('pending')
    const accept = (await page.locator('#accept').textContent()) ?? ''
    expect(accept).toContain(`curl -X PUT '${baseUrl}/v1/users/invitations/${invitationId}'`)
    expect(accept).toContain(`'{"status":"accepted"}'`)

    // Doing what the page says accepts the invitation; the page then shows it as accepted.
    const invitee = await aUserWithToken(api, inviteeEmail)
    await request(api.app)
      .put(`/v1/users/invitations/${invitationId}`)
      .set('Authorization', `Bearer ${invitee.token}`)
      .send({ status: 'accepted' })
      .expect(200)
    await page.reload()
    await expect(page.locator('#status').textContent()).resolves.toContain('accepted')
  })

  it('shows a page, not a JSON 404, for a withdrawn invitation', async () => {
    const missing = await page.goto(`${baseUrl}/invitations?invitationId=7d4c1f8e-3f5a-4a7b-9c2d-0e1f2a3b4c5d`)
    expect(missing?.status()).toBe(404)
    await expect(page.locator('h1').textContent()).resolves.toBe('Invitation not found')
  })

  it('raised no Content-Security-Policy violation on any page', () => {
    expect(cspViolations).toEqual([])
  })
})
