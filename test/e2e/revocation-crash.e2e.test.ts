import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { deleteApiQueues } from '../helpers/broker'
import { claimAgentPorts, freePort } from '../helpers/ports'
import { readLatestMail } from '../../api/src/infra/mail/file-mailer'
import { spawnApi, type ApiProcess } from '../helpers/api-process'
import { spawnAgent, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { TEST_PASSWORD, verificationCodeOf } from '../helpers/auth-flow'
import { freshDatabase, type FreshDatabase } from '../helpers/database'
import { buildPrograms } from '../helpers/build-programs'

jest.setTimeout(900_000)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

interface Answer {
  status: number
  body: { data?: any; message?: string } // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function call(url: string, method: string, route: string, body?: unknown, token?: string): Promise<Answer> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Answer['body'] }
}

/** A request the kill may cut: its answer, or the error of the dropped connection. */
function cuttable(request: Promise<Answer>): Promise<Answer | Error> {
  return request.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
}

/**
 * Issue 25, "Concurrency and faults": a SIGKILL of the API during issuance and during publish, then a restart on the
 * same data. The built API runs as a real process with its organization's agent (embedded defaults, or
 * PostgreSQL/RabbitMQ with DATABASE_URL/AMQP_URL), the platform ledger in it, and a holder agent of its own.
 * Checked after the restarts: no revocation index is given twice (the API's records, offers cut by the kill
 * included, and the holder's credentials), no revocation is lost (one recorded `pending` before the kill is
 * published by the caller's retry or `revocations/publish`, as docs/decisions.md promises: nothing publishes it on
 * its own), none is published twice (each revoked index is in one REVOC_REG_ENTRY), and the status list the ledger
 * serves equals the records' `revoked` flags. The kills during publication land every time in the window between the
 * agent's ledger write and the API's commit (REVOCATION_PUBLISH_TEST_DELAY_MS holds the API there): once during a
 * revoke published at once, once during `POST revocations/publish`.
 */
describe('AnonCreds revocation across a SIGKILL of the API', () => {
  let dataDir: string
  let database: FreshDatabase | undefined
  let env: Record<string, string>
  let api: ApiProcess | undefined
  let holder: SpawnedAgent | undefined
  let port: number
  let token: string
  let orgId: string
  let connectionId: string
  let credentialDefinitionId: string

  beforeAll(async () => {
    buildPrograms()
    dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-revocation-crash-'))
    database = process.env.DATABASE_URL ? await freshDatabase('postgres') : undefined
    port = await freePort()
    // The agent is restarted with the API on the ports it had: both below the ephemeral range (32768 and up), where
    // an outgoing connection could take a port between the kill and the restart (test/helpers/ports.ts).
    env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      QUEUE_NAME_PREFIX: `test-${randomBytes(4).toString('hex')}.`,
      API_PUBLIC_URL: `http://127.0.0.1:${port}`,
      API_INTERNAL_URL: `http://127.0.0.1:${port}`,
      AGENT_POLL_ATTEMPTS: '240',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      REVOCATION_REGISTRY_SIZE: '64',
      // The window between the agent's ledger write and the API's commit of a publication, where the kills land.
      REVOCATION_PUBLISH_TEST_DELAY_MS: '20000',
      ...(database?.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
      ...(process.env.AMQP_URL ? { AMQP_URL: process.env.AMQP_URL } : {}),
    }
  }, 300_000)

  afterAll(async () => {
    await holder?.stop()
    await api?.kill('SIGKILL')
    // The agents end with the API (their stdin closes); give them a moment before their files go.
    await sleep(1000)
    await deleteApiQueues(env?.QUEUE_NAME_PREFIX)
    await database?.drop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }, 120_000)

  function running(): ApiProcess {
    if (!api) throw new Error('The API is not running')
    return api
  }

  function theHolder(): SpawnedAgent {
    if (!holder) throw new Error('The holder is not running')
    return holder
  }

  const asOwner = (method: string, route: string, body?: unknown) => call(running().url, method, route, body, token)

  /** Starts the killed API again on the same data and port (its agent is restarted with it). */
  async function restart(): Promise<void> {
    api = await spawnApi(port, env)
    await waitUntil(async () => {
      const res = await asOwner('GET', `/v1/orgs/${orgId}/agents/health`)
      return (res.body.data as { isAnswering?: boolean } | undefined)?.isAnswering ? true : undefined
    }, 300_000)
  }

  /**
   * The organization's issuance records (all of the revocable definition). Not filtered by definition: a record the
   * API learnt of from an agent event only carries no `credentialDefinitionId` (the offer route's detail).
   */
  async function issuanceRecords(): Promise<Json[]> {
    const res = await asOwner('GET', `/v1/orgs/${orgId}/credentials?pageSize=100`)
    expect(res.status).toBe(200)
    return res.body.data.data as Json[]
  }

  function offer(name: string): Promise<Answer> {
    return asOwner('POST', `/v1/orgs/${orgId}/credentials/offer?credentialType=INDY`, {
      credentialDefinitionId,
      credentialData: [{ connectionId, attributes: [{ name: 'name', value: name }] }],
    })
  }

  /** The holder accepts every offer it has received, until `count` credentials are issued to it. */
  async function acceptOffersUntilHeld(count: number): Promise<Json[]> {
    return waitUntil(async () => {
      const list = await theHolder().call<{ data: Json[] }>('GET', '/credentials')
      for (const received of list.body.data.filter((entry) => entry.state === 'offer-received'))
        await theHolder().call('POST', '/credentials/accept-offer', { credentialRecordId: received.id })
      const held = (await theHolder().call<{ data: Json[] }>('GET', '/anoncreds/credentials')).body.data
      return held.length >= count ? held : undefined
    }, 300_000)
  }

  /** The status list the ledger serves now for a registry: its revoked indices. */
  async function ledgerRevokedIndices(revocationRegistryId: string): Promise<number[]> {
    const res = await call(
      running().url,
      'GET',
      `/v1/ledger/rev-reg-defs/${encodeURIComponent(revocationRegistryId)}/status-list`,
    )
    expect(res.status).toBe(200)
    const list = res.body.data.revocationStatusList.revocationList as number[]
    return list.flatMap((bit, index) => (bit === 1 ? [index] : []))
  }

  it('sets up an issuer with a revocable definition on the platform ledger and a connected holder', async () => {
    api = await spawnApi(port, env)
    const email = `owner-${randomBytes(4).toString('hex')}@example.test`
    expect((await call(api.url, 'POST', '/v1/auth/verification-mail', { email })).status).toBe(201)
    const mail = await waitUntil(async () => (await readLatestMail(dataDir, email)) ?? undefined, 30_000)
    const code = verificationCodeOf(mail)
    expect((await call(api.url, 'GET', `/v1/auth/verify?email=${email}&verificationCode=${code}`)).status).toBe(200)
    const profile = { email, firstName: 'Rita', lastName: 'Revoker', password: TEST_PASSWORD }
    expect((await call(api.url, 'POST', '/v1/auth/signup', profile)).status).toBe(201)
    const signIn = await call(api.url, 'POST', '/v1/auth/signin', { email, password: TEST_PASSWORD })
    token = (signIn.body.data as { access_token: string }).access_token
    const org = await asOwner('POST', '/v1/orgs', { name: 'Revocation Crash', description: 'SIGKILL' })
    orgId = (org.body.data as { id: string }).id
    expect((await asOwner('POST', `/v1/orgs/${orgId}/agents/spinup`, { label: 'Crash', method: 'indy' })).status).toBe(
      201,
    )
    const health = await waitUntil(async () => {
      const status = ((await asOwner('GET', `/v1/orgs/${orgId}/agents/health`)).body.data as { status: string }).status
      return status === 'DID_CREATED' || status === 'FAILED' ? status : undefined
    }, 300_000)
    expect(health).toBe('DID_CREATED')

    const schema = await asOwner('POST', `/v1/orgs/${orgId}/schemas`, {
      type: 'INDY',
      schemaPayload: {
        schemaName: `crash-${randomBytes(3).toString('hex')}`,
        schemaVersion: '1.0',
        attributes: [{ attributeName: 'name', schemaDataType: 'string', displayName: 'Name', isRequired: true }],
      },
    })
    expect(schema.status).toBe(201)
    const created = await asOwner('POST', `/v1/orgs/${orgId}/cred-defs`, {
      tag: 'revocable',
      schemaLedgerId: schema.body.data.schemaLedgerId,
      revocable: true,
    })
    expect(created.status).toBe(201)
    const definition = await waitUntil(async () => {
      const current = (await asOwner('GET', `/v1/orgs/${orgId}/cred-defs/${created.body.data.id}`)).body.data as Json
      if (current.status === 'failed') throw new Error(`The job failed: ${current.error}`)
      return current.status === 'created' ? current : undefined
    }, 600_000)
    credentialDefinitionId = definition.credentialDefinitionId as string

    holder = await spawnAgent({ label: 'revocation-crash-holder', env: { AGENT_LEDGER_URL: running().url } })
    const invitation = await asOwner('POST', `/v1/orgs/${orgId}/connections`, {})
    expect(invitation.status).toBe(201)
    const { invitationUrl, outOfBandRecord } = invitation.body.data as Json
    await holder.call('POST', '/oob/receive-invitation-url', {
      invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    connectionId = await waitUntil(async () => {
      const page = await asOwner('GET', `/v1/orgs/${orgId}/connections?pageSize=100`)
      const found = (page.body.data.connections as Json[]).find((item) => item.outOfBandId === outOfBandRecord.id)
      return found?.state === 'completed' ? (found.id as string) : undefined
    }, 90_000)
  })

  let issuedBeforeKill = 0

  it('gives no index twice when the API is killed while offers are being made', async () => {
    // Concurrent offers; the kill lands once the first has answered, with the others allocated, at the agent or
    // waiting for their turn.
    const inFlight = Array.from({ length: 10 }, (_, index) => cuttable(offer(`Before ${index}`)))
    await Promise.race(inFlight)
    await running().kill('SIGKILL')
    const outcomes = await Promise.all(inFlight)
    const answered = outcomes.filter((outcome): outcome is Answer => !(outcome instanceof Error))
    expect(answered.length).toBeGreaterThan(0)
    for (const answer of answered) expect(answer.status).toBe(201)
    const answeredIndices = answered.map((answer) => (answer.body.data as Json[])[0].revocationIndex as number)
    console.log(`At the kill ${answered.length} of 10 offers had answered (indices ${answeredIndices.join(', ')})`)

    await restart()
    const after = await Promise.all([0, 1, 2].map((index) => offer(`After ${index}`)))
    for (const answer of after) expect(answer.status).toBe(201)
    const afterIndices = after.map((answer) => (answer.body.data as Json[])[0].revocationIndex as number)
    // The counter was committed before each offer went out: indices taken by offers the kill cut stay taken.
    expect(Math.min(...afterIndices)).toBeGreaterThan(Math.max(...answeredIndices))

    // The holder accepts every offer that reached it. The API's records follow: an offer the agent made but the API
    // never recorded (killed before its commit) arrives as an agent event, its index read from the agent record's
    // metadata. Every record has its pair, all distinct, and every credential issued is one of them.
    // Settled: the holder has no exchange left open (an offer cut by the kill may still be arriving or being
    // accepted when the first few are held) and the same count was done on both sides at two reads in a row.
    let seen = ''
    let settledAt = ''
    const { records, held } = await waitUntil(async () => {
      const holding = await acceptOffersUntilHeld(answered.length + after.length)
      const open = (await theHolder().call<{ data: Json[] }>('GET', '/credentials')).body.data.filter(
        (entry) => !['done', 'abandoned', 'declined'].includes(entry.state as string),
      )
      const current = await issuanceRecords()
      const done = current.filter((record) => record.state === 'done')
      seen = `held ${holding.length}; records ${current.map((record) => `${record.revocationIndex}:${record.state}`)}`
      const settled = open.length === 0 && done.length === holding.length ? `${done.length}` : ''
      const twice = settled !== '' && settled === settledAt
      settledAt = settled
      if (!twice) await sleep(1_000)
      return twice ? { records: current, held: holding } : undefined
    }, 300_000).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}: ${seen}`)
    })
    const pairs = records.map((record) => `${record.revocationRegistryId}#${record.revocationIndex}`)
    for (const record of records) {
      expect(record.revocationRegistryId).toEqual(expect.any(String))
      expect(record.revocationIndex).toEqual(expect.any(Number))
    }
    expect(new Set(pairs).size).toBe(pairs.length)
    const heldPairs = held.map((entry) => `${entry.revocationRegistryId}#${entry.credentialRevocationId}`)
    expect(new Set(heldPairs).size).toBe(heldPairs.length)
    expect(heldPairs.filter((pair) => !pairs.includes(pair))).toEqual([])
    issuedBeforeKill = held.length
    console.log(`${records.length} offers recorded, ${held.length} credentials issued, all at distinct indices`)
  })

  /** The REVOC_REG_ENTRY transactions on the ledger (every registry's), oldest first. */
  async function ledgerEntries(): Promise<Json[]> {
    const res = await call(running().url, 'GET', '/v1/ledger/transactions?from=1&limit=500')
    expect(res.status).toBe(200)
    return (res.body.data as Json[]).filter((txn) => txn.type === 'REVOC_REG_ENTRY')
  }

  /** Waits until the ledger's status list of `registry` has `indices` revoked: the agent's write is done. */
  const onLedger = (registry: string, indices: number[]) =>
    waitUntil(async () => {
      const revoked = await ledgerRevokedIndices(registry)
      return indices.every((index) => revoked.includes(index)) ? true : undefined
    }, 60_000)

  const byId = async (id: string) => (await asOwner('GET', `/v1/orgs/${orgId}/credentials/${id}`)).body.data as Json

  let batched: Json
  let entriesBefore: number

  it('loses no revocation and publishes none twice when the API is killed between the ledger write and the commit of a revoke', async () => {
    const issued = (await issuanceRecords()).filter((record) => record.state === 'done')
    expect(issued.length).toBe(issuedBeforeKill)
    expect(issued.length).toBeGreaterThanOrEqual(4)
    const [first, cut] = issued
    batched = first
    const registry = cut.revocationRegistryId as string
    entriesBefore = (await ledgerEntries()).length
    // One recorded pending (published later), committed before the kill.
    const pending = await asOwner('POST', `/v1/orgs/${orgId}/credentials/${batched.id}/revoke`, { publish: false })
    expect(pending.status).toBe(201)
    expect(pending.body.data).toMatchObject({ revocationStatus: 'pending', revoked: false })
    // One published at once: the agent has written it to the ledger and the API waits (the test delay) before its
    // commit; the kill lands in that window.
    const revoking = cuttable(asOwner('POST', `/v1/orgs/${orgId}/credentials/${cut.id}/revoke`, {}))
    await onLedger(registry, [cut.revocationIndex as number])
    await running().kill('SIGKILL')
    expect(await revoking).toBeInstanceOf(Error)
    expect(await ledgerEntriesAfterRestart()).toBe(entriesBefore + 1)

    // Nothing publishes on its own: both are pending, though the cut one is on the ledger already.
    expect(await byId(batched.id)).toMatchObject({ revocationStatus: 'pending', revoked: false })
    expect(await byId(cut.id)).toMatchObject({ revocationStatus: 'pending', revoked: false })
    // The caller's retry completes it without a second ledger entry.
    const retried = await asOwner('POST', `/v1/orgs/${orgId}/credentials/${cut.id}/revoke`, {})
    expect(retried.status).toBe(201)
    expect(retried.body.data).toMatchObject({ revocationStatus: 'revoked', revoked: true })
    expect((await ledgerEntries()).length).toBe(entriesBefore + 1)
    expect(await ledgerRevokedIndices(registry)).toEqual([cut.revocationIndex])
  })

  /** Restarts the killed API and answers how many REVOC_REG_ENTRY transactions its ledger holds. */
  async function ledgerEntriesAfterRestart(): Promise<number> {
    await restart()
    return (await ledgerEntries()).length
  }

  it('loses no revocation and publishes none twice when the API is killed during POST revocations/publish', async () => {
    const records = (await issuanceRecords()).filter((record) => record.state === 'done' && !record.revoked)
    const second = records.find((record) => record.id !== batched.id && record.revocationStatus === null) as Json
    expect(second).toBeDefined()
    const registry = batched.revocationRegistryId as string
    expect(
      (await asOwner('POST', `/v1/orgs/${orgId}/credentials/${second.id}/revoke`, { publish: false })).status,
    ).toBe(201)
    const indices = [batched.revocationIndex as number, second.revocationIndex as number]
    const publishing = cuttable(asOwner('POST', `/v1/orgs/${orgId}/revocations/publish`))
    await onLedger(registry, indices)
    await running().kill('SIGKILL')
    expect(await publishing).toBeInstanceOf(Error)
    expect(await ledgerEntriesAfterRestart()).toBe(entriesBefore + 2)

    expect(await byId(batched.id)).toMatchObject({ revocationStatus: 'pending' })
    expect(await byId(second.id)).toMatchObject({ revocationStatus: 'pending' })
    const published = await asOwner('POST', `/v1/orgs/${orgId}/revocations/publish`)
    expect(published.status).toBe(201)
    expect((published.body.data as Json[]).flatMap((entry) => entry.credentialRecordIds).sort()).toEqual(
      [batched.id, second.id].sort(),
    )
    expect((await ledgerEntries()).length).toBe(entriesBefore + 2)

    const after = await issuanceRecords()
    expect(new Set(after.map((record) => record.revocationRegistryId)).size).toBe(1)
    expect(after.every((record) => record.revocationStatus !== 'pending')).toBe(true)
    expect(after.filter((record) => record.revoked)).toHaveLength(3)
    // The ledger's status list of every registry equals the records: revoked exactly where a record says so.
    for (const id of new Set(after.map((record) => record.revocationRegistryId as string))) {
      const expected = after
        .filter((record) => record.revocationRegistryId === id && record.revoked)
        .map((record) => record.revocationIndex as number)
        .sort((a, b) => a - b)
      expect(await ledgerRevokedIndices(id)).toEqual(expected)
    }
    // Each revocation is in exactly one ledger entry.
    const revokedInEntries = (await ledgerEntries()).flatMap((txn) => (txn.payload.value.revoked ?? []) as number[])
    expect(revokedInEntries.sort((a, b) => a - b)).toEqual(
      after
        .filter((record) => record.revoked)
        .map((record) => record.revocationIndex as number)
        .sort((a, b) => a - b),
    )
  })
})
