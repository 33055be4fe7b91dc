import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import request from 'supertest'
import { spawnAgent, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { startPlatform, type Platform } from '../helpers/platform'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'

jest.setTimeout(600_000)

interface Envelope<T> {
  data: T
}
interface Template {
  templateId: string
  schemaType: string
  name: string
  version: string
  schemaLedgerId: string
  credentialDefinitionId?: string
  columns: { name: string; dataType: string; isRequired: boolean }[]
}
interface Summary {
  requestId: string
  rows: number
  valid: number
  invalid: { count: number; rows: { row: number; column: string; reason: string }[] }
}
type HolderRecord = { id: string; state: string }

const attribute = (name: string, schemaDataType: string, isRequired = true) => ({
  attributeName: name,
  schemaDataType,
  displayName: `The ${name}`,
  isRequired,
})

/**
 * Issue 14 with INDY templates (issue 13 landed the ledger): the organization's credential definitions are its INDY
 * templates; the CSV's columns come from the definition's schema; values are checked as the schema's data types
 * say (number, date) and stay text; each valid row gets one mail whose link a holder agent follows to receive an
 * AnonCreds credential with the row's values. A template override whose schema has other attributes is refused.
 * The registry is the agents' test registry in a directory (the platform ledger's own path is tested by
 * ledger-indy and indy-exchanges); the SIGKILL/resume path is the W3C bulk e2e's, shared by both types.
 */
describe('bulk issuance of INDY credentials from CSV', () => {
  let platform: Platform
  let smtp: SmtpCapture
  let holder: SpawnedAgent
  let registryDir: string
  let owner: TestUser
  let orgId: string
  let definitionId: string
  let credentialDefinitionId: string
  let otherDefinitionId: string
  const tag = randomBytes(3).toString('hex')
  const address = (row: number) => `indy-bulk-${tag}-${row}@example.test`

  const call = (method: 'get' | 'post', route: string, body?: object) => {
    const req = request(platform.api.app)[method](route).set('Authorization', `Bearer ${owner.token}`)
    return body === undefined ? req : req.send(body)
  }

  /** An INDY schema and a credential definition of it, through the API; the definition's record once created. */
  async function definitionOf(
    name: string,
    attributes: object[],
  ): Promise<{ id: string; credentialDefinitionId: string }> {
    const schema = await call('post', `/v1/orgs/${orgId}/schemas`, {
      type: 'INDY',
      schemaPayload: { schemaName: name, schemaVersion: '1.0', attributes },
    }).expect(201)
    // The name has a space, as schema names may: the agent once refused to read such a schema id (400).
    const created = await call('post', `/v1/orgs/${orgId}/cred-defs`, {
      tag: 'bulk',
      schemaLedgerId: schema.body.data.schemaLedgerId,
    }).expect(201)
    return waitUntil(async () => {
      const current = (await call('get', `/v1/orgs/${orgId}/cred-defs/${created.body.data.id}`).expect(200)).body.data
      if (current.status === 'failed') throw new Error(`The job failed: ${current.error}`)
      return current.status === 'created' ? current : undefined
    }, 300_000)
  }

  beforeAll(async () => {
    registryDir = mkdtempSync(path.join(tmpdir(), 'bulk-indy-registry-'))
    smtp = await startSmtpCapture()
    platform = await startPlatform({ AGENT_ANONCREDS_TEST_REGISTRY_DIR: registryDir, SMTP_URL: smtp.url })
    owner = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Indy Bulk Issuer')
    holder = await spawnAgent({ label: 'bulk-indy-holder', env: { AGENT_ANONCREDS_TEST_REGISTRY_DIR: registryDir } })
    const diploma = await definitionOf(`Diploma ${tag}`, [
      attribute('name', 'string'),
      attribute('score', 'number'),
      attribute('graduated', 'date'),
      attribute('honours', 'string', false),
    ])
    definitionId = diploma.id
    credentialDefinitionId = diploma.credentialDefinitionId
    otherDefinitionId = (
      await definitionOf(`Badge ${tag}`, [attribute('name', 'string'), attribute('level', 'number')])
    ).id
  }, 600_000)

  afterAll(async () => {
    await holder?.stop()
    await platform?.stop()
    await smtp?.stop()
    if (registryDir) rmSync(registryDir, { recursive: true, force: true })
  }, 120_000)

  it('lists credential definitions as INDY templates and downloads the CSV of their schema', async () => {
    const list = await call('get', `/v1/orgs/${orgId}/credentials/bulk/template?schemaType=INDY`).expect(200)
    const templates = list.body.data.data as Template[]
    expect(list.body.data.totalItems).toBe(2)
    expect(templates.find((template) => template.templateId === definitionId)).toEqual({
      templateId: definitionId,
      schemaType: 'INDY',
      name: `Diploma ${tag}`,
      version: '1.0',
      schemaLedgerId: expect.stringContaining(':2:Diploma'),
      credentialDefinitionId,
      columns: [
        { name: 'email', dataType: 'email', isRequired: true },
        { name: 'name', dataType: 'string', isRequired: true, displayName: 'The name' },
        { name: 'score', dataType: 'number', isRequired: true, displayName: 'The score' },
        { name: 'graduated', dataType: 'date', isRequired: true, displayName: 'The graduated' },
        { name: 'honours', dataType: 'string', isRequired: false, displayName: 'The honours' },
      ],
    })
    // The W3C list does not show them.
    const w3c = await call('get', `/v1/orgs/${orgId}/credentials/bulk/template?schemaType=W3C`).expect(200)
    expect(w3c.body.data.totalItems).toBe(0)

    const file = await call('post', `/v1/orgs/${orgId}/credentials/bulk/template`, {
      templateId: definitionId,
      schemaType: 'INDY',
    }).expect(201)
    expect(file.headers['content-type']).toMatch(/^text\/csv/)
    expect(file.headers['content-disposition']).toMatch(
      /^attachment; filename="Diploma-[0-9a-f]+-1-0-bulk-template\.csv"$/,
    )
    expect(file.text).toBe('email,name,score,graduated,honours\r\n')
  })

  it('checks the rows, issues the valid ones by mail, and a holder receives each credential with its values', async () => {
    const lines = [
      'email,name,score,graduated,honours',
      `${address(2)},"Ann, the first",91.5,2024-06-30,cum laude`,
      `${address(3)},Bob,77,2024-07-01,`,
      `${address(4)},Cid,ninety,2024-07-01,`,
      `${address(5)},Dee,80,2023-02-29,`,
      `${address(6)},,80,2024-07-01,`,
      `${address(7)},Eve,012,2024-12-31,`,
    ]
    const upload = await request(platform.api.app)
      .post(`/v1/orgs/${orgId}/bulk/upload`)
      .query({ schemaType: 'INDY', templateId: definitionId })
      .set('Authorization', `Bearer ${owner.token}`)
      .attach('file', Buffer.from(`${lines.join('\r\n')}\r\n`), { filename: 'diplomas.csv', contentType: 'text/csv' })
      .expect(201)
    const summary = (upload.body as Envelope<Summary>).data
    expect(summary).toMatchObject({ rows: 6, valid: 3, invalid: { count: 3 } })
    expect(summary.invalid.rows).toEqual([
      { row: 4, column: 'score', reason: 'must be a number' },
      { row: 5, column: 'graduated', reason: 'must be a date (YYYY-MM-DD)' },
      { row: 6, column: 'name', reason: 'is required' },
    ])

    // An override whose schema has other attributes cannot sign these rows: 400 naming them, nothing queued.
    const override = await call(
      'post',
      `/v1/orgs/${orgId}/${summary.requestId}/bulk?templateId=${otherDefinitionId}&isValidateSchema=false`,
      {},
    ).expect(400)
    expect(JSON.stringify(override.body)).toContain('row 2, column level')
    expect(JSON.stringify(override.body)).toContain('row 2, column score')

    const executed = await call('post', `/v1/orgs/${orgId}/${summary.requestId}/bulk`, {
      platformName: 'Diplomas',
    }).expect(201)
    expect(executed.body.data.queuedNow).toBe(3)
    const done = await waitUntil(async () => {
      const progress = (await call('get', `/v1/orgs/${orgId}/bulk/${summary.requestId}`).expect(200)).body.data
      return progress.status === 'completed' ? progress : undefined
    }, 180_000)
    expect(done.counts).toEqual({ invalid: 3, pending: 0, queued: 0, sent: 3, failed: 0 })

    // One mail per valid row; none for the invalid ones.
    for (const row of [2, 3, 7]) await smtp.waitForMail(address(row), { timeoutMs: 60_000 })
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    for (const row of [2, 3, 7]) expect(smtp.messages.filter((mail) => mail.to.includes(address(row)))).toHaveLength(1)
    for (const row of [4, 5, 6]) expect(smtp.messages.some((mail) => mail.to.includes(address(row)))).toBe(false)

    // The issuer's records are INDY offers of the definition, one per recipient.
    const records = (await call('get', `/v1/orgs/${orgId}/credentials?pageSize=100`).expect(200)).body.data.data as {
      credentialType: string
      credentialDefinitionId: string
    }[]
    expect(records).toHaveLength(3)
    expect(records.every((record) => record.credentialType === 'INDY')).toBe(true)
    expect(records.every((record) => record.credentialDefinitionId === credentialDefinitionId)).toBe(true)

    // The holder follows Ann's link; the credential holds her row's values, text as written (an empty optional
    // cell is an empty value).
    const expected: Record<number, Record<string, string>> = {
      2: { name: 'Ann, the first', score: '91.5', graduated: '2024-06-30', honours: 'cum laude' },
      3: { name: 'Bob', score: '77', graduated: '2024-07-01', honours: '' },
      7: { name: 'Eve', score: '012', graduated: '2024-12-31', honours: '' },
    }
    for (const row of [2, 3, 7]) {
      const mail = smtp.messages.find((candidate) => candidate.to.includes(address(row)))
      const link = /(http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1]
      expect(link).toBeDefined()
      const received = await holder.call('POST', '/oob/receive-invitation-url', {
        invitationUrl: link,
        autoAcceptConnection: true,
        autoAcceptInvitation: true,
      })
      expect(received.status).toBe(201)
      const offer = await waitUntil(async () => {
        const list = await holder.call<Envelope<HolderRecord[]>>('GET', '/credentials?state=offer-received')
        for (const record of list.body.data) {
          const formData = await holder.call<Envelope<{ offerAttributes?: { name: string; value: string }[] }>>(
            'GET',
            `/credentials/${record.id}/form-data`,
          )
          const values = Object.fromEntries(
            (formData.body.data.offerAttributes ?? []).map((item) => [item.name, item.value]),
          )
          if (values.name === expected[row].name) return { record, values }
        }
        return undefined
      }, 60_000)
      expect(offer.values).toEqual(expected[row])
      expect(
        (await holder.call('POST', '/credentials/accept-offer', { credentialRecordId: offer.record.id })).status,
      ).toBe(201)
      await waitUntil(async () => {
        const record = await holder.call<Envelope<HolderRecord>>('GET', `/credentials/${offer.record.id}`)
        return record.body.data.state === 'done' ? true : undefined
      }, 60_000)
    }
    await waitUntil(async () => {
      const list = (await call('get', `/v1/orgs/${orgId}/credentials?pageSize=100`).expect(200)).body.data.data as {
        state: string
      }[]
      return list.every((record) => record.state === 'done') ? true : undefined
    }, 60_000)
  })

  it('refuses unknown INDY templates and a W3C request naming a credential definition', async () => {
    const unknown = await call('post', `/v1/orgs/${orgId}/credentials/bulk/template`, {
      templateId: '8c0d4a52-6a5e-4b8f-9d6c-3f1e2a7b9c10',
      schemaType: 'INDY',
    }).expect(404)
    expect(unknown.body.message).toMatch(/no credential definition with this id/)
    const asW3c = await call('post', `/v1/orgs/${orgId}/credentials/bulk/template`, {
      templateId: definitionId,
      schemaType: 'W3C',
    }).expect(404)
    expect(asW3c.body.message).toMatch(/no JSON schema with this id/)
  })
})
