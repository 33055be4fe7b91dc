import { randomBytes } from 'node:crypto'
import request from 'supertest'
import { spawnAgent, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { startPlatform, type Platform } from '../helpers/platform'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(900_000)

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Issue 25 item 3 through bulk issuance: a CSV against a revocable credential definition (registries of 8, so the
 * rows roll over to a second registry) gives every row its own (registry, index); a holder follows one row's mailed
 * link and takes the credential, which the issuer then revokes, and the ledger's status list shows it. The platform
 * ledger, the organization's agent the platform runs and a holder agent; DATABASE_URL / AMQP_URL choose PostgreSQL and
 * RabbitMQ.
 */
describe('bulk issuance against a revocable credential definition', () => {
  let platform: Platform
  let smtp: SmtpCapture
  let holder: SpawnedAgent
  let owner: TestUser
  let orgId: string
  let definition: Json
  const tag = randomBytes(3).toString('hex')
  const address = (row: number) => `bulk-revocable-${tag}-${row}@example.test`

  const call = (method: 'get' | 'post', route: string, body?: object) => {
    const req = request(platform.api.app)[method](route).set('Authorization', `Bearer ${owner.token}`)
    return body === undefined ? req : req.send(body)
  }

  beforeAll(async () => {
    buildPrograms()
    smtp = await startSmtpCapture()
    platform = await startPlatform({ REVOCATION_REGISTRY_SIZE: '8', SMTP_URL: smtp.url })
    owner = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Bulk Revoking Issuer', 'indy')
    holder = await spawnAgent({ label: 'bulk-revocation-holder', env: { AGENT_LEDGER_URL: platform.baseUrl } })
    const schema = await call('post', `/v1/orgs/${orgId}/schemas`, {
      type: 'INDY',
      schemaPayload: {
        schemaName: `pass-${tag}`,
        schemaVersion: '1.0',
        attributes: [{ attributeName: 'name', schemaDataType: 'string', displayName: 'Name', isRequired: true }],
      },
    }).expect(201)
    const created = await call('post', `/v1/orgs/${orgId}/cred-defs`, {
      tag: 'revocable',
      schemaLedgerId: schema.body.data.schemaLedgerId,
      revocable: true,
    }).expect(201)
    definition = await waitUntil(async () => {
      const current = (await call('get', `/v1/orgs/${orgId}/cred-defs/${created.body.data.id}`).expect(200)).body.data
      if (current.status === 'failed') throw new Error(`The job failed: ${current.error}`)
      return current.status === 'created' ? (current as Json) : undefined
    }, 600_000)
  }, 900_000)

  afterAll(async () => {
    await holder?.stop()
    await platform?.stop()
    await smtp?.stop()
  }, 120_000)

  it('gives every row its own registry index, and one of the credentials can be revoked', async () => {
    const rows = [2, 3, 4, 5, 6, 7, 8, 9, 10]
    const lines = ['email,name', ...rows.map((row) => `${address(row)},Holder ${row}`)]
    const upload = await request(platform.api.app)
      .post(`/v1/orgs/${orgId}/bulk/upload`)
      .query({ schemaType: 'INDY', templateId: definition.id })
      .set('Authorization', `Bearer ${owner.token}`)
      .attach('file', Buffer.from(`${lines.join('\r\n')}\r\n`), { filename: 'passes.csv', contentType: 'text/csv' })
      .expect(201)
    const summary = upload.body.data as Json
    expect(summary).toMatchObject({ rows: rows.length, valid: rows.length })
    await call('post', `/v1/orgs/${orgId}/${summary.requestId}/bulk`, { platformName: 'Passes' }).expect(201)
    const done = await waitUntil(async () => {
      const progress = (await call('get', `/v1/orgs/${orgId}/bulk/${summary.requestId}`).expect(200)).body.data
      return progress.status === 'completed' ? progress : undefined
    }, 300_000)
    expect(done.counts).toMatchObject({ sent: rows.length, failed: 0 })

    const records = (await call('get', `/v1/orgs/${orgId}/credentials?pageSize=100`).expect(200)).body.data
      .data as Json[]
    expect(records).toHaveLength(rows.length)
    const pairs = records.map((record) => `${record.revocationRegistryId}#${record.revocationIndex}`)
    for (const record of records) {
      expect(record.revocationRegistryId).toEqual(expect.any(String))
      expect(record.revocationIndex).toBeGreaterThanOrEqual(1)
    }
    expect(new Set(pairs).size).toBe(rows.length)
    // Nine rows on registries of 8 (indices 1 to 7): the second registry took the rest.
    expect(new Set(records.map((record) => record.revocationRegistryId)).size).toBe(2)

    // The holder follows row 2's link and takes its credential.
    const mail = await smtp.waitForMail(address(2), { timeoutMs: 60_000 })
    const link = /(http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1]
    expect(link).toBeDefined()
    await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: link,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    const offer = await waitUntil(async () => {
      const list = await holder.call<{ data: Json[] }>('GET', '/credentials?state=offer-received')
      return list.body.data[0]
    }, 90_000)
    expect((await holder.call('POST', '/credentials/accept-offer', { credentialRecordId: offer.id })).status).toBe(201)
    const issued = await waitUntil(async () => {
      const list = (await call('get', `/v1/orgs/${orgId}/credentials?pageSize=100`).expect(200)).body.data
        .data as Json[]
      return list.find((record) => record.state === 'done')
    }, 120_000)
    const [held] = (await holder.call<{ data: Json[] }>('GET', '/anoncreds/credentials')).body.data
    expect([held.revocationRegistryId, Number(held.credentialRevocationId)]).toEqual([
      issued.revocationRegistryId,
      issued.revocationIndex,
    ])

    const revoked = await call('post', `/v1/orgs/${orgId}/credentials/${issued.id}/revoke`, {}).expect(201)
    expect(revoked.body.data).toMatchObject({ revoked: true, revocationStatus: 'revoked' })
    const list = await request(platform.api.app)
      .get(`/v1/ledger/rev-reg-defs/${encodeURIComponent(issued.revocationRegistryId as string)}/status-list`)
      .expect(200)
    const bits = list.body.data.revocationStatusList.revocationList as number[]
    expect(bits.flatMap((bit, index) => (bit === 1 ? [index] : []))).toEqual([issued.revocationIndex])
  })
})
