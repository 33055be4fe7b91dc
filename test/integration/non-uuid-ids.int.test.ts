import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

/** Ids that are no UUID: PostgreSQL refused them in a uuid column (22P02), which answered 500 (issue 22 item 6). */
const NOT_UUIDS = [
  'not-a-uuid',
  '12345',
  '5b6c2d9e-58a5-4a3b-9d0e-2f7d1b0d9a1',
  'Th7MpTaRZVRYnPiabds81Y:3:CL:12:default',
]

interface SchemaObject {
  $ref?: string
  type?: string
  enum?: unknown[]
  properties?: Record<string, SchemaObject>
  required?: string[]
  items?: SchemaObject
}

interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  template: string
  /** Query parameters the document declares. */
  query: { name: string; schema?: SchemaObject }[]
  /** The JSON body's schema, when it has one. */
  body?: SchemaObject
}

/**
 * A value the route's validation accepts for a member, so that the request reaches the service: ids (`...Id`,
 * `...Ids`) get the malformed id, others the first enum value or a plain value of their type.
 */
function valueFor(name: string, schema: SchemaObject | undefined, notUuid: string, schemaType: string): unknown {
  if (/Ids$/.test(name)) return [notUuid]
  if (/Id$/.test(name) || name === 'id') return notUuid
  if (name === 'schemaType') return schemaType
  if (name === 'credentialType') return schemaType === 'INDY' ? 'INDY' : 'JSONLD'
  if (schema?.enum?.length) return schema.enum[0]
  switch (schema?.type) {
    case 'boolean':
      return false
    case 'integer':
    case 'number':
      return 1
    case 'array':
      return []
    case 'object':
      return {}
    default:
      return 'x'
  }
}

/**
 * Issue 22 item 6 and its sweep: every route of the OpenAPI document, called by an owner of a real organization with
 * ids that are no UUID in its path, its query and its body, answers 4xx with a message, never 500.
 * DATABASE_URL / AMQP_URL choose PostgreSQL and RabbitMQ; without them PGlite and the in-process queue.
 */
describe('ids that are no UUID never reach the database', () => {
  let api: TestApi
  let routes: Route[]
  let owner: TestUser
  let orgId: string

  beforeAll(async () => {
    api = await startApi({ ECOSYSTEM_ENABLED: 'true' })
    const doc = await request(api.app).get('/api-json').expect(200)
    const components = (doc.body.components?.schemas ?? {}) as Record<string, SchemaObject>
    const deref = (schema: SchemaObject | undefined) =>
      schema?.$ref ? components[schema.$ref.split('/').pop() ?? ''] : schema
    type Operation = {
      parameters?: { in: string; name: string; schema?: SchemaObject }[]
      requestBody?: { content?: Record<string, { schema?: SchemaObject }> }
    }
    routes = Object.entries(doc.body.paths as Record<string, Record<string, Operation>>).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method as Route['method'],
        template: path,
        query: (operation.parameters ?? []).filter((param) => param.in === 'query'),
        body: deref(operation.requestBody?.content?.['application/json']?.schema),
      })),
    )
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  })

  afterAll(async () => {
    await api?.stop()
  })

  // About 1,000 requests in one test: more than the 60 s default on a loaded 2-core machine (52 s measured idle).
  it('answers 4xx with a message on every route', async () => {
    const failures: string[] = []
    const reached = new Set<number>()
    // The organization itself stays: deleting it would end the sweep early.
    const candidates = routes.filter((route) => !(route.method === 'delete' && route.template.endsWith('{orgId}')))
    expect(candidates.length).toBeGreaterThan(50)
    for (const route of candidates) {
      for (const notUuid of NOT_UUIDS) {
        // Both schema types only where a route takes one.
        const takesType =
          route.query.some((param) => param.name === 'schemaType') || route.body?.properties?.schemaType !== undefined
        for (const schemaType of takesType ? ['INDY', 'W3C'] : ['INDY']) {
          const path = route.template.replace(/\{(\w+)\}/g, (_match, name: string) =>
            name === 'orgId' ? orgId : encodeURIComponent(notUuid),
          )
          const query = Object.fromEntries(
            route.query.map((param) => [param.name, String(valueFor(param.name, param.schema, notUuid, schemaType))]),
          )
          const body = Object.fromEntries(
            Object.entries(route.body?.properties ?? {})
              .filter(([name]) => /Ids?$/.test(name) || name === 'id' || route.body?.required?.includes(name))
              .map(([name, schema]) => [name, valueFor(name, schema, notUuid, schemaType)]),
          )
          let req = request(api.app)[route.method](path).query(query).set('Authorization', `Bearer ${owner.token}`)
          if (route.method !== 'get' && route.method !== 'delete') req = req.send(body)
          const res = await req
          if (res.status >= 500 || (res.status >= 400 && typeof res.body?.message !== 'string'))
            failures.push(
              `${route.method.toUpperCase()} ${route.template} (${notUuid}, ${schemaType}): ${res.status} ${String(res.body?.message)}`,
            )
          reached.add(res.status)
        }
      }
    }
    expect(failures).toEqual([])
    // The sweep got past validation: services answered too (404 for ids of nothing, 400 for ids they refuse).
    expect(reached.has(404)).toBe(true)
  }, 300_000)

  it('downloads no template for a malformed id: 400 naming the field, not a database error', async () => {
    const url = `/v1/orgs/${orgId}/credentials/bulk/template`
    for (const schemaType of ['INDY', 'W3C']) {
      const res = await request(api.app)
        .post(url)
        .set('Authorization', `Bearer ${owner.token}`)
        .send({ templateId: 'not-a-uuid', schemaType })
        .expect(400)
      expect(res.body.errors).toEqual([{ field: 'templateId', message: 'is malformed' }])
    }
    // Well-formed ids of nothing here: 404 for a record id, a ledger id in either form, a schema URL.
    for (const [schemaType, templateId] of [
      ['INDY', '5b6c2d9e-58a5-4a3b-9d0e-2f7d1b0d9a10'],
      ['INDY', 'Th7MpTaRZVRYnPiabds81Y:3:CL:12:default'],
      ['INDY', 'did:indy:idplane:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/CLAIM_DEF/12/default'],
      ['W3C', '5b6c2d9e-58a5-4a3b-9d0e-2f7d1b0d9a10'],
    ]) {
      await request(api.app)
        .post(url)
        .set('Authorization', `Bearer ${owner.token}`)
        .send({ templateId, schemaType })
        .expect(404)
    }
    // The spec's name of the body member.
    await request(api.app)
      .post(url)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ credentialDefinitionId: 'Th7MpTaRZVRYnPiabds81Y:3:CL:12:default', schemaType: 'INDY' })
      .expect(404)
    const none = await request(api.app)
      .post(url)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ schemaType: 'INDY' })
      .expect(400)
    expect(none.body.errors).toEqual([{ field: 'credentialDefinitionId', message: 'is required' }])
  })
})
