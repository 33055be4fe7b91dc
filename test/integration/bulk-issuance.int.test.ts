import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { connect } from 'amqplib'
import { EntityManager } from '@mikro-orm/postgresql'
import { mailDirectory } from '../../api/src/infra/mail/file-mailer'
import { BulkRequest } from '../../api/src/modules/bulk-issuance/bulk-request.entity'
import { BULK_QUEUE, ROW_JOB_RETRY_DELAYS_MS } from '../../api/src/modules/bulk-issuance/bulk-execution.service'
import { DEAD_LETTER_SUFFIX } from '../../api/src/infra/queue/queue'
import { retryQueueName } from '../../api/src/infra/queue/amqp-message'
import { recordPlatformEvents } from '../helpers/platform-events'
import { startApi, type TestApi } from '../helpers/api'
import { cpuClock } from '../helpers/cpu-clock'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { aMember } from '../helpers/org-fixtures'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { claimAgentPorts, closeServer } from '../helpers/ports'

jest.setTimeout(60_000)

/** Platform events published by any module, as a webhook listener would get them. */
const published = recordPlatformEvents()

const ATTRIBUTES = [
  { attributeName: 'name', displayName: 'Name', schemaDataType: 'string', isRequired: true, maxLength: 40 },
  { attributeName: 'age', displayName: 'Age', schemaDataType: 'integer', isRequired: false, minimum: 0 },
  { attributeName: 'member', displayName: 'Member', schemaDataType: 'boolean', isRequired: false },
]
const BOUNDARY = 'bulk-test-boundary'

async function aJsonSchema(api: TestApi, user: TestUser, orgId: string): Promise<string> {
  const res = await request(api.app)
    .post(`/v1/orgs/${orgId}/schemas`)
    .set('Authorization', `Bearer ${user.token}`)
    .send({
      type: 'JSON',
      schemaPayload: {
        schemaName: `Member card ${randomUUID().slice(0, 6)}`,
        schemaType: 'NO_LEDGER',
        attributes: ATTRIBUTES,
      },
    })
    .expect(201)
  return (res.body.data as { id: string }).id
}

function upload(api: TestApi, user: TestUser, orgId: string, templateId: string, file: string | Buffer, query = {}) {
  return request(api.app)
    .post(`/v1/orgs/${orgId}/bulk/upload`)
    .query({ schemaType: 'W3C', templateId, ...query })
    .set('Authorization', `Bearer ${user.token}`)
    .attach('file', Buffer.isBuffer(file) ? file : Buffer.from(file), {
      filename: 'members.csv',
      contentType: 'text/csv',
    })
}

/** Removes this file's bulk queues from the broker (durable queues outlive the test; startApi removes only mail's). */
async function deleteBulkQueues(api: TestApi | undefined): Promise<void> {
  if (api?.config.queue.kind !== 'amqp') return
  const queue = `${api.config.queue.namePrefix}${BULK_QUEUE}`
  const connection = await connect(api.config.queue.url)
  try {
    const channel = await connection.createChannel()
    for (const name of [
      queue,
      `${queue}${DEAD_LETTER_SUFFIX}`,
      ...ROW_JOB_RETRY_DELAYS_MS.map((delay) => retryQueueName(queue, delay)),
    ]) {
      await channel.deleteQueue(name)
    }
    await channel.close()
  } finally {
    await connection.close()
  }
}

async function countRequests(api: TestApi): Promise<number> {
  return api.runtime.container.get(EntityManager).fork().count(BulkRequest, {})
}

describe('bulk issuance routes (no agent process)', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string
  let templateId: string

  beforeAll(async () => {
    api = await startApi({ BULK_MAX_FILE_BYTES: String(64 * 1024), BULK_MAX_ROWS: '20' })
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    templateId = await aJsonSchema(api, owner, orgId)
  })

  afterAll(async () => {
    await api?.stop()
    await deleteBulkQueues(api)
  })

  it('lists the organization JSON schemas as W3C templates with their columns; INDY lists credential definitions', async () => {
    const res = await request(api.app)
      .get(`/v1/orgs/${orgId}/credentials/bulk/template`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(res.body.data.totalItems).toBe(1)
    expect(res.body.data.data[0]).toMatchObject({
      templateId,
      schemaType: 'W3C',
      columns: [
        { name: 'email', isRequired: true },
        { name: 'name', dataType: 'string', isRequired: true },
        { name: 'age', dataType: 'integer', isRequired: false },
        { name: 'member', dataType: 'boolean', isRequired: false },
      ],
    })
    const indy = await request(api.app)
      .get(`/v1/orgs/${orgId}/credentials/bulk/template`)
      .query({ schemaType: 'INDY' })
      .set('Authorization', `Bearer ${owner.token}`)
    // The organization has no credential definition (INDY templates are tested end to end in bulk-indy e2e).
    expect(indy.status).toBe(200)
    expect(indy.body.data.totalItems).toBe(0)
  })

  it('downloads the template as a CSV attachment: email then one column per attribute', async () => {
    const res = await request(api.app)
      .post(`/v1/orgs/${orgId}/credentials/bulk/template`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ templateId, schemaType: 'W3C' })
    expect(res.status).toBe(201)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="Member-card-[A-Za-z0-9-]+-bulk-template\.csv"$/,
    )
    expect(res.text).toBe('email,name,age,member\r\n')
    for (const [body, status] of [
      [{ templateId: randomUUID(), schemaType: 'W3C' }, 404],
      // A JSON schema's id is no credential definition's.
      [{ templateId, schemaType: 'INDY' }, 404],
      [{ templateId }, 400],
      [{ templateId, schemaType: 'JSONLD' }, 400],
    ] as const) {
      const refused = await request(api.app)
        .post(`/v1/orgs/${orgId}/credentials/bulk/template`)
        .set('Authorization', `Bearer ${owner.token}`)
        .send(body)
      expect(refused.status).toBe(status)
    }
  })

  it('checks every row at upload and names the invalid ones by row, column and reason', async () => {
    const verifier = await aMember(api, orgId, ['verifier'])
    const file = [
      '\uFEFFname,email,age,member',
      'Ann,ann@example.test,30,true',
      'Bob,not-an-address,31,false',
      ',cy@example.test,5,',
      '"Doe, ""Di""",di@example.test,-4,yes',
      'Eve,eve@example.test,,',
    ].join('\r\n')
    const res = await upload(api, verifier, orgId, templateId, file)
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ fileName: 'members.csv', templateId, rows: 5, valid: 2 })
    expect(res.body.data.invalid).toEqual({
      count: 3,
      rows: [
        { row: 3, column: 'email', reason: 'is not an e-mail address' },
        { row: 4, column: 'name', reason: 'is required' },
        { row: 5, column: 'age', reason: 'must be >= 0' },
        { row: 5, column: 'member', reason: 'must be boolean' },
      ],
    })
    const progress = await request(api.app)
      .get(`/v1/orgs/${orgId}/bulk/${res.body.data.requestId}`)
      .query({ pageSize: 2, status: 'pending' })
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(progress.body.data).toMatchObject({
      status: 'uploaded',
      totalRows: 5,
      counts: { invalid: 3, pending: 2, queued: 0, sent: 0, failed: 0 },
      rows: { totalItems: 2, data: [{ row: 2, email: 'ann@example.test', status: 'pending' }, { row: 6 }] },
    })
  })

  it('does not check types with isValidateSchema=false, but still e-mails and required values', async () => {
    const res = await upload(api, owner, orgId, templateId, 'email,name,age\nann@example.test,Ann,old\nbad,,1\n', {
      isValidateSchema: 'false',
    })
    // `member` is optional; leaving its column out of the header is still a header mismatch.
    expect(res.status).toBe(400)
    const full = await upload(
      api,
      owner,
      orgId,
      templateId,
      'email,name,age,member\nann@example.test,Ann,old,x\nbad,,1,\n',
      {
        isValidateSchema: 'false',
      },
    )
    expect(full.status).toBe(201)
    expect(full.body.data).toMatchObject({ valid: 1, invalid: { count: 1 } })
    expect(full.body.data.invalid.rows).toEqual([
      { row: 3, column: 'email', reason: 'is not an e-mail address' },
      { row: 3, column: 'name', reason: 'is required' },
    ])
  })

  it('refuses malformed files with a clear 4xx and stores nothing', async () => {
    const before = await countRequests(api)
    const cases: [string, string | Buffer, number, RegExp][] = [
      ['binary data', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]), 400, /not UTF-8 text/],
      ['a missing column', 'email,name,age\na@example.test,A,1\n', 400, /member is missing/],
      ['an unknown column', 'email,name,age,member,extra\n', 400, /extra is not a column/],
      ['a repeated column', 'email,name,age,member,age\n', 400, /age appears twice/],
      ['an unterminated quote', 'email,name,age,member\na@example.test,"Ann,1,true\n', 400, /not valid CSV/],
      ['formulas', 'email,name,age,member\na@example.test,=SUM(A1:A2),1,true\n', 400, /formulas/],
      ['an empty file', '', 400, /empty/],
      ['too many rows', `email,name,age,member\n${'a@example.test,A,1,true\n'.repeat(21)}`, 400, /more than 20 rows/],
      [
        'too many bytes',
        `email,name,age,member\n${'a@example.test,A,1,true\n'.repeat(3000)}`,
        413,
        /larger than 65536 bytes/,
      ],
    ]
    for (const [what, file, status, message] of cases) {
      const res = await upload(api, owner, orgId, templateId, file)
      expect({ what, status: res.status, message: res.body.message }).toEqual({
        what,
        status,
        message: expect.stringMatching(message),
      })
    }
    const formula = await upload(
      api,
      owner,
      orgId,
      templateId,
      'email,name,age,member\n@x,ok,1,\nb@example.test,+1 555,2,\n',
    )
    expect(formula.body.errors).toEqual([
      { field: 'row 2, column email', message: expect.stringMatching(/formula/) },
      { field: 'row 3, column name', message: expect.stringMatching(/formula/) },
    ])
    const notMultipart = await request(api.app)
      .post(`/v1/orgs/${orgId}/bulk/upload`)
      .query({ schemaType: 'W3C', templateId })
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ file: 'email\n' })
    expect(notMultipart.status).toBe(400)
    const unknownTemplate = await upload(api, owner, orgId, randomUUID(), 'email,name,age,member\n')
    expect(unknownTemplate.status).toBe(404)
    const indy = await upload(api, owner, orgId, templateId, 'email\n', { schemaType: 'INDY' })
    expect(indy.status).toBe(404)
    expect(indy.body.message).toMatch(/no credential definition with this id/)
    expect(await countRequests(api)).toBe(before)
  })

  it('cuts off an endless upload at the size limit: 413 in well under a second of streaming', async () => {
    const server = api.app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    try {
      let sent = 0
      const started = Date.now()
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/v1/orgs/${orgId}/bulk/upload?schemaType=W3C&templateId=${templateId}`,
          headers: {
            Authorization: `Bearer ${owner.token}`,
            'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
            'Transfer-Encoding': 'chunked',
          },
        })
        req.on('response', (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.write(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="huge.csv"\r\n\r\nemail,name,age,member\n`,
        )
        const chunk = Buffer.from('a@example.test,A,1,true\n'.repeat(2700))
        // Up to 2 GB, as fast as the socket takes it, until the server answers.
        const pump = () => {
          while (sent < 2 * 1024 ** 3 && !req.destroyed) {
            sent += chunk.length
            if (!req.write(chunk)) return void req.once('drain', pump)
          }
        }
        pump()
      })
      expect(status).toBe(413)
      expect(sent).toBeLessThan(64 * 1024 * 1024)
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('answers 404 to executing an unknown request or one of an organization without an agent', async () => {
    const uploaded = await upload(
      api,
      owner,
      orgId,
      templateId,
      'email,name,age,member\na@example.test,A,1,true\n',
    ).expect(201)
    const execute = (requestId: string) =>
      request(api.app)
        .post(`/v1/orgs/${orgId}/${requestId}/bulk`)
        .set('Authorization', `Bearer ${owner.token}`)
        .send({})
    expect((await execute(randomUUID())).status).toBe(404)
    const noAgent = await execute(uploaded.body.data.requestId)
    expect(noAgent.status).toBe(404)
    expect(noAgent.body.message).toMatch(/no agent/)
    const other = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const foreign = await request(api.app)
      .get(`/v1/orgs/${other}/bulk/${uploaded.body.data.requestId}`)
      .set('Authorization', `Bearer ${owner.token}`)
    expect(foreign.status).toBe(404)
  })
})

/** Patterns that froze the API on V8's backtracking engine (issue 23, item 1): 28 `a`s and a `!` took 4 s. */
const HOSTILE_PATTERNS = ['(a+)+$', '((a+))+$', '(a|a)+$', '(a|a?)+$', '^(a|b|ab)*c$', '(a?){30}a{30}']

describe('bulk upload against schemas with hostile patterns', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string
  let server: http.Server
  let base: string

  beforeAll(async () => {
    api = await startApi()
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    // A real listening server, so that /health/live below competes for the same event loop as the upload.
    server = http.createServer(api.app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    server?.closeAllConnections()
    await closeServer(server)
    await api?.stop()
    await deleteBulkQueues(api)
  })

  it('checks 10,000-character hostile cells in well under a second each, and /health/live stays fast meanwhile', async () => {
    const schema = await request(api.app)
      .post(`/v1/orgs/${orgId}/schemas`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({
        type: 'JSON',
        schemaPayload: {
          schemaName: `Hostile ${randomUUID().slice(0, 6)}`,
          schemaType: 'NO_LEDGER',
          attributes: HOSTILE_PATTERNS.map((pattern, index) => ({
            attributeName: `p${index}`,
            displayName: pattern,
            schemaDataType: 'string',
            isRequired: false,
            pattern,
          })),
        },
      })
    expect(schema.status).toBe(201)
    const header = ['email', ...HOSTILE_PATTERNS.map((_pattern, index) => `p${index}`)].join(',')
    const runs = ['a'.repeat(9_999) + '!', 'ab'.repeat(4_999) + '!', 'a'.repeat(28) + '!']
    const rows = Array.from({ length: 30 }, (_row, index) =>
      [`r${index}@example.test`, ...HOSTILE_PATTERNS.map(() => runs[index % runs.length])].join(','),
    )
    const body = new FormData()
    body.append('file', new Blob([[header, ...rows].join('\n')], { type: 'text/csv' }), 'hostile.csv')
    const query = new URLSearchParams({ schemaType: 'W3C', templateId: schema.body.data.id })
    const liveness: number[] = []
    let isUploading = true
    const probe = (async () => {
      while (isUploading) {
        const started = performance.now()
        expect((await fetch(`${base}/health/live`)).status).toBe(200)
        liveness.push(performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    // The API runs in this process: its CPU time is what the patterns cost (a loaded machine stretches wall time).
    const cpuMs = cpuClock()
    const res = await fetch(`${base}/v1/orgs/${orgId}/bulk/upload?${query}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner.token}` },
      body,
    })
    const took = cpuMs()
    isUploading = false
    await probe
    const answer = (await res.json()) as { data: { rows: number; valid: number; invalid: { count: number } } }
    expect(res.status).toBe(201)
    // 180 hostile cells, 10,000 characters for most: each answered in well under a second (all of them together).
    expect(took).toBeLessThan(5_000)
    expect(answer.data).toMatchObject({ rows: 30, valid: 0, invalid: { count: 30 } })
    expect(liveness.length).toBeGreaterThan(0)
    // A backtracking pattern would stall the event loop for far longer than any bound; 2 s leaves room for a loaded
    // machine's wait for a core (653 ms seen at load 10 with a 500 ms bound).
    expect(Math.max(...liveness)).toBeLessThan(2_000)
  })
})

describe('bulk issuance execution with the real agent program', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi
  let owner: TestUser
  let orgId: string
  let templateId: string

  beforeAll(async () => {
    compiled = await compileProgram('agent')
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '90',
      AGENT_POLL_INTERVAL_MS: '500',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
    })
    owner = await aUserWithToken(api, `owner-${randomUUID()}@example.test`)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Bulk issuer', method: 'key' })
      .expect(201)
    const deadline = Date.now() + 100_000
    for (;;) {
      const health = await request(api.app)
        .get(`/v1/orgs/${orgId}/agents/health`)
        .set('Authorization', `Bearer ${owner.token}`)
      const status = (health.body.data as { status: string }).status
      if (status === 'DID_CREATED') break
      if (status === 'FAILED' || Date.now() > deadline)
        throw new Error(`Agent ended in ${status}: ${JSON.stringify(health.body.data)}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    templateId = await aJsonSchema(api, owner, orgId)
  }, 150_000)

  afterAll(async () => {
    await api?.stop()
    await deleteBulkQueues(api)
    compiled?.remove()
  }, 60_000)

  const mailsTo = async (address: string) =>
    (await readdir(mailDirectory(api.dataDir, address)).catch(() => [] as string[])).filter((name) =>
      name.endsWith('.json'),
    ).length

  async function progressWhen(requestId: string, done: (data: Record<string, unknown>) => boolean) {
    const deadline = Date.now() + 45_000
    for (;;) {
      const res = await request(api.app)
        .get(`/v1/orgs/${orgId}/bulk/${requestId}`)
        .query({ pageSize: 100 })
        .set('Authorization', `Bearer ${owner.token}`)
        .expect(200)
      if (done(res.body.data)) return res.body.data
      if (Date.now() > deadline) throw new Error(`Bulk request not done: ${JSON.stringify(res.body.data.counts)}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  it('issues the selected rows, then the rest, one mail per recipient however often it is executed', async () => {
    const tag = randomUUID().slice(0, 6)
    const address = (index: number) => `holder-${tag}-${index}@example.test`
    const lines = [
      'email,name,age,member',
      ...[1, 2, 3, 4].map((index) => `${address(index)},Holder ${index},${20 + index},true`),
      'bad,X,1,true',
    ]
    const uploaded = await upload(api, owner, orgId, templateId, lines.join('\n')).expect(201)
    const requestId = uploaded.body.data.requestId as string
    expect(uploaded.body.data).toMatchObject({ rows: 5, valid: 4, invalid: { count: 1 } })
    const execute = (body: Record<string, unknown>) =>
      request(api.app)
        .post(`/v1/orgs/${orgId}/${requestId}/bulk`)
        .set('Authorization', `Bearer ${owner.token}`)
        .send({
          clientId: 'bulk-test',
          organizationLogoUrl: 'https://example.test/logo.png',
          platformName: 'Test platform',
          ...body,
        })

    const invalidSelection = await execute({ isSelectiveIssuance: true, selectedRows: [6, 99] })
    expect(invalidSelection.status).toBe(400)
    expect(invalidSelection.body.message).toMatch(/row 6 is invalid.*row 99 is not a data row/)

    const first = await execute({ isSelectiveIssuance: true, selectedRows: [2, 3] })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ queuedNow: 2, status: 'running', clientId: 'bulk-test' })
    await progressWhen(requestId, (data) => data.status === 'completed')

    const second = await execute({})
    expect(second.body.data.queuedNow).toBe(2)
    const done = await progressWhen(requestId, (data) => data.status === 'completed')
    expect(done.counts).toEqual({ invalid: 1, pending: 0, queued: 0, sent: 4, failed: 0 })
    const rows = (done.rows as { data: { row: number; status: string; credentialRecordId: string | null }[] }).data
    expect(rows.filter((row) => row.status === 'sent').every((row) => typeof row.credentialRecordId === 'string')).toBe(
      true,
    )

    const again = await execute({})
    expect(again.body.data.queuedNow).toBe(0)
    const deadline = Date.now() + 15_000
    while ((await Promise.all([1, 2, 3, 4].map((index) => mailsTo(address(index))))).some((count) => count === 0)) {
      if (Date.now() > deadline) throw new Error('Not every recipient got a mail')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(await Promise.all([1, 2, 3, 4].map((index) => mailsTo(address(index))))).toEqual([1, 1, 1, 1])

    const credentials = await request(api.app)
      .get(`/v1/orgs/${orgId}/credentials`)
      .query({ searchByText: tag, pageSize: 100 })
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(credentials.body.data.totalItems).toBe(4)

    const events = published.filter(
      (event) => event.type.startsWith('bulk-issuance.') && event.record.requestId === requestId,
    )
    expect(events.map((event) => event.type)).toEqual([
      'bulk-issuance.started',
      'bulk-issuance.completed',
      'bulk-issuance.started',
      'bulk-issuance.completed',
    ])
    expect(events[3].record).toMatchObject({ status: 'completed', counts: { sent: 4 } })
    const metrics = await request(api.app).get('/metrics')
    expect(metrics.text).toMatch(/idplane_api_bulk_issuance_rows_total\{status="sent"\} 4/)
    expect(metrics.text).toMatch(/idplane_api_bulk_issuance_queue_depth 0/)
    expect(metrics.text).toMatch(/idplane_api_bulk_issuance_row_duration_seconds_count\{result="sent"\} 4/)
  })
})
