import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { Ajv2020 } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { OrgDid } from '../../api/src/modules/orgs/org-did.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { CredentialSchemaCheck } from '../../api/src/modules/schemas/credential-schema-check'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

const PUBLIC_URL = 'https://id.example.test'

const ATTRIBUTES = [
  { attributeName: 'name', displayName: 'Full name', schemaDataType: 'string', isRequired: true, maxLength: 100 },
  { attributeName: 'age', displayName: 'Age', schemaDataType: 'integer', isRequired: false, minimum: 0 },
  { attributeName: 'birthDate', displayName: 'Birth date', schemaDataType: 'date', isRequired: false },
]

function aJsonSchemaBody(overrides: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) {
  return {
    type: 'JSON',
    schemaPayload: {
      schemaName: `Person ${randomUUID().slice(0, 8)}`,
      description: 'A person',
      schemaType: 'NO_LEDGER',
      attributes: ATTRIBUTES,
      ...payload,
    },
    ...overrides,
  }
}

describe('schemas', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string

  const as = (user: TestUser) => ({
    post: (path: string, body: unknown) =>
      request(api.app)
        .post(path)
        .set('Authorization', `Bearer ${user.token}`)
        .send(body as object),
    get: (path: string) => request(api.app).get(path).set('Authorization', `Bearer ${user.token}`),
  })

  beforeAll(async () => {
    api = await startApi({ API_PUBLIC_URL: PUBLIC_URL })
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  })

  afterAll(async () => {
    await api?.stop()
  })

  it('creates a JSON schema, publishes it at a public URL without a token, and reads it back', async () => {
    const em = api.runtime.container.get(EntityManager).fork()
    const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
    await em
      .persist(
        em.create(OrgDid, {
          organization: em.getReference(Organization, orgId),
          did,
          method: 'key',
          isPrimaryDid: true,
        }),
      )
      .flush()

    const res = await as(owner)
      .post(`/v1/orgs/${orgId}/schemas`, aJsonSchemaBody({ alias: 'people' }, { schemaVersion: '2.1' }))
      .expect(201)
    const record = res.body.data
    expect(res.body.statusCode).toBe(201)
    expect(record).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        schemaLedgerId: `${PUBLIC_URL}/schemas/${record.id}`,
        version: '2.1',
        attributes: ['name', 'age', 'birthDate'],
        createdBy: owner.id,
        publisherDid: did,
        issuerId: did,
        orgId,
        type: 'JSON',
        schemaType: 'NO_LEDGER',
        alias: 'people',
        createdAt: expect.any(String),
      }),
    )

    const published = await request(api.app).get(new URL(record.schemaLedgerId).pathname).expect(200)
    expect(published.headers['content-type']).toMatch(/^application\/schema\+json/)
    expect(published.headers['cache-control']).toMatch(/public, max-age=\d+/)
    expect(published.headers['access-control-allow-origin']).toBe('*')
    const etag = published.headers.etag
    expect(etag).toBeDefined()
    await request(api.app).get(new URL(record.schemaLedgerId).pathname).set('If-None-Match', etag).expect(304)
    const document = JSON.parse(published.text) as {
      $id: string
      $schema: string
      properties: { credentialSubject: { properties: Record<string, unknown>; required: string[] } }
    }
    expect(document.$id).toBe(record.schemaLedgerId)
    expect(document.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(document.properties.credentialSubject.properties.age).toEqual({ title: 'Age', type: 'integer', minimum: 0 })
    expect(document.properties.credentialSubject.required).toEqual(['name'])
    // The document is a valid draft 2020-12 schema any validator can compile.
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    expect(ajv.validateSchema(document)).toBe(true)

    const byId = await as(owner).get(`/v1/orgs/${orgId}/schemas/${record.id}`).expect(200)
    expect(byId.body.data).toEqual(
      expect.objectContaining({
        id: record.id,
        schemaId: record.schemaLedgerId,
        schema: { attrNames: ['name', 'age', 'birthDate'], name: record.name, version: '2.1', issuerId: did },
        attributeDefinitions: ATTRIBUTES,
        jsonSchema: document,
      }),
    )
    const byUrl = await as(owner)
      .get(`/v1/orgs/${orgId}/schemas/${encodeURIComponent(record.schemaLedgerId)}`)
      .expect(200)
    expect(byUrl.body.data.id).toBe(record.id)
  })

  it('answers 404 for an unknown published schema and a malformed public id', async () => {
    expect((await request(api.app).get(`/schemas/${randomUUID()}`).expect(404)).body.message).toMatch(/No schema/)
    await request(api.app).get('/schemas/not-a-uuid').expect(404)
  })

  it('validates credentials against a published schema through CredentialSchemaCheck', async () => {
    const record = (await as(owner).post(`/v1/orgs/${orgId}/schemas`, aJsonSchemaBody()).expect(201)).body.data
    const check = api.runtime.container.get(CredentialSchemaCheck)
    const credential = {
      '@context': ['https://www.w3.org/2018/credentials/v1'],
      type: ['VerifiableCredential'],
      issuer: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
      issuanceDate: '2026-11-24T10:00:00Z',
      credentialSchema: { id: record.schemaLedgerId, type: 'JsonSchema' },
      credentialSubject: { name: 'Alice', age: 30 },
    }
    await expect(check.check(orgId, credential)).resolves.toBeUndefined()
    await expect(check.check(orgId, { ...credential, credentialSubject: { age: -1 } })).rejects.toMatchObject({
      fields: expect.arrayContaining([
        { field: 'credentialSubject.name', message: 'is required' },
        { field: 'credentialSubject.age', message: 'must be >= 0' },
      ]),
    })
  })

  it('answers 400 naming the path of a bad attribute definition', async () => {
    const badAttributes = [
      { attributeName: 'age', displayName: 'Age', schemaDataType: 'number', isRequired: true, minLength: 1 },
      { attributeName: 'code', displayName: 'Code', schemaDataType: 'string', isRequired: true, pattern: '([a-z' },
      { attributeName: 'n', displayName: 'N', schemaDataType: 'integer', isRequired: true, minimum: 5, maximum: 1 },
    ]
    const res = await as(owner)
      .post(`/v1/orgs/${orgId}/schemas`, aJsonSchemaBody({}, { attributes: badAttributes }))
      .expect(400)
    expect(res.body.message).toContain('schemaPayload.attributes[0].minLength does not apply to schemaDataType number')
    expect(res.body.message).toContain('schemaPayload.attributes[1].pattern')
    expect(res.body.message).toContain('schemaPayload.attributes[2].minimum')

    for (const body of [
      { type: 'JSON' },
      aJsonSchemaBody({}, { schemaName: '' }),
      aJsonSchemaBody({}, { schemaType: 'SOMETHING' }),
      aJsonSchemaBody({}, { attributes: [] }),
      aJsonSchemaBody({ type: 'XML' }),
    ]) {
      const answer = await as(owner).post(`/v1/orgs/${orgId}/schemas`, body)
      expect({ body, status: answer.status }).toEqual({ body, status: 400 })
    }
  })

  it('answers 400 for a bad INDY payload, 404 for INDY without an agent, and 501 for Polygon schema types', async () => {
    const indy = await as(owner).post(`/v1/orgs/${orgId}/schemas`, {
      type: 'INDY',
      schemaPayload: { schemaName: 'x', schemaVersion: '1.0', attributes: [] },
    })
    expect(indy.status).toBe(400)
    expect(indy.body.message).toMatch(/schemaPayload\.attributes/)
    // INDY schemas are registered through the organization's agent (test/e2e/indy-definitions.e2e.test.ts).
    const withoutAgent = await as(owner).post(`/v1/orgs/${orgId}/schemas`, {
      type: 'INDY',
      schemaPayload: {
        schemaName: 'x',
        schemaVersion: '1.0',
        attributes: [{ attributeName: 'a', schemaDataType: 'string', displayName: 'A', isRequired: true }],
      },
    })
    expect(withoutAgent.status).toBe(404)
    expect(withoutAgent.body.message).toMatch(/no agent/)
    for (const schemaType of ['POLYGON_W3C', 'polygon']) {
      const polygon = await as(owner).post(`/v1/orgs/${orgId}/schemas`, aJsonSchemaBody({}, { schemaType }))
      expect(polygon.status).toBe(501)
      expect(polygon.body.message).toMatch(/Polygon network/)
    }
  })

  it('accepts the documented schemaType spellings (issue 22 item 5) and names them when another is given', async () => {
    for (const schemaType of ['NO_LEDGER', 'no_ledger', 'no-ledger', 'W3C', 'w3c']) {
      const res = await as(owner).post(`/v1/orgs/${orgId}/schemas`, aJsonSchemaBody({}, { schemaType }))
      expect({ schemaType, status: res.status, stored: res.body.data?.schemaType }).toEqual({
        schemaType,
        status: 201,
        stored: 'NO_LEDGER',
      })
    }
    const wrong = await as(owner).post(`/v1/orgs/${orgId}/schemas`, aJsonSchemaBody({}, { schemaType: 'W4C' }))
    expect(wrong.status).toBe(400)
    expect(wrong.body.errors).toEqual([
      {
        field: 'schemaPayload.schemaType',
        message: 'must be NO_LEDGER (also written no_ledger, or W3C); POLYGON_W3C and polygon answer 501',
      },
    ])
    const doc = (await request(api.app).get('/api-json').expect(200)).body
    expect(doc.components.schemas.CreateSchemaDto.properties.schemaPayload.properties.schemaType.enum).toEqual([
      'NO_LEDGER',
      'no_ledger',
      'W3C',
      'POLYGON_W3C',
      'polygon',
    ])
  })

  it('answers 409 for a second schema of the same name and version in the organization only', async () => {
    const body = aJsonSchemaBody()
    await as(owner).post(`/v1/orgs/${orgId}/schemas`, body).expect(201)
    expect((await as(owner).post(`/v1/orgs/${orgId}/schemas`, body).expect(409)).body.message).toMatch(/already exists/)
    await as(owner)
      .post(`/v1/orgs/${orgId}/schemas`, { ...body, schemaPayload: { ...body.schemaPayload, schemaVersion: '2.0' } })
      .expect(201)
    const other = await aUserWithToken(api)
    const otherOrg = await anOrganizationWith(api, [{ user: other, roles: ['admin'] }])
    const created = await as(other).post(`/v1/orgs/${otherOrg}/schemas`, body).expect(201)
    expect(created.body.data.createdBy).toBe(other.id)
    expect(created.body.data.publisherDid).toBeNull()
  })

  it('pages, searches and sorts the list', async () => {
    const lister = await aUserWithToken(api)
    const listOrg = await anOrganizationWith(api, [{ user: lister, roles: ['admin'] }])
    const names = ['Bravo license', 'alpha Diploma', 'Charlie license', 'delta 100%_off']
    for (const name of names)
      await as(lister)
        .post(`/v1/orgs/${listOrg}/schemas`, aJsonSchemaBody({}, { schemaName: name }))
        .expect(201)
    const list = (query: string) =>
      as(lister)
        .get(`/v1/orgs/${listOrg}/schemas?${query}`)
        .expect(200)
        .then((res) => res.body.data)

    const newestFirst = await list('')
    expect(newestFirst.data.map((item: { name: string }) => item.name)).toEqual([...names].reverse())
    expect(newestFirst).toEqual(expect.objectContaining({ totalItems: 4, hasNextPage: false, lastPage: 1 }))

    const page = await list('pageSize=3&pageNumber=2&sortField=name&sortBy=ASC')
    expect(page).toEqual(
      expect.objectContaining({ totalItems: 4, hasPreviousPage: true, hasNextPage: false, previousPage: 1 }),
    )
    expect(page.data.map((item: { name: string }) => item.name)).toEqual(['delta 100%_off'])

    expect((await list('sortField=name&sortBy=DESC')).data[0].name).toBe('delta 100%_off')
    const search = await list('searchByText=LICENSE')
    expect(search.data.map((item: { name: string }) => item.name).sort()).toEqual(['Bravo license', 'Charlie license'])
    expect((await list('searchByText=100%25_')).totalItems).toBe(1)
    expect((await list('searchByText=%25')).totalItems).toBe(1)

    for (const query of ['pageSize=0', 'pageSize=101', 'pageNumber=0', 'sortField=password', 'sortBy=up']) {
      await as(lister).get(`/v1/orgs/${listOrg}/schemas?${query}`).expect(400)
    }
  })

  it('answers 400 for a malformed schema id and 404 for an absent one, on the read and the cred-defs list', async () => {
    const record = (await as(owner).post(`/v1/orgs/${orgId}/schemas`, aJsonSchemaBody()).expect(201)).body.data
    for (const suffix of ['', '/cred-defs']) {
      await as(owner).get(`/v1/orgs/${orgId}/schemas/not%20an%20id${suffix}`).expect(400)
      await as(owner).get(`/v1/orgs/${orgId}/schemas/${randomUUID()}${suffix}`).expect(404)
      await as(owner)
        .get(`/v1/orgs/${orgId}/schemas/${encodeURIComponent('https://elsewhere.example/schemas/x')}${suffix}`)
        .expect(404)
      await as(owner)
        .get(`/v1/orgs/${orgId}/schemas/${encodeURIComponent('Th7MpTaRZVRYnPiabds81Y:2:degree:1.0')}${suffix}`)
        .expect(404)
    }
    // Another organization's schema is absent here, though it is public at its URL.
    const other = await aUserWithToken(api)
    const otherOrg = await anOrganizationWith(api, [{ user: other, roles: ['owner'] }])
    await as(other).get(`/v1/orgs/${otherOrg}/schemas/${record.id}`).expect(404)

    const credDefs = await as(owner).get(`/v1/orgs/${orgId}/schemas/${record.id}/cred-defs?pageSize=5`).expect(200)
    expect(credDefs.body.data).toEqual(expect.objectContaining({ totalItems: 0, data: [], hasNextPage: false }))
  })

  it('lets issuers, verifiers and members read but only owners and admins create', async () => {
    const record = (await as(owner).post(`/v1/orgs/${orgId}/schemas`, aJsonSchemaBody()).expect(201)).body.data
    for (const role of ['issuer', 'verifier', 'member'] as const) {
      const user = await aUserWithToken(api)
      const org = await anOrganizationWith(api, [
        { user: owner, roles: ['owner'] },
        { user, roles: [role] },
      ])
      await as(user).post(`/v1/orgs/${org}/schemas`, aJsonSchemaBody()).expect(403)
      await as(user).get(`/v1/orgs/${org}/schemas`).expect(200)
    }
    const holder = await aUserWithToken(api)
    const holderOrg = await anOrganizationWith(api, [{ user: holder, roles: ['holder'] }])
    await as(holder).get(`/v1/orgs/${holderOrg}/schemas`).expect(403)
    expect(record.id).toBeDefined()
  })

  it('counts schemas on the dashboard and in the activity counts, and deletes them with their organization', async () => {
    const user = await aUserWithToken(api)
    const org = await anOrganizationWith(api, [{ user, roles: ['owner'] }])
    const record = (await as(user).post(`/v1/orgs/${org}/schemas`, aJsonSchemaBody()).expect(201)).body.data
    expect((await as(user).get(`/v1/orgs/dashboard/${org}`).expect(200)).body.data).toEqual(
      expect.objectContaining({ schemas: 1 }),
    )
    expect((await as(user).get(`/v1/orgs/activity-count/${org}`).expect(200)).body.data).toEqual(
      expect.objectContaining({ schemas: 1 }),
    )
    await request(api.app).delete(`/v1/orgs/${org}`).set('Authorization', `Bearer ${user.token}`).expect(200)
    await request(api.app).get(new URL(record.schemaLedgerId).pathname).expect(404)
  })
})
