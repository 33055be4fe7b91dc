import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { deleteApiQueues } from '../helpers/broker'
import { claimAgentPorts, freePort } from '../helpers/ports'
import { readLatestMail, type StoredMail } from '../../api/src/infra/mail/file-mailer'
import { spawnApi, type ApiProcess } from '../helpers/api-process'
import { waitUntil } from '../helpers/agent-process'
import { TEST_PASSWORD, verificationCodeOf } from '../helpers/auth-flow'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(900_000)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Answer {
  status: number
  body: { data?: Record<string, unknown>; message?: string }
}

async function call(url: string, method: string, route: string, body?: unknown, token?: string): Promise<Answer> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Answer['body'] }
}

/**
 * Issue 13, item 5: a credential definition's key generation survives a SIGKILL of the API. The built API runs as
 * a real process with its agent (embedded defaults, or PostgreSQL/RabbitMQ with DATABASE_URL/AMQP_URL); it is
 * killed right after answering 201 (the job queued or running; the agent, which ends with the API, is cut too),
 * then started again on the same data: the job resumes, the record ends `created`, and the ledger (the test
 * registry directory) holds exactly one definition for the schema and tag.
 */
describe('credential definition jobs across a SIGKILL of the API', () => {
  let dataDir: string
  let registryDir: string
  let database: FreshDatabase | undefined
  let env: Record<string, string>
  let api: ApiProcess | undefined
  let port: number

  beforeAll(async () => {
    buildPrograms()
    dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-cred-def-crash-'))
    registryDir = mkdtempSync(path.join(tmpdir(), 'idplane-cred-def-registry-'))
    database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    port = await freePort()
    env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      QUEUE_NAME_PREFIX: `test-${randomBytes(4).toString('hex')}.`,
      API_PUBLIC_URL: `http://127.0.0.1:${port}`,
      API_INTERNAL_URL: `http://127.0.0.1:${port}`,
      AGENT_POLL_ATTEMPTS: '240',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      AGENT_ANONCREDS_TEST_REGISTRY_DIR: registryDir,
      ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
    }
  })

  afterAll(async () => {
    await api?.kill('SIGKILL')
    // The agents end with the API (their stdin closes); give them a moment before their files go.
    await sleep(1000)
    await deleteApiQueues(env?.QUEUE_NAME_PREFIX)
    await database?.drop()
    for (const dir of [dataDir, registryDir]) if (dir) rmSync(dir, { recursive: true, force: true })
  })

  function running(): ApiProcess {
    if (!api) throw new Error('The API is not running')
    return api
  }

  async function waitForMail(email: string): Promise<StoredMail> {
    return waitUntil(async () => (await readLatestMail(dataDir, email)) ?? undefined, 30_000)
  }

  /** An owner with an organization and its agent, through the API's own routes. */
  async function anIssuer(url: string): Promise<{ token: string; orgId: string }> {
    const email = `owner-${randomBytes(4).toString('hex')}@example.test`
    expect((await call(url, 'POST', '/v1/auth/verification-mail', { email })).status).toBe(201)
    const code = verificationCodeOf(await waitForMail(email))
    expect((await call(url, 'GET', `/v1/auth/verify?email=${email}&verificationCode=${code}`)).status).toBe(200)
    const profile = { email, firstName: 'Ida', lastName: 'Issuer', password: TEST_PASSWORD }
    expect((await call(url, 'POST', '/v1/auth/signup', profile)).status).toBe(201)
    const signIn = await call(url, 'POST', '/v1/auth/signin', { email, password: TEST_PASSWORD })
    const token = (signIn.body.data as { access_token: string }).access_token
    const org = await call(url, 'POST', '/v1/orgs', { name: 'Crash Issuer', description: 'SIGKILL' }, token)
    const orgId = (org.body.data as { id: string }).id
    const spinUp = await call(url, 'POST', `/v1/orgs/${orgId}/agents/spinup`, { label: 'Crash', method: 'key' }, token)
    expect(spinUp.status).toBe(201)
    const health = await waitUntil(async () => {
      const res = await call(url, 'GET', `/v1/orgs/${orgId}/agents/health`, undefined, token)
      const status = (res.body.data as { status: string }).status
      return status === 'DID_CREATED' || status === 'FAILED' ? status : undefined
    }, 300_000)
    expect(health).toBe('DID_CREATED')
    return { token, orgId }
  }

  /** The credential definitions the shared registry directory holds, by id. */
  function ledgerDefinitions(): string[] {
    return readdirSync(registryDir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => (JSON.parse(readFileSync(path.join(registryDir, file), 'utf8')) as { id: string }).id)
      .filter((id) => id.includes(':3:CL:'))
  }

  it('resumes the job after the restart: one definition, the record created', async () => {
    api = await spawnApi(port, env)
    const { token, orgId } = await anIssuer(api.url)
    const schema = await call(
      api.url,
      'POST',
      `/v1/orgs/${orgId}/schemas`,
      {
        type: 'INDY',
        schemaPayload: {
          schemaName: 'Crash',
          schemaVersion: '1.0',
          attributes: [{ attributeName: 'name', schemaDataType: 'string', displayName: 'Name', isRequired: true }],
        },
      },
      token,
    )
    expect(schema.status).toBe(201)
    const schemaLedgerId = schema.body.data?.schemaLedgerId as string

    const created = await call(api.url, 'POST', `/v1/orgs/${orgId}/cred-defs`, { tag: 'crash', schemaLedgerId }, token)
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ status: 'creating' })
    const recordId = created.body.data?.id as string
    // Key generation takes a second or more: the kill lands while the job runs (or before it started).
    await sleep(300)
    await running().kill('SIGKILL')
    const definitionsAtKill = ledgerDefinitions()
    console.log(`At the kill the ledger held ${definitionsAtKill.length} definition(s)`)

    api = await spawnApi(port, env)
    const record = await waitUntil(async () => {
      const res = await call(running().url, 'GET', `/v1/orgs/${orgId}/cred-defs/${recordId}`, undefined, token)
      expect(res.status).toBe(200)
      const data = res.body.data as { status: string; error: string | null }
      if (data.status === 'failed') throw new Error(`The job failed: ${data.error}`)
      return data.status === 'created' ? (res.body.data as { credentialDefinitionId: string }) : undefined
    }, 600_000)
    expect(ledgerDefinitions()).toEqual([record.credentialDefinitionId])
    const list = await call(running().url, 'GET', `/v1/orgs/${orgId}/cred-defs?revocable=false`, undefined, token)
    expect(list.body.data).toMatchObject({ totalItems: 1 })
    // A second request for the same schema and tag is still a conflict.
    const again = await call(
      running().url,
      'POST',
      `/v1/orgs/${orgId}/cred-defs`,
      { tag: 'crash', schemaLedgerId },
      token,
    )
    expect(again.status).toBe(409)
  })
})
