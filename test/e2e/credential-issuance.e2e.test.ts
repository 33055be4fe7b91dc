import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { deleteApiQueues } from '../helpers/broker'
import { spawnAgent, type SpawnedAgent, waitUntil } from '../helpers/agent-process'
import { spawnApi, type ApiProcess } from '../helpers/api-process'
import { TEST_PASSWORD, verificationCodeOf } from '../helpers/auth-flow'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture'
import { aDegreeCredential, signingOptions } from '../fixtures/degree-credential'
import { buildPrograms } from '../helpers/build-programs'
import { claimAgentPorts, freePort } from '../helpers/ports'

jest.setTimeout(240_000)

/** A wallet app accepts the invitation its user opened and the connection it starts. */
const AS_A_WALLET_DOES = { autoAcceptInvitation: true, autoAcceptConnection: true }

interface IssuanceRecord {
  id: string
  state: string
  connectionId: string | null
  threadId: string | null
  errorMessage: string | null
}

/**
 * Issue 10, "How it is checked" (issuance): the built API with an issuer organization's real agent, and a separate
 * holder agent process driven through its admin API as an outside wallet. The holder binds each credential to its
 * own DID (credentialSubject.id in its request) and the API's defaults still issue. Real PostgreSQL and RabbitMQ
 * when DATABASE_URL / AMQP_URL are set, the embedded defaults otherwise; mail through a real SMTP capture.
 */
describe('credential issuance through the platform API', () => {
  let dataDir: string
  let database: FreshDatabase | undefined
  let smtp: SmtpCapture
  let api: ApiProcess
  let holder: SpawnedAgent
  let token: string
  let orgId: string
  let issuerDid: string
  let holderDid: string

  async function call<T = unknown>(
    method: string,
    route: string,
    body?: unknown,
  ): Promise<{ status: number; body: { data: T; message: string } }> {
    const res = await fetch(`${api.url}${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as { data: T; message: string } }
  }

  const queuePrefix = `test-${randomBytes(4).toString('hex')}.`

  beforeAll(async () => {
    buildPrograms()
    dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-credentials-e2e-'))
    database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    smtp = await startSmtpCapture()
    const port = await freePort()
    api = await spawnApi(port, {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SMTP_URL: smtp.url,
      MAIL_OUTBOX_POLL_INTERVAL_MS: '100',
      API_PUBLIC_URL: `http://127.0.0.1:${port}`,
      QUEUE_NAME_PREFIX: queuePrefix,
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      // 2.5 minutes for the agent to start: with the whole suite running on a slow 2-core machine, 60 s was short.
      AGENT_POLL_INTERVAL_MS: '500',
      AGENT_POLL_ATTEMPTS: '300',
      ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
    })
    holder = await spawnAgent({ label: 'outside-wallet' })

    // An owner through the real onboarding (verification mail read from the SMTP capture), with an organization.
    const email = `issuer-${randomBytes(4).toString('hex')}@example.test`
    expect((await call('POST', '/v1/auth/verification-mail', { email })).status).toBe(201)
    const verification = await smtp.waitForMail(email, { timeoutMs: 20_000 })
    const code = verificationCodeOf({ ...verification, to: email, id: 'captured', date: '' })
    expect((await call('GET', `/v1/auth/verify?email=${email}&verificationCode=${code}`)).status).toBe(200)
    const profile = { email, firstName: 'Ivy', lastName: 'Issuer', password: TEST_PASSWORD }
    expect((await call('POST', '/v1/auth/signup', profile)).status).toBe(201)
    token = (await call<{ access_token: string }>('POST', '/v1/auth/signin', { email, password: TEST_PASSWORD })).body
      .data.access_token
    orgId = (await call<{ id: string }>('POST', '/v1/orgs', { name: 'Issuing University', description: 'Degrees' }))
      .body.data.id
    expect((await call('POST', `/v1/orgs/${orgId}/agents/spinup`, { label: 'University', method: 'key' })).status).toBe(
      201,
    )
    await waitUntil(async () => {
      const health = await call<{ status: string; failureReason: string | null }>(
        'GET',
        `/v1/orgs/${orgId}/agents/health`,
      )
      const { status, failureReason } = health.body.data
      if (status === 'FAILED') throw new Error(`Agent provisioning failed: ${failureReason}`)
      return status === 'DID_CREATED' ? true : undefined
    }, 180_000)
    issuerDid = (await call<{ did: string }[]>('GET', `/v1/orgs/${orgId}/dids`)).body.data[0].did
    const created = await holder.call<{ data: { did: string } }>('POST', '/dids', { method: 'key' })
    holderDid = created.body.data.did
  }, 300_000)

  afterAll(async () => {
    await holder?.stop()
    await api?.kill('SIGTERM')
    await smtp?.stop()
    await deleteApiQueues(queuePrefix)
    await database?.drop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)

  /** A degree with no subject id: the holder binds it to its DID. */
  function anOffer(issuer = issuerDid) {
    const { credentialSubject, ...credential } = aDegreeCredential(issuer, holderDid)
    return {
      credential: { ...credential, credentialSubject: { degree: credentialSubject.degree } },
      options: signingOptions(),
    }
  }

  /** The holder takes the offer that arrived on `threadId`, binding the credential to its DID. */
  async function holderAccepts(threadId: string): Promise<void> {
    const offered = await waitUntil(async () => {
      const found = await holder.call<{ data: { id: string; state: string }[] }>(
        'GET',
        `/credentials?threadId=${encodeURIComponent(threadId)}`,
      )
      const [record] = found.body.data
      return record?.state === 'offer-received' ? record : undefined
    })
    const accepted = await holder.call('POST', '/credentials/accept-offer', {
      credentialRecordId: offered.id,
      credentialFormats: { jsonld: { credentialSubjectId: holderDid } },
    })
    expect(accepted.status).toBe(201)
  }

  /** The organization's record once the agent's events brought it to `state`. */
  function recordReaches(recordId: string, state: string): Promise<IssuanceRecord> {
    return waitUntil(async () => {
      const read = await call<IssuanceRecord>('GET', `/v1/orgs/${orgId}/credentials/${recordId}`)
      if (read.body.data.state === 'abandoned') throw new Error(`Abandoned: ${read.body.data.errorMessage}`)
      return read.body.data.state === state ? read.body.data : undefined
    }, 45_000)
  }

  let connectionId: string

  it('issues out of band through a short URL the holder follows, and the record reaches done', async () => {
    const offer = await call<{ shortUrl: string; record: IssuanceRecord }>(
      'POST',
      `/v1/orgs/${orgId}/credentials/oob/offer?credentialType=JSONLD`,
      { ...anOffer(), isShortenUrl: true, comment: 'Your degree', label: 'Issuing University' },
    )
    expect(offer.status).toBe(201)
    expect(offer.body.data.record.state).toBe('offer-sent')
    const received = await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: offer.body.data.shortUrl,
      ...AS_A_WALLET_DOES,
    })
    expect(received.status).toBe(201)
    const threadId = offer.body.data.record.threadId
    if (!threadId) throw new Error('no thread')
    await holderAccepts(threadId)
    const done = await recordReaches(offer.body.data.record.id, 'done')
    expect(done.connectionId).toEqual(expect.any(String))
    connectionId = done.connectionId ?? ''
    const stored = await holder.call<{ data: unknown }>('GET', `/credentials?threadId=${encodeURIComponent(threadId)}`)
    expect(JSON.stringify(stored.body.data)).toContain('"state":"done"')
  })

  it('offers over the connection, one record per entry, and each reaches done', async () => {
    const offer = await call<IssuanceRecord[]>('POST', `/v1/orgs/${orgId}/credentials/offer?credentialType=JSONLD`, {
      credentialData: [
        { connectionId, ...anOffer() },
        { connectionId, ...anOffer() },
      ],
      comment: 'Two degrees',
      protocolVersion: 'v2',
    })
    expect(offer.status).toBe(201)
    expect(offer.body.data).toHaveLength(2)
    for (const record of offer.body.data) {
      expect(record).toMatchObject({ state: 'offer-sent', connectionId })
      await holderAccepts(record.threadId ?? '')
      await recordReaches(record.id, 'done')
    }
  })

  it('mails an offer whose link the holder follows, and the record reaches done', async () => {
    const emailId = `graduate-${randomBytes(4).toString('hex')}@example.test`
    const offer = await call<{ invitationUrl: string; record: IssuanceRecord }[]>(
      'POST',
      `/v1/orgs/${orgId}/credentials/oob/email?credentialType=JSONLD`,
      { comment: 'By mail', credentialOffer: [{ emailId, ...anOffer() }] },
    )
    expect(offer.status).toBe(201)
    const mail = await smtp.waitForMail(emailId, { timeoutMs: 20_000 })
    expect(mail.html).toMatch(/<img src="data:image\/png;base64,/)
    const link = /(http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
    expect(link).toBe(offer.body.data[0].invitationUrl)
    const received = await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl: link,
      ...AS_A_WALLET_DOES,
    })
    expect(received.status).toBe(201)
    await holderAccepts(offer.body.data[0].record.threadId ?? '')
    await recordReaches(offer.body.data[0].record.id, 'done')
  })

  it('refuses with 400 an offer that cannot be signed, creating no record', async () => {
    const { credential, options } = anOffer()
    const unsignable = { ...credential, credentialSubject: { ...credential.credentialSubject, shoeSize: 42 } }
    const before = await call<{ totalItems: number }>('GET', `/v1/orgs/${orgId}/credentials`)
    const offer = await call('POST', `/v1/orgs/${orgId}/credentials/offer?credentialType=JSONLD`, {
      credentialData: [{ connectionId, credential: unsignable, options }],
    })
    expect(offer.status).toBe(400)
    expect(offer.body.message).toMatch(/cannot be signed.*shoeSize/)
    const after = await call<{ totalItems: number }>('GET', `/v1/orgs/${orgId}/credentials`)
    expect(after.body.data.totalItems).toBe(before.body.data.totalItems)
  })
})
