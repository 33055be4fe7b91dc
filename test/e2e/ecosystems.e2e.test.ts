import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { deleteApiQueues } from '../helpers/broker'
import { freePort } from '../helpers/ports'
import { spawnApi, type ApiProcess } from '../helpers/api-process'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { ECOSYSTEM_ROUTES } from '../helpers/ecosystem-fixtures'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'

jest.setTimeout(180_000)

/**
 * Issue 15, "How it is checked": the built API as a real process, three organizations of three people who signed
 * up through the mail flow; create, invite two, one accepts and one rejects, list members, set status, remove;
 * then the same platform restarted with the flag off answers 403 on every ecosystem route. Build first
 * (`node scripts/build.mjs`). Embedded defaults, or PostgreSQL/RabbitMQ when DATABASE_URL/AMQP_URL are set.
 */
const PASSWORD = 'correct-horse-42'

interface Envelope<T> {
  statusCode: number
  message: string
  data: T
}

interface Membership {
  ecosystemId: string
  orgId: string
  role: string
  status: string
}

interface Owner {
  email: string
  token: string
  orgId: string
  orgName: string
}

describe('ecosystems end to end: three organizations, then the flag turned off', () => {
  let smtp: SmtpCapture
  let database: FreshDatabase | undefined
  let dataDir: string
  let api: ApiProcess | undefined
  let env: Record<string, string>
  let port: number
  let lead: Owner
  let bob: Owner
  let carol: Owner
  let ecosystemId: string
  const ecosystemName = `Health ${randomBytes(3).toString('hex')}`

  beforeAll(async () => {
    smtp = await startSmtpCapture()
    database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    dataDir = mkdtempSync(path.join(tmpdir(), 'ecosystems-e2e-'))
    port = await freePort()
    env = {
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      API_PUBLIC_URL: `http://127.0.0.1:${port}`,
      QUEUE_NAME_PREFIX: `e2e-eco-${randomBytes(3).toString('hex')}.`,
      MAIL_OUTBOX_POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
      ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
    }
    api = await spawnApi(port, { ...env, ECOSYSTEM_ENABLED: 'true' })
  }, 120_000)

  afterAll(async () => {
    await api?.kill('SIGTERM')
    await smtp?.stop()
    await deleteApiQueues(env?.QUEUE_NAME_PREFIX)
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)

  async function call<T>(
    method: string,
    route: string,
    token?: string,
    body?: unknown,
  ): Promise<{ status: number; body: Envelope<T> }> {
    const res = await fetch(`http://127.0.0.1:${port}${route}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: (text.startsWith('{') ? JSON.parse(text) : { data: text }) as Envelope<T> }
  }

  /** Verification mail (read from the SMTP capture) → verify → sign-up → sign-in → a new organization. */
  async function signUpOwner(label: string): Promise<Owner> {
    const email = `${label}-${randomUUID().slice(0, 8)}@example.test`
    expect((await call('POST', '/v1/auth/verification-mail', undefined, { email })).status).toBe(201)
    const mail = await smtp.waitForMail(email, { timeoutMs: 20_000 })
    const code = /verificationCode=(\d+)/.exec(mail.text)?.[1]
    expect(code).toBeDefined()
    const verify = await call('GET', `/v1/auth/verify?email=${encodeURIComponent(email)}&verificationCode=${code}`)
    expect(verify.status).toBe(200)
    const profile = { email, firstName: label, lastName: 'Owner', password: PASSWORD, isEmailVerified: true }
    expect((await call('POST', '/v1/auth/signup', undefined, profile)).status).toBe(201)
    const signIn = await call<{ access_token: string }>('POST', '/v1/auth/signin', undefined, {
      email,
      password: PASSWORD,
    })
    expect(signIn.status).toBe(200)
    const token = signIn.body.data.access_token
    const orgName = `${label} Org ${randomBytes(2).toString('hex')}`
    const org = await call<{ id: string }>('POST', '/v1/orgs', token, { name: orgName, description: 'ecosystem e2e' })
    expect(org.status).toBe(201)
    return { email, token, orgId: org.body.data.id, orgName }
  }

  const members = async (): Promise<[string, string, string][]> => {
    const res = await call<{ data: Membership[] }>(
      'GET',
      `/v1/ecosystem/members?ecosystemId=${ecosystemId}`,
      lead.token,
    )
    expect(res.status).toBe(200)
    return res.body.data.data.map((row) => [row.orgId, row.role, row.status])
  }

  it('signs up three owners over HTTP, each with an organization', async () => {
    lead = await signUpOwner('Lead')
    bob = await signUpOwner('Bob')
    carol = await signUpOwner('Carol')
    expect(new Set([lead.orgId, bob.orgId, carol.orgId]).size).toBe(3)
  })

  it('creates an ecosystem, invites two organizations; one accepts, one rejects', async () => {
    const created = await call<{ id: string; leadOrgId: string; name: string }>(
      'POST',
      `/v1/ecosystem?orgId=${lead.orgId}`,
      lead.token,
      { name: ecosystemName, description: 'Hospitals and insurers' },
    )
    expect(created.status).toBe(201)
    expect(created.body.data).toEqual(expect.objectContaining({ name: ecosystemName, leadOrgId: lead.orgId }))
    ecosystemId = created.body.data.id

    for (const invited of [bob, carol]) {
      const res = await call<Membership>('POST', '/v1/ecosystem/invitation', lead.token, {
        ecosystemId,
        orgId: invited.orgId,
      })
      expect(res.status).toBe(201)
      expect(res.body.data).toEqual(
        expect.objectContaining({ orgId: invited.orgId, role: 'ECOSYSTEM_MEMBER', status: 'PENDING' }),
      )
      // The second mail to the owner (the first was the verification mail).
      const mail = await smtp.waitForMail(invited.email, { timeoutMs: 20_000, count: 2 })
      expect(mail.subject).toBe(`Invitation to join the ecosystem ${ecosystemName} on idplane`)
      expect(mail.text).toContain(`ecosystemId=${ecosystemId}&orgId=${invited.orgId}`)
    }
    expect(smtp.messages.filter((mail) => mail.to.includes(lead.email.toLowerCase()))).toHaveLength(1)

    // Only the invited organization answers its invitation.
    const answer = (owner: Owner, orgId: string, status: string) =>
      call<Membership>('PUT', `/v1/ecosystem/invitation/status?status=${status}`, owner.token, { ecosystemId, orgId })
    expect((await answer(carol, bob.orgId, 'accepted')).status).toBe(403)
    const accepted = await answer(bob, bob.orgId, 'accepted')
    expect(accepted.status).toBe(200)
    expect(accepted.body.data.status).toBe('ACCEPTED')
    const rejected = await answer(carol, carol.orgId, 'rejected')
    expect(rejected.status).toBe(200)
    expect(rejected.body.data.status).toBe('REJECTED')
    expect((await answer(carol, carol.orgId, 'accepted')).status).toBe(409)

    expect(await members()).toEqual([
      [lead.orgId, 'ECOSYSTEM_LEAD', 'ACCEPTED'],
      [bob.orgId, 'ECOSYSTEM_MEMBER', 'ACCEPTED'],
      [carol.orgId, 'ECOSYSTEM_MEMBER', 'REJECTED'],
    ])
    const bobsView = await call<{ data: { id: string; orgRole: string }[] }>(
      'GET',
      `/v1/ecosystem?orgId=${bob.orgId}`,
      bob.token,
    )
    expect(bobsView.status).toBe(200)
    expect(bobsView.body.data.data).toEqual([expect.objectContaining({ id: ecosystemId, orgRole: 'ECOSYSTEM_MEMBER' })])
  })

  it('sets member status and removes a member (lead only)', async () => {
    const body = { ecosystemId, orgIds: [bob.orgId] }
    expect((await call('PUT', '/v1/ecosystem/member/status?status=PENDING', bob.token, body)).status).toBe(403)
    const set = await call<Membership[]>('PUT', '/v1/ecosystem/member/status?status=PENDING', lead.token, body)
    expect(set.status).toBe(200)
    expect(set.body.data.map((row) => [row.orgId, row.status])).toEqual([[bob.orgId, 'PENDING']])
    expect((await members()).find(([orgId]) => orgId === bob.orgId)?.[2]).toBe('PENDING')

    expect((await call('DELETE', '/v1/ecosystem/member', bob.token, body)).status).toBe(403)
    const removed = await call('DELETE', '/v1/ecosystem/member', lead.token, body)
    expect(removed.status).toBe(200)
    expect(removed.body.message).toBe('1 organization removed from the ecosystem')
    expect((await members()).map(([orgId]) => orgId)).toEqual([lead.orgId, carol.orgId])
  })

  it('answers 403 "disabled" on every ecosystem route once restarted with the flag off', async () => {
    await api?.kill('SIGTERM')
    api = await spawnApi(port, { ...env, ECOSYSTEM_ENABLED: 'false' })
    // Same database: the owners' tokens and organizations still work.
    expect((await call('GET', `/v1/orgs/${lead.orgId}`, lead.token)).status).toBe(200)
    for (const route of ECOSYSTEM_ROUTES) {
      const url = route.path.replace(':ecosystemId', ecosystemId).replace(':orgId', lead.orgId)
      const query = `?orgId=${lead.orgId}&ecosystemId=${ecosystemId}&status=accepted`
      const body = route.method === 'get' ? undefined : { ecosystemId, orgId: lead.orgId, orgIds: [carol.orgId] }
      for (const token of [lead.token, undefined]) {
        const res = await call(route.method.toUpperCase(), `${url}${query}`, token, body)
        expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 403,
        })
        expect(res.body.message).toMatch(/ecosystem feature is disabled/)
      }
    }
    // Nothing changed behind the closed door.
    await api.kill('SIGTERM')
    api = await spawnApi(port, { ...env, ECOSYSTEM_ENABLED: 'true' })
    expect((await members()).map(([orgId]) => orgId)).toEqual([lead.orgId, carol.orgId])
  })
})
