import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { ShortUrl } from '../../api/src/modules/short-urls/short-url.entity'
import { ShortUrls, invitationIn } from '../../api/src/modules/short-urls/short-urls.service'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

const INVITATION = { '@type': 'https://didcomm.org/out-of-band/1.1/invitation', '@id': 'inv-1', label: 'Acme' }
const LONG_URL = `https://agent.example/invite?oob=${Buffer.from(JSON.stringify(INVITATION)).toString('base64url')}`

describe('short invitation links', () => {
  let api: TestApi
  let links: ShortUrls
  let orgId: string

  beforeAll(async () => {
    // With the console off a browser goes to the long URL; console.int.test.ts covers the console's redirect.
    api = await startApi({ API_PUBLIC_URL: 'https://id.example.test', CONSOLE_ENABLED: 'false' })
    links = api.runtime.container.get(ShortUrls)
    const owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  })

  afterAll(async () => {
    await api?.stop()
  })

  const pathOf = (shortUrl: string) => new URL(shortUrl).pathname

  it('answers an agent with the invitation JSON and redirects a browser to the long URL', async () => {
    const shortUrl = await links.shorten(LONG_URL, { orgId })
    expect(shortUrl).toMatch(/^https:\/\/id\.example\.test\/s\/[A-Za-z0-9_-]{22}$/)

    const json = await request(api.app).get(pathOf(shortUrl)).set('Accept', 'application/json').expect(200)
    expect(json.body).toEqual(INVITATION)
    expect(json.headers['cache-control']).toBe('no-store')

    const page = await request(api.app).get(pathOf(shortUrl)).set('Accept', 'text/html').expect(302)
    expect(page.headers.location).toBe(LONG_URL)
  })

  it('answers 404 with a message for an unknown, malformed or expired link', async () => {
    const unknown = await request(api.app).get('/s/AAAAAAAAAAAAAAAAAAAAAA').expect(404)
    expect(unknown.body.message).toMatch(/does not exist/)
    await request(api.app)
      .get(`/s/${'x'.repeat(40)}`)
      .expect(404)

    const shortUrl = await links.shorten(LONG_URL, { orgId })
    const em = api.runtime.container.get(EntityManager).fork()
    await em.nativeUpdate(ShortUrl, { code: pathOf(shortUrl).slice(3) }, { expiresAt: new Date(Date.now() - 1000) })
    const expired = await request(api.app).get(pathOf(shortUrl)).expect(404)
    expect(expired.body.message).toMatch(/expired/)
    expect(await em.count(ShortUrl, { code: pathOf(shortUrl).slice(3) })).toBe(0)
  })

  it('go with their organization', async () => {
    const owner = await aUserWithToken(api)
    const org = { id: await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }]) }
    const shortUrl = await links.shorten(LONG_URL, { orgId: org.id })
    await request(api.app).delete(`/v1/orgs/${org.id}`).set('Authorization', `Bearer ${owner.token}`).expect(200)
    await request(api.app).get(pathOf(shortUrl)).set('Accept', 'application/json').expect(404)
  })
})

describe('invitationIn', () => {
  it('reads the oob parameter and ignores what is not an invitation', () => {
    expect(invitationIn(LONG_URL)).toEqual(INVITATION)
    expect(invitationIn('https://agent.example/invite?c_i=' + Buffer.from('{"a":1}').toString('base64url'))).toEqual({
      a: 1,
    })
    expect(invitationIn('https://agent.example/invite')).toBeUndefined()
    expect(invitationIn('https://agent.example/invite?oob=%%%')).toBeUndefined()
    expect(invitationIn('not a url')).toBeUndefined()
    expect(invitationIn('https://a.example/?oob=' + Buffer.from('[1]').toString('base64url'))).toBeUndefined()
  })
})
