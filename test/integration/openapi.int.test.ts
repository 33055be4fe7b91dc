import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { validate } from '@readme/openapi-parser'
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, SchemaObject } from 'openapi3-ts'
import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'

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
    expect(errorsOf('/v1/orgs/{orgId}/agents/spinup', 'post')).toEqual(['400', '401', '403', '404', '409', '500'])
    expect(errorsOf('/health/live', 'get')).toEqual(['500'])
    for (const { operation } of operationsOf(doc)) {
      expect(operation.responses['500']).toEqual({ $ref: '#/components/responses/InternalError' })
    }
    expect(JSON.stringify(doc.components?.responses?.NotFound)).toContain('#/components/schemas/ErrorBody')
  })

  it('declares path ids as uuids', () => {
    const ids = operationsOf(doc).flatMap(({ operation }) =>
      ((operation.parameters ?? []) as ParameterObject[]).filter(
        (param) => param.in === 'path' && /Id$/.test(param.name),
      ),
    )
    expect(ids.length).toBeGreaterThan(15)
    for (const param of ids) expect(param.schema).toEqual({ type: 'string', format: 'uuid' })
  })

  it('leaves out internal routes and their DTOs', () => {
    expect(Object.keys(doc.paths).filter((route) => route.includes('internal'))).toEqual([])
    expect(Object.keys(doc.components?.schemas ?? {})).not.toContain('AgentEventDto')
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
