import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { validate } from '@readme/openapi-parser'
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, SchemaObject } from 'openapi3-ts'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import request, { type Response } from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { TEST_PASSWORD, requestVerificationCode, waitForMail } from '../helpers/auth-flow'

const execFileAsync = promisify(execFile)
const ROOT = path.join(__dirname, '..', '..')
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

function operationsOf(doc: OpenAPIObject): { key: string; path: string; operation: OperationObject }[] {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    METHODS.flatMap((method) => {
      const operation = (item as Record<string, OperationObject | undefined>)[method]
      return operation ? [{ key: `${method.toUpperCase()} ${route}`, path: route, operation }] : []
    }),
  )
}

/** Issue 8, item 17: the document at /api-json describes every response, validates, and yields a typed client. */
describe('the OpenAPI document', () => {
  let api: TestApi
  let doc: OpenAPIObject
  let dir: string

  beforeAll(async () => {
    api = await startApi()
    doc = (await request(api.app).get('/api-json').expect(200)).body as OpenAPIObject
    dir = mkdtempSync(path.join(os.tmpdir(), 'idplane-openapi-'))
  })

  afterAll(async () => {
    await api?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('passes an OpenAPI validator', async () => {
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0])
    expect(result.valid ? [] : result.errors).toEqual([])
    expect(result.valid ? result.warnings : []).toEqual([])
  })

  it('gives every operation its success envelope with a documented data type', () => {
    const undocumented: string[] = []
    for (const { key, operation } of operationsOf(doc)) {
      const [status, success] = Object.entries(operation.responses).find(([code]) => code.startsWith('2')) ?? []
      expect(status).toBeDefined()
      const schema = (success as { content: Record<string, { schema: SchemaObject }> }).content['application/json']
        .schema
      expect(schema.required).toEqual(expect.arrayContaining(['statusCode', 'message']))
      if ((success as { description: string }).description !== 'Success') undocumented.push(key)
      const data = schema.properties?.data as SchemaObject | ReferenceObject | undefined
      if (data !== undefined && !('$ref' in data)) expect(Object.keys(data).length).toBeGreaterThan(0)
    }
    expect(undocumented).toEqual([])
    const signIn = doc.paths['/v1/auth/signin'].post as OperationObject
    expect(JSON.stringify(signIn.responses['200'])).toContain('#/components/schemas/SignInResult')
    const members = doc.paths['/v1/orgs/{orgId}/users'].get as OperationObject
    const page = (members.responses['200'] as { content: Record<string, { schema: SchemaObject }> }).content[
      'application/json'
    ].schema.properties?.data as SchemaObject
    expect(page.required).toEqual(expect.arrayContaining(['totalItems', 'hasNextPage', 'lastPage', 'data']))
  })

  it('lists the error responses that apply, each with the error body', () => {
    expect(doc.components?.schemas?.ErrorBody).toMatchObject({ required: ['statusCode', 'message', 'error'] })
    const errorsOf = (route: string, method: string): string[] =>
      Object.keys(((doc.paths[route] as Record<string, OperationObject>)[method] as OperationObject).responses)
        .filter((code) => !code.startsWith('2'))
        .sort()
    expect(errorsOf('/v1/orgs/{orgId}', 'get')).toEqual(['400', '401', '403', '404', '500'])
    expect(errorsOf('/v1/auth/signup', 'post')).toEqual(['400', '409', '429', '500'])
    expect(errorsOf('/v1/auth/signin', 'post')).toEqual(['400', '401', '429', '500'])
    // 422: an Idempotency-Key reused for another request (every authenticated JSON POST takes the header).
    expect(errorsOf('/v1/orgs/{orgId}/agents/spinup', 'post')).toEqual([
      '400',
      '401',
      '403',
      '404',
      '409',
      '422',
      '500',
    ])
    expect(errorsOf('/health/live', 'get')).toEqual(['500'])
    for (const { operation } of operationsOf(doc)) {
      expect(operation.responses['500']).toEqual({ $ref: '#/components/responses/InternalError' })
    }
    expect(JSON.stringify(doc.components?.responses?.NotFound)).toContain('#/components/schemas/ErrorBody')
  })

  it('declares path ids as uuids, but the ledger ids (issue 22 items 1 and 7)', () => {
    const ids = operationsOf(doc).flatMap(({ operation }) =>
      ((operation.parameters ?? []) as ParameterObject[]).filter(
        (param) => param.in === 'path' && /Id$/.test(param.name),
      ),
    )
    expect(ids.length).toBeGreaterThan(15)
    const ledgerIds = ids.filter((param) => ['schemaId', 'credDefId'].includes(param.name))
    // GET schemas/:schemaId, schemas/:schemaId/cred-defs, cred-defs/:credDefId.
    expect(ledgerIds.length).toBeGreaterThanOrEqual(3)
    for (const param of ids) {
      if (ledgerIds.includes(param)) {
        expect(param.schema).toEqual({ type: 'string', minLength: 1, maxLength: 2048 })
        expect(param.description).toMatch(/:3:CL:|:2:/)
      } else expect(param.schema).toEqual({ type: 'string', format: 'uuid' })
    }
  })

  it('leaves out internal routes and their DTOs', () => {
    expect(Object.keys(doc.paths).filter((route) => route.includes('internal'))).toEqual([])
    expect(Object.keys(doc.components?.schemas ?? {})).not.toContain('AgentEventDto')
  })

  it('describes what the API really answers: every status seen is documented and every body matches', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats(ajv)
    // Local refs point into the document: compile against a copy of its components under the id `doc`.
    const rebase = <T>(value: T): T =>
      JSON.parse(JSON.stringify(value).replaceAll('"#/components/', '"doc#/components/'))
    ajv.addSchema({ $id: 'doc', components: rebase(doc.components) })
    const problems: string[] = []
    const check = (method: string, route: string, res: Response): Response => {
      const operation = (doc.paths[route] as Record<string, OperationObject>)[method]
      let answer = operation?.responses[String(res.status)] as
        | ReferenceObject
        | { content?: Record<string, { schema: unknown }> }
      if (answer && '$ref' in answer) {
        answer = doc.components?.responses?.[answer.$ref.split('/').pop() ?? ''] as typeof answer
      }
      const schema = answer && !('$ref' in answer) ? answer.content?.['application/json']?.schema : undefined
      if (!schema) {
        problems.push(`${method} ${route} answered ${res.status}, which the document does not list`)
        return res
      }
      const validate = ajv.compile(rebase(schema) as object)
      if (!validate(res.body)) problems.push(`${method} ${route} ${res.status}: ${ajv.errorsText(validate.errors)}`)
      return res
    }
    const app = api.app
    const email = `doc-${Date.now()}@example.test`
    const inviteeEmail = `doc-invitee-${Date.now()}@example.test`

    check('get', '/health/live', await request(app).get('/health/live'))
    check('get', '/health/ready', await request(app).get('/health/ready'))
    check('get', '/v1/auth/clientAliases', await request(app).get('/v1/auth/clientAliases'))
    check('post', '/v1/auth/verification-mail', await request(app).post('/v1/auth/verification-mail').send({}))
    const code = await requestVerificationCode(app, api.dataDir, email)
    check('get', '/v1/auth/verify', await request(app).get('/v1/auth/verify').query({ email, verificationCode: code }))
    const body = { email, firstName: 'Doc', lastName: 'Reader', password: TEST_PASSWORD, isEmailVerified: true }
    check('post', '/v1/auth/signup', await request(app).post('/v1/auth/signup').send(body))
    check('post', '/v1/auth/signin', await request(app).post('/v1/auth/signin').send({ email, password: 'wrong' }))
    const signIn = check(
      'post',
      '/v1/auth/signin',
      await request(app).post('/v1/auth/signin').send({ email, password: TEST_PASSWORD }),
    )
    const refreshToken = signIn.body.data.refresh_token as string
    check('post', '/v1/auth/refresh-token', await request(app).post('/v1/auth/refresh-token').send({ refreshToken }))
    const auth = { Authorization: `Bearer ${signIn.body.data.access_token as string}` }

    check('get', '/v1/orgs', await request(app).get('/v1/orgs'))
    const org = check(
      'post',
      '/v1/orgs',
      await request(app)
        .post('/v1/orgs')
        .set(auth)
        .send({ name: `Doc ${Date.now()}`, description: 'Docs' }),
    )
    const orgId = org.body.data.id as string
    check('get', '/v1/orgs', await request(app).get('/v1/orgs').set(auth))
    check('get', '/v1/orgs/{orgId}', await request(app).get(`/v1/orgs/${orgId}`).set(auth))
    check('put', '/v1/orgs/{orgId}', await request(app).put(`/v1/orgs/${orgId}`).set(auth).send({ isPublic: true }))
    check('get', '/v1/orgs/dashboard/{orgId}', await request(app).get(`/v1/orgs/dashboard/${orgId}`).set(auth))
    check(
      'get',
      '/v1/orgs/activity-count/{orgId}',
      await request(app).get(`/v1/orgs/activity-count/${orgId}`).set(auth),
    )
    const roles = check('get', '/v1/orgs/{orgId}/roles', await request(app).get(`/v1/orgs/${orgId}/roles`).set(auth))
    check('get', '/v1/orgs/{orgId}/users', await request(app).get(`/v1/orgs/${orgId}/users`).set(auth))
    check('get', '/v1/orgs/{orgId}/dids', await request(app).get(`/v1/orgs/${orgId}/dids`).set(auth))
    check('get', '/v1/orgs/public-profile', await request(app).get('/v1/orgs/public-profile'))
    const slug = org.body.data.slug as string
    check('get', '/v1/orgs/public-profiles/{orgSlug}', await request(app).get(`/v1/orgs/public-profiles/${slug}`))
    check('get', '/v1/orgs/{orgId}/agents/health', await request(app).get(`/v1/orgs/${orgId}/agents/health`).set(auth))
    const generated = check(
      'post',
      '/v1/orgs/{orgId}/client_credentials',
      await request(app).post(`/v1/orgs/${orgId}/client_credentials`).set(auth),
    )
    check(
      'get',
      '/v1/orgs/{orgId}/client_credentials',
      await request(app).get(`/v1/orgs/${orgId}/client_credentials`).set(auth),
    )
    const { clientId, clientSecret } = generated.body.data as { clientId: string; clientSecret: string }
    check(
      'post',
      '/v1/orgs/{clientId}/token',
      await request(app).post(`/v1/orgs/${clientId}/token`).send({ clientSecret }),
    )

    const member = (roles.body.data as { id: string; name: string }[]).find((role) => role.name === 'member')
    const invitations = { invitations: [{ email: inviteeEmail, orgRoleId: [member?.id] }] }
    check(
      'post',
      '/v1/orgs/{orgId}/invitations',
      await request(app).post(`/v1/orgs/${orgId}/invitations`).set(auth).send(invitations),
    )
    const listed = check(
      'get',
      '/v1/orgs/{orgId}/invitations',
      await request(app).get(`/v1/orgs/${orgId}/invitations`).set(auth),
    )
    await waitForMail(api.dataDir, inviteeEmail) // the invitation mail, before the verification mail
    const inviteeCode = await requestVerificationCode(app, api.dataDir, inviteeEmail)
    await request(app).get('/v1/auth/verify').query({ email: inviteeEmail, verificationCode: inviteeCode }).expect(200)
    await request(app)
      .post('/v1/auth/signup')
      .send({ ...body, email: inviteeEmail })
      .expect(201)
    const invitee = await request(app).post('/v1/auth/signin').send({ email: inviteeEmail, password: TEST_PASSWORD })
    const inviteeAuth = { Authorization: `Bearer ${invitee.body.data.access_token as string}` }
    check('get', '/v1/users/invitations', await request(app).get('/v1/users/invitations').set(inviteeAuth))
    const invitationId = listed.body.data.data[0].id as string
    const accept = { status: 'accepted' }
    check(
      'put',
      '/v1/users/invitations/{invitationId}',
      await request(app).put(`/v1/users/invitations/${invitationId}`).set(inviteeAuth).send(accept),
    )
    check(
      'put',
      '/v1/users/invitations/{invitationId}',
      await request(app).put(`/v1/users/invitations/${invitationId}`).set(inviteeAuth).send(accept),
    )
    const inviteeId = (await request(app).get(`/v1/orgs/${orgId}/users`).set(auth)).body.data.data.find(
      (user: { email: string }) => user.email === inviteeEmail,
    ).id as string
    const userRoles = `/v1/orgs/${orgId}/user-roles/${inviteeId}`
    check(
      'put',
      '/v1/orgs/{orgId}/user-roles/{userId}',
      await request(app)
        .put(userRoles)
        .set(auth)
        .send({ orgRoleId: [member?.id] }),
    )
    // A member may not read the role definitions: 403.
    check('get', '/v1/orgs/{orgId}/roles', await request(app).get(`/v1/orgs/${orgId}/roles`).set(inviteeAuth))
    check('get', '/v1/orgs/{orgId}', await request(app).get(`/v1/orgs/${orgId}`))
    check('get', '/v1/orgs/{orgId}', await request(app).get(`/v1/orgs/${randomUUID()}`).set(auth))
    check('delete', '/v1/orgs/{orgId}', await request(app).delete(`/v1/orgs/${orgId}`).set(auth))
    // The ledger (modules/ledger): its genesis is there from the start, so every read has something to answer.
    check('get', '/v1/ledger', await request(app).get('/v1/ledger'))
    check('get', '/v1/ledger/transactions', await request(app).get('/v1/ledger/transactions'))
    check('get', '/v1/ledger/transactions/{seqNo}', await request(app).get('/v1/ledger/transactions/1'))
    check('get', '/v1/ledger/transactions/{seqNo}', await request(app).get('/v1/ledger/transactions/0'))
    check('get', '/v1/ledger/verify', await request(app).get('/v1/ledger/verify'))
    check('get', '/v1/ledger/schemas/{schema}', await request(app).get('/v1/ledger/schemas/x'))
    check('get', '/v1/ledger/cred-defs/{credDef}', await request(app).get('/v1/ledger/cred-defs/x'))
    const trustee = (await request(app).get('/v1/ledger')).body.data.trusteeDid as string
    check('get', '/v1/ledger/dids/{did}', await request(app).get(`/v1/ledger/dids/${trustee}`))
    check('get', '/v1/ledger/dids/{did}/state', await request(app).get(`/v1/ledger/dids/${trustee}/state`))
    check('get', '/v1/ledger/dids/{did}/state', await request(app).get('/v1/ledger/dids/x/state'))
    check('post', '/v1/ledger/nyms', await request(app).post('/v1/ledger/nyms').send({}))
    check('post', '/v1/ledger/transactions', await request(app).post('/v1/ledger/transactions').send({}))
    expect(problems).toEqual([])
  })

  it('generates a typed client that compiles, and rejects a wrong field', async () => {
    const docFile = path.join(dir, 'openapi.json')
    writeFileSync(docFile, JSON.stringify(doc))
    await execFileAsync(process.execPath, [
      path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
      docFile,
      '--output',
      path.join(dir, 'schema.ts'),
    ])
    const client = (dataField: string) => `
import type { paths } from './schema'

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never
declare function call<Response>(method: string, url: string, body?: unknown): Promise<Response>

type SignIn = paths['/v1/auth/signin']['post']
export async function signIn(
  body: Json<SignIn['requestBody']>,
): Promise<string> {
  const answer = await call<Json<SignIn['responses'][200]>>('POST', '/v1/auth/signin', body)
  return answer.data.access_token
}

type GetOrganization = paths['/v1/orgs/{orgId}']['get']
export async function organizationName(orgId: GetOrganization['parameters']['path']['orgId']): Promise<string> {
  const answer = await call<Json<GetOrganization['responses'][200]>>('GET', \`/v1/orgs/\${orgId}\`)
  const missing = await call<Json<GetOrganization['responses'][404]>>('GET', \`/v1/orgs/\${orgId}\`)
  return answer.data.${dataField} + missing.message
}

export const example = signIn({ email: 'owner@acme.test', password: 'correct horse 42 battery' })
`
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
    const compile = (file: string) =>
      execFileAsync(
        process.execPath,
        [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', file],
        {
          cwd: dir,
        },
      )
    writeFileSync(path.join(dir, 'client.ts'), client('name'))
    await compile('client.ts')
    writeFileSync(path.join(dir, 'wrong.ts'), client('nameOfTheOrganization'))
    const failure = (await compile('wrong.ts').then(
      () => undefined,
      (error: unknown) => error,
    )) as { stdout?: string } | undefined
    expect(failure?.stdout).toContain("Property 'nameOfTheOrganization' does not exist")
  }, 120_000)
})
