import request, { type Response } from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { signUpAndSignIn, TEST_PASSWORD } from '../helpers/auth-flow'

const SESSION = '/v1/auth/session'

/** The `idplane_refresh` Set-Cookie line of an answer, if any. */
function refreshCookieOf(answer: Response): string | undefined {
  const lines = answer.headers['set-cookie'] as unknown as string[] | undefined
  return (lines ?? []).find((line) => line.startsWith('idplane_refresh='))
}

/** `name=value` of a Set-Cookie line, as a browser sends it back. */
const cookieHeader = (line: string): string => line.split(';')[0] ?? ''

/**
 * The console's browser sessions (docs/decisions.md, "Console sessions"): the refresh token only in an HttpOnly,
 * SameSite=Strict cookie limited to /v1/auth/session; refresh rotates it; sign-out ends the session on the server.
 */
describe('browser sessions', () => {
  let api: TestApi
  let email: string

  beforeAll(async () => {
    api = await startApi()
    email = (await signUpAndSignIn(api.app, api.dataDir, `browser-${Date.now()}@example.test`)).email
  })

  afterAll(async () => {
    await api?.stop()
  })

  const signIn = () => request(api.app).post(SESSION).send({ email, password: TEST_PASSWORD }).expect(200)

  it('signs in with the refresh token in an HttpOnly, SameSite=Strict cookie scoped to the session routes only', async () => {
    const answer = await signIn()
    expect(answer.body.data).toEqual({
      access_token: expect.any(String),
      expires_in: expect.any(Number),
      token_type: 'Bearer',
    })
    expect(JSON.stringify(answer.body)).not.toMatch(/refresh/i)
    const cookie = refreshCookieOf(answer) ?? ''
    expect(cookie).toMatch(/; Path=\/v1\/auth\/session(;|$)/)
    expect(cookie).toMatch(/; HttpOnly(;|$)/)
    expect(cookie).toMatch(/; SameSite=Strict(;|$)/)
    expect(cookie).toMatch(/; Max-Age=\d+/)
    // Plain http (the embedded default URL): a Secure cookie would never come back.
    expect(cookie).not.toMatch(/; Secure/)
    expect(answer.headers['cache-control']).toBe('no-store')
    await request(api.app).get('/v1/orgs').set('Authorization', `Bearer ${answer.body.data.access_token}`).expect(200)
  })

  it('answers a wrong password with 401 and sets no cookie', async () => {
    const answer = await request(api.app).post(SESSION).send({ email, password: 'wrong-password-1' }).expect(401)
    expect(refreshCookieOf(answer)).toBeUndefined()
  })

  it('renews the access token with the cookie and rotates it; the old cookie used again ends the session', async () => {
    const first = refreshCookieOf(await signIn()) ?? ''
    const renewed = await request(api.app).post(`${SESSION}/refresh`).set('Cookie', cookieHeader(first)).expect(200)
    const second = refreshCookieOf(renewed) ?? ''
    expect(cookieHeader(second)).not.toBe(cookieHeader(first))
    const token = renewed.body.data.access_token as string
    await request(api.app).get('/v1/orgs').set('Authorization', `Bearer ${token}`).expect(200)

    // Reuse of a rotated token: the whole session ends, its newest cookie and access token included.
    const reused = await request(api.app).post(`${SESSION}/refresh`).set('Cookie', cookieHeader(first)).expect(401)
    expect(refreshCookieOf(reused)).toMatch(/^idplane_refresh=;.*Expires=Thu, 01 Jan 1970/)
    await request(api.app).post(`${SESSION}/refresh`).set('Cookie', cookieHeader(second)).expect(401)
    await request(api.app).get('/v1/orgs').set('Authorization', `Bearer ${token}`).expect(401)
  })

  it('answers 400 to a refresh without the cookie (a missing credential, as /auth/refresh-token without its field)', async () => {
    const answer = await request(api.app).post(`${SESSION}/refresh`).expect(400)
    expect(answer.body).toMatchObject({
      statusCode: 400,
      message: 'No browser session: sign in',
      errors: [{ field: 'idplane_refresh', message: 'cookie is missing' }],
    })
  })

  it('signs out: the cookie is cleared, its refresh token and the access token stop working', async () => {
    const session = await signIn()
    const cookie = cookieHeader(refreshCookieOf(session) ?? '')
    const token = session.body.data.access_token as string
    const out = await request(api.app).delete(SESSION).set('Cookie', cookie).expect(200)
    expect(out.body).toEqual({ statusCode: 200, message: 'Signed out' })
    expect(refreshCookieOf(out)).toMatch(/^idplane_refresh=;.*Path=\/v1\/auth\/session/)
    await request(api.app).post(`${SESSION}/refresh`).set('Cookie', cookie).expect(401)
    const refused = await request(api.app).get('/v1/orgs').set('Authorization', `Bearer ${token}`).expect(401)
    expect(refused.body.message).toMatch(/revoked/)
    // Signing out again, or without a session, is not an error.
    await request(api.app).delete(SESSION).set('Cookie', cookie).expect(200)
    await request(api.app).delete(SESSION).expect(200)
  })

  it('documents the three routes, with the cookie as a parameter and no refresh token in the answer', async () => {
    const doc = (await request(api.app).get('/api-json').expect(200)).body
    const session = doc.paths['/v1/auth/session']
    expect(Object.keys(session).sort()).toEqual(['delete', 'post'])
    expect(doc.paths['/v1/auth/session/refresh'].post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'cookie', name: 'idplane_refresh' })]),
    )
    expect(Object.keys(doc.components.schemas.BrowserSession.properties).sort()).toEqual([
      'access_token',
      'expires_in',
      'token_type',
    ])
  })
})

describe('browser sessions behind https', () => {
  it('marks the cookie Secure when the public URL is https', async () => {
    const api = await startApi({ API_PUBLIC_URL: 'https://id.example.test' })
    try {
      const { email } = await signUpAndSignIn(api.app, api.dataDir, `secure-${Date.now()}@example.test`)
      const answer = await request(api.app).post(SESSION).send({ email, password: TEST_PASSWORD }).expect(200)
      expect(refreshCookieOf(answer)).toMatch(/; Secure(;|$)/)
    } finally {
      await api.stop()
    }
  })
})
