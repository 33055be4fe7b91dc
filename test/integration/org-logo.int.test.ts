import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { Organization } from '../../api/src/modules/orgs/organization.entity'

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const svgUri = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`

/** Issue 8, item 8: the SVGs that passed the old filter, and a PNG cut short. */
const ATTACKS: [string, string][] = [
  [
    'a namespaced script',
    svgUri(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/2000/svg"><x:script>alert(1)</x:script></svg>',
    ),
  ],
  [
    'an entity-encoded javascript: link',
    svgUri(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="&#106;avascript:alert(1)"><rect width="9" height="9"/></a></svg>',
    ),
  ],
  [
    'an external image',
    svgUri(
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="https://attacker.example/t.png" width="9" height="9"/></svg>',
    ),
  ],
  [
    'an XXE DOCTYPE',
    svgUri(
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>&x;</text></svg>',
    ),
  ],
  ['a truncated PNG', `data:image/png;base64,${Buffer.from(PNG_1X1, 'base64').subarray(0, 50).toString('base64')}`],
]

describe('organization logos', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string

  beforeAll(async () => {
    api = await startApi()
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  })

  afterAll(async () => {
    await api?.stop()
  })

  it.each(ATTACKS)('refuses %s with a 400 naming the logo, on create and on update', async (_name, logo) => {
    const created = await request(api.app)
      .post('/v1/orgs')
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ name: 'Logo test', description: 'Logo test', logo })
    expect(created.status).toBe(400)
    expect(created.body.errors).toEqual([{ field: 'logo', message: expect.any(String) }])
    const updated = await request(api.app)
      .put(`/v1/orgs/${orgId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ logo })
    expect(updated.status).toBe(400)
  })

  it('says plainly that SVG is not accepted', async () => {
    const res = await request(api.app)
      .put(`/v1/orgs/${orgId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ logo: svgUri('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>') })
    expect(res.status).toBe(400)
    expect(res.body.errors[0].message).toMatch(/SVG logos are not accepted/)
  })

  it('never serves an SVG logo stored before SVG was refused from the public profile', async () => {
    const em = api.runtime.container.get(EntityManager).fork()
    const org = await em.findOneOrFail(Organization, orgId)
    org.logoUrl = ATTACKS[0]?.[1] ?? ''
    org.isPublic = true
    await em.flush()
    const profile = await request(api.app).get(`/v1/orgs/public-profiles/${org.slug}`).expect(200)
    expect(profile.body.data.logoUrl).toBe('')
    expect(profile.headers['x-content-type-options']).toBe('nosniff')
    const list = await request(api.app).get('/v1/orgs/public-profile').expect(200)
    expect(JSON.stringify(list.body)).not.toContain('image/svg')
  })

  it('keeps a valid PNG logo', async () => {
    const logo = `data:image/png;base64,${PNG_1X1}`
    await request(api.app)
      .put(`/v1/orgs/${orgId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ logo, isPublic: true })
      .expect(200)
    const org = await api.runtime.container.get(EntityManager).fork().findOneOrFail(Organization, orgId)
    const profile = await request(api.app).get(`/v1/orgs/public-profiles/${org.slug}`).expect(200)
    expect(profile.body.data.logoUrl).toBe(logo)
  })
})
