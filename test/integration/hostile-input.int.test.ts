import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { OrgAgent } from '../../api/src/modules/agents/org-agent.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { hashToken, randomSecret } from '../../api/src/infra/crypto/token-hash'

/** Issue 8, Part 2, item 7: inputs that once answered 500 answer 400 with the error body. */
function expectBadRequest(res: request.Response): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status: 400,
    body: expect.objectContaining({ statusCode: 400, error: 'Bad Request', message: expect.any(String) }),
  })
  expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+/)
}

/** `{"a":{"a":...}}` nested `depth` levels, written by hand: JSON.stringify of such a value is what overflows. */
function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

describe('hostile input in the request pipeline', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string
  let eventToken: string

  beforeAll(async () => {
    api = await startApi()
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    eventToken = randomSecret()
    const em = api.runtime.container.get(EntityManager).fork()
    em.create(OrgAgent, {
      organization: em.getReference(Organization, orgId),
      label: 'Hostile input agent',
      runtime: 'process',
      encryptedApiKey: 'v1:unused',
      encryptedWalletKey: 'v1:unused',
      eventTokenHash: hashToken(eventToken),
    })
    await em.flush()
  })

  afterAll(async () => {
    await api?.stop()
  })

  const event = (overrides: Record<string, unknown> = {}) => ({
    id: `evt-${Math.random().toString(36).slice(2)}`,
    kind: 'connection',
    agentLabel: 'Hostile input agent',
    occurredAt: new Date().toISOString(),
    record: { state: 'completed' },
    ...overrides,
  })
  const postEvent = (body: string) =>
    request(api.app)
      .post('/v1/internal/agent-events')
      .set('Authorization', `Bearer ${eventToken}`)
      .set('Content-Type', 'application/json')
      .send(body)

  it('answers 400 to a NUL byte in a JSON body, without a token', async () => {
    expectBadRequest(
      await request(api.app)
        .post('/v1/auth/signin')
        .send({ email: 'someone@example.test', password: 'pass\u0000word' }),
    )
    expectBadRequest(
      await request(api.app).post('/v1/auth/verification-mail').send({ email: 'nul\u0000@example.test' }),
    )
  })

  it('answers 400 to a NUL byte in a JSON body with a token', async () => {
    expectBadRequest(
      await request(api.app)
        .post('/v1/orgs')
        .set('Authorization', `Bearer ${owner.token}`)
        .send({ name: 'Nul\u0000Org', description: 'a\u0000b' }),
    )
  })

  it('answers 400 to a NUL byte in a query string, without a token', async () => {
    expectBadRequest(await request(api.app).get('/v1/orgs/public-profile?search=a%00b'))
    expectBadRequest(await request(api.app).get('/v1/auth/verify?email=a%00b%40example.test&verificationCode=1'))
  })

  it('answers 400 to a NUL byte in a query string with a token', async () => {
    expectBadRequest(await request(api.app).get('/v1/orgs?search=%00').set('Authorization', `Bearer ${owner.token}`))
  })

  it('answers 400 to JSON nested 2,000 levels deep, and keeps answering', async () => {
    for (const path of ['/v1/auth/signin', '/v1/internal/agent-events']) {
      const res = await request(api.app)
        .post(path)
        .set('Authorization', `Bearer ${eventToken}`)
        .set('Content-Type', 'application/json')
        .send(nestedJson(2000))
      expectBadRequest(res)
    }
    const record = JSON.stringify(event()).replace('{"state":"completed"}', nestedJson(2000))
    expectBadRequest(await postEvent(record))
    expect((await request(api.app).get('/health/live')).status).toBe(200)
  })

  it('accepts JSON nested within the limit', async () => {
    const record = JSON.stringify(event()).replace('{"state":"completed"}', nestedJson(20))
    expect((await postEvent(record)).status).toBe(200)
  })

  it('answers 400 to __proto__ keys on the internal events route', async () => {
    const body = JSON.stringify(event()).replace('"kind"', '"__proto__":{"kind":"x"},"kind"')
    expectBadRequest(await postEvent(body))
    const inRecord = JSON.stringify(event()).replace('{"state":"completed"}', '{"__proto__":{"polluted":true}}')
    expectBadRequest(await postEvent(inRecord))
    const batch = `{"events":[${JSON.stringify(event()).replace('"kind"', '"__proto__":null,"kind"')}]}`
    expectBadRequest(await postEvent(batch))
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('answers 400 to dates that pass as ISO 8601 but are no date on the internal events route', async () => {
    for (const occurredAt of ['2026-W01', '2026-001', '2026-02-30T00:00:00Z', '+275760-09-14T00:00:00.001Z']) {
      expectBadRequest(await postEvent(JSON.stringify(event({ occurredAt }))))
    }
  })

  it('answers 400 to page numbers that are not plain decimal integers within the bound (item 15)', async () => {
    for (const query of [
      'pageNumber=1e21',
      'pageNumber=0x10',
      'pageSize=1e1',
      'pageNumber=1000001',
      'pageNumber=1.0',
    ]) {
      expectBadRequest(await request(api.app).get(`/v1/orgs/public-profile?${query}`))
    }
    const page = await request(api.app).get('/v1/orgs/public-profile?pageNumber=2&pageSize=5').expect(200)
    expect(page.body.data).toEqual(expect.objectContaining({ previousPage: 1, hasPreviousPage: true }))
  })

  it('still records a well-formed event', async () => {
    expect((await postEvent(JSON.stringify(event()))).status).toBe(200)
  })
})
