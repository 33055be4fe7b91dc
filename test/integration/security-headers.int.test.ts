import express from 'express'
import helmet from 'helmet'
import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { aUser } from '../helpers/auth-flow'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'
import { createMetricsApp } from '../../api/src/infra/http/metrics'
import { HELMET_OPTIONS } from '../../api/src/infra/http/security-headers'
import { Registry } from 'prom-client'

/** Issue 8, item 12: security headers on every response, no caching of tokens, /metrics on its own port by setting. */
function expectSecurityHeaders(res: request.Response): void {
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  expect(res.headers['x-frame-options']).toBe('DENY')
  expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/)
  expect(res.headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/)
  expect(res.headers['x-powered-by']).toBeUndefined()
}

describe('security headers', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi()
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('sends nosniff, frame denial and a CSP on JSON answers, errors and the explorer', async () => {
    expectSecurityHeaders(await request(api.app).get('/health/live').expect(200))
    expectSecurityHeaders(await request(api.app).get('/v1/orgs').expect(401))
    expectSecurityHeaders(await request(api.app).get('/nowhere').expect(404))
    expectSecurityHeaders(await request(api.app).get('/api/').expect(200))
    expectSecurityHeaders(await request(api.app).get('/api-json').expect(200))
  })

  it('answers sign-in and refresh with Cache-Control: no-store', async () => {
    const user = await aUser(api)
    const signIn = await request(api.app)
      .post('/v1/auth/signin')
      .send({ email: user.email, password: user.password })
      .expect(200)
    expect(signIn.headers['cache-control']).toBe('no-store')
    const refreshed = await request(api.app)
      .post('/v1/auth/refresh-token')
      .send({ refreshToken: signIn.body.data.refresh_token })
      .expect(200)
    expect(refreshed.headers['cache-control']).toBe('no-store')
  })

  it('answers the client credentials and the machine-to-machine token with Cache-Control: no-store', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const generated = await request(api.app)
      .post(`/v1/orgs/${orgId}/client_credentials`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(201)
    expect(generated.headers['cache-control']).toBe('no-store')
    const token = await request(api.app)
      .post(`/v1/orgs/${generated.body.data.clientId}/token`)
      .send({ clientSecret: generated.body.data.clientSecret })
      .expect(200)
    expect(token.headers['cache-control']).toBe('no-store')
  })

  it('sends every header helmet sends with the same options, read once at start-up', async () => {
    // The set helmet's own middlewares write on a real response, against the API's answer.
    const reference = express()
    reference.disable('x-powered-by')
    reference.use(helmet(HELMET_OPTIONS))
    reference.get('/', (_req, res) => void res.end())
    const expected = (await request(reference).get('/').expect(200)).headers
    const answer = (await request(api.app).get('/health/live').expect(200)).headers
    const ignored = new Set(['date', 'connection', 'content-length', 'content-type', 'x-request-id', 'cache-control'])
    const names = Object.keys(expected).filter((name) => !ignored.has(name))
    expect(names.length).toBeGreaterThanOrEqual(12)
    for (const name of names) expect([name, answer[name]]).toEqual([name, expected[name]])
    expect(answer['cache-control']).toBe('no-store')
  })

  it('tags only answers caches may keep: no ETag on a no-store answer, a tag and 304 on a public one', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const read = await request(api.app)
      .get(`/v1/orgs/${orgId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(read.headers['cache-control']).toBe('no-store')
    expect(read.headers.etag).toBeUndefined()
    expect((await request(api.app).get('/health/live').expect(200)).headers.etag).toBeUndefined()
  })

  it('serves /metrics on the main port while METRICS_PORT is unset', async () => {
    const res = await request(api.app).get('/metrics').expect(200)
    expect(res.text).toContain('idplane_api_http_request_duration_seconds')
  })
})

describe('metrics on their own port', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi({ METRICS_PORT: '9464' })
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('reads METRICS_PORT and no longer serves /metrics on the main port', async () => {
    expect(api.config.http.metricsPort).toBe(9464)
    await request(api.app).get('/metrics').expect(404)
  })

  it('serves the same registry from the metrics app', async () => {
    await request(api.app).get('/health/live').expect(200)
    const metrics = createMetricsApp(api.runtime.container.get<Registry>(Registry))
    const res = await request(metrics).get('/metrics').expect(200)
    expect(res.text).toContain('idplane_api_http_request_duration_seconds')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    await request(metrics).get('/v1/orgs').expect(404)
  })
})
