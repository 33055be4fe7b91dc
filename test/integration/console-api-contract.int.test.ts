import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { OpenAPIObject, OperationObject, SchemaObject } from 'openapi3-ts'
import request from 'supertest'
import { startApi, type TestApi } from '../helpers/api'
import { undocumentedCalls } from '../helpers/openapi-contract'

const execFileAsync = promisify(execFile)
const ROOT = path.join(__dirname, '..', '..')
const COMMITTED_TYPES = path.join(ROOT, 'console', 'src', 'api', 'openapi.d.ts')
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')

/**
 * Issue 26, "How it is checked": a console call using a route or field absent from the OpenAPI document fails. The
 * console's client is typed by types generated from the document (scripts/build-console.mjs), so this type-checks the
 * console against types generated from the document the API builds now, and against altered documents, which must
 * fail where the console uses what was taken away.
 */
describe("the console's API client against the OpenAPI document", () => {
  let api: TestApi
  let doc: OpenAPIObject
  let dir: string

  beforeAll(async () => {
    api = await startApi()
    doc = (await request(api.app).get('/api-json').expect(200)).body as OpenAPIObject
    // Inside the repository, so that the copy resolves preact and openapi-fetch from its node_modules.
    dir = mkdtempSync(path.join(ROOT, '.console-contract-'))
  })

  afterAll(async () => {
    await api?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  /** Type-checks a copy of the console whose client types come from `document`; resolves with tsc's output. */
  async function typeCheckAgainst(name: string, document: OpenAPIObject): Promise<{ ok: boolean; output: string }> {
    const copy = path.join(dir, name)
    cpSync(path.join(ROOT, 'console'), copy, { recursive: true })
    const documentFile = path.join(dir, `${name}.json`)
    writeFileSync(documentFile, JSON.stringify(document))
    await execFileAsync(process.execPath, [
      path.join(ROOT, 'scripts', 'build-console.mjs'),
      '--types',
      documentFile,
      path.join(copy, 'src', 'api', 'openapi.d.ts'),
    ])
    try {
      await execFileAsync(process.execPath, [TSC, '-p', path.join(copy, 'tsconfig.json')], { cwd: copy })
      return { ok: true, output: '' }
    } catch (error) {
      const failure = error as { stdout?: string; stderr?: string }
      return { ok: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` }
    }
  }

  it('has the committed client types generated from the current document', async () => {
    const documentFile = path.join(dir, 'current.json')
    const generated = path.join(dir, 'current.d.ts')
    writeFileSync(documentFile, JSON.stringify(doc))
    await execFileAsync(process.execPath, [
      path.join(ROOT, 'scripts', 'build-console.mjs'),
      '--types',
      documentFile,
      generated,
    ])
    // Out of date: run `node scripts/build.mjs` (it regenerates console/src/api/openapi.d.ts) and commit the file.
    expect(readFileSync(generated, 'utf8') === readFileSync(COMMITTED_TYPES, 'utf8')).toBe(true)
  })

  it('type-checks the console against the current document', async () => {
    const result = await typeCheckAgainst('current', doc)
    expect(result.output).toBe('')
    expect(result.ok).toBe(true)
  }, 120_000)

  it('fails where the console uses a route or a field the document no longer has', async () => {
    const altered = structuredClone(doc)
    // A route the console calls (schema creation) and a field it reads (a credential definition's status). A body
    // field the document drops is not a type error (openapi-fetch's body type takes extra keys); the browser test
    // checks every body the console sends against the document instead.
    delete (altered.paths['/v1/orgs/{orgId}/schemas'] as Record<string, OperationObject>).post
    const credDef = altered.components?.schemas?.CredentialDefinition as SchemaObject
    delete credDef.properties?.status
    credDef.required = (credDef.required ?? []).filter((field) => field !== 'status')

    const result = await typeCheckAgainst('altered', altered)
    expect(result.ok).toBe(false)
    expect(result.output).toMatch(/schema-builder\.tsx\(\d+,\d+\): error [^\n]*"\/v1\/orgs\/\{orgId\}\/schemas"/)
    expect(result.output).toMatch(/cred-defs\.tsx\(\d+,\d+\): error [^\n]*'status'/)
  }, 120_000)

  it('finds calls the document does not describe (the check the browser test applies to every console request)', () => {
    expect(
      undocumentedCalls(doc, [
        { method: 'GET', path: '/v1/orgs/public-profile', query: ['pageSize'], bodyKeys: [] },
        {
          method: 'POST',
          path: `/v1/orgs/${crypto.randomUUID()}/cred-defs`,
          query: [],
          bodyKeys: ['tag', 'schemaLedgerId'],
        },
      ]),
    ).toEqual([])
    expect(
      undocumentedCalls(doc, [
        { method: 'GET', path: '/v1/orgs/x/no-such-thing', query: [], bodyKeys: [] },
        { method: 'GET', path: '/v1/orgs', query: ['colour'], bodyKeys: [] },
        { method: 'POST', path: '/v1/orgs/x/cred-defs', query: [], bodyKeys: ['tag', 'tagg'] },
      ]),
    ).toEqual([
      'GET /v1/orgs/x/no-such-thing: no such operation',
      'GET /v1/orgs: query parameter colour is not documented',
      'POST /v1/orgs/{orgId}/cred-defs: body field tagg is not documented',
    ])
  })
})
