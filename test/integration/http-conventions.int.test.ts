import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { histogramLabelSets } from '../helpers/metrics'
import { aUserWithToken } from '../helpers/tokens'

describe('HTTP conventions', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi()
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('answers liveness and readiness with the envelope', async () => {
    const live = await request(api.app).get('/health/live').expect(200)
    expect(live.body).toEqual({ statusCode: 200, message: 'Alive', data: { status: 'up' } })
    const ready = await request(api.app).get('/health/ready').expect(200)
    expect(ready.body.data.database).toBe('up')
  })

  it('returns the JSON error body for unknown routes', async () => {
    const res = await request(api.app).get('/v1/nothing-here').expect(404)
    expect(res.body).toEqual({ statusCode: 404, message: 'Cannot GET /v1/nothing-here', error: 'Not Found' })
  })

  it('turns malformed JSON into a 400 without echoing it', async () => {
    const res = await request(api.app)
      .post('/health/live')
      .set('Content-Type', 'application/json')
      .send('{"secret": "abc"')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ statusCode: 400, message: 'Malformed JSON in request body', error: 'Bad Request' })
  })

  it('refuses oversized bodies with 413', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) })
    const res = await request(api.app).post('/health/live').set('Content-Type', 'application/json').send(big)
    expect(res.status).toBe(413)
    expect(res.body.error).toBe('Payload Too Large')
  })

  it('echoes a well-formed request id and generates one otherwise', async () => {
    const given = await request(api.app).get('/health/live').set('X-Request-Id', 'abc-123')
    expect(given.headers['x-request-id']).toBe('abc-123')
    const generated = await request(api.app).get('/health/live').set('X-Request-Id', 'bad id with spaces')
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('serves the OpenAPI document and Prometheus metrics with route templates', async () => {
    const doc = await request(api.app).get('/api-json').expect(200)
    expect(doc.body.openapi).toMatch(/^3\./)
    expect(doc.body.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    const metrics = await request(api.app).get('/metrics').expect(200)
    expect(metrics.text).toContain('idplane_api_http_request_duration_seconds_bucket')
    expect(metrics.text).toMatch(/route="\/health\/live"/)
    expect(metrics.text).toContain('idplane_api_process_cpu_seconds_total')
  })

  it('labels request durations with the template of the route the request matched, or unmatched', async () => {
    const user = await aUserWithToken(api)
    const orgId = randomUUID()
    // Also matches /v1/orgs/:orgId, registered after it.
    await request(api.app).get('/v1/orgs/public-profile').expect(200)
    await request(api.app).get('/v1/orgs/public-profiles/no-such-slug').expect(404)
    await request(api.app).post('/v1/orgs').set('Authorization', `Bearer ${user.token}`).send({ bogus: 1 }).expect(400)
    // Rejected by the JSON body parser before the router reaches any route.
    await request(api.app)
      .post('/v1/auth/verification-mail')
      .set('Content-Type', 'application/json')
      .send('{"email"')
      .expect(400)
    await request(api.app).get(`/v1/orgs/${orgId}`).expect(401)
    await request(api.app).get(`/v1/orgs/${orgId}`).set('Authorization', `Bearer ${user.token}`).expect(403)
    await request(api.app).get(`/v1/orgs/${orgId}/nothing-here`).expect(404)

    const metrics = await request(api.app).get('/metrics').expect(200)
    const labels = histogramLabelSets(metrics.text, 'idplane_api_http_request_duration_seconds')
    expect(labels).toEqual(
      expect.arrayContaining([
        { method: 'GET', route: '/v1/orgs/public-profile', status: '200' },
        { method: 'GET', route: '/v1/orgs/public-profiles/:orgSlug', status: '404' },
        { method: 'POST', route: '/v1/orgs', status: '400' },
        { method: 'POST', route: '/v1/auth/verification-mail', status: '400' },
        { method: 'GET', route: '/v1/orgs/:orgId', status: '401' },
        { method: 'GET', route: '/v1/orgs/:orgId', status: '403' },
        { method: 'GET', route: 'unmatched', status: '404' },
      ]),
    )
    expect(labels).not.toContainEqual({ method: 'GET', route: '/v1/orgs/:orgId', status: '200' })
    expect(labels.filter(({ route }) => route.includes(orgId) || route.includes('no-such-slug'))).toEqual([])
  })
})
