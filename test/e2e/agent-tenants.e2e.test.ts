import { PgliteSqlClient } from '../../agent/src/adapters/sql/pglite-sql-client'
import { spawnAgent, type SpawnedAgent, TEST_API_KEY, waitUntil } from '../helpers/agent-process'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'
import { buildPrograms } from '../helpers/build-programs'

interface Envelope<T> {
  data: T
}
type Rec = Record<string, unknown> & { id: string; state: string }
type Caller = Pick<SpawnedAgent, 'call'>

jest.setTimeout(180000)

/** Issuer creates an invitation, the tenant receives it; both sides wait for `completed`. */
async function connect(issuer: SpawnedAgent, holder: Caller): Promise<{ issuerSide: string; holderSide: string }> {
  const invitation = await issuer.call<Envelope<{ invitationUrl: string; outOfBandRecord: { id: string } }>>(
    'POST',
    '/oob/create-invitation',
    { autoAcceptConnection: true },
  )
  const received = await holder.call<Envelope<{ connectionRecord: Rec }>>('POST', '/oob/receive-invitation-url', {
    invitationUrl: invitation.body.data.invitationUrl,
    autoAcceptConnection: true,
    autoAcceptInvitation: true,
  })
  expect(received.status).toBe(201)
  const holderSide = received.body.data.connectionRecord.id
  const issuerSide = await waitUntil(async () => {
    const list = await issuer.call<Envelope<Rec[]>>(
      'GET',
      `/connections?outOfBandId=${invitation.body.data.outOfBandRecord.id}`,
    )
    return list.body.data.find((record) => record.state === 'completed')?.id
  })
  await waitUntil(async () => {
    const record = await holder.call<Envelope<Rec>>('GET', `/connections/${holderSide}`)
    return record.body.data.state === 'completed' ? true : undefined
  })
  return { issuerSide, holderSide }
}

describe('one base agent serving two tenants over DIDComm HTTP', () => {
  let issuer: SpawnedAgent
  let wallet: SpawnedAgent
  let tenantA: { id: string; api: Caller }
  let tenantB: { id: string; api: Caller }
  let connectionOfA: { issuerSide: string; holderSide: string }
  let connectionOfB: { issuerSide: string; holderSide: string }

  beforeAll(async () => {
    buildPrograms()
    ;[issuer, wallet] = await Promise.all([
      spawnAgent({ label: 'issuer' }),
      spawnAgent({ label: 'wallet', storage: 'pglite' }),
    ])
  })

  afterAll(async () => {
    await Promise.all([issuer?.stop(), wallet?.stop()])
  })

  it('creates, lists and reads tenants; unknown tenants and tenant-scoped tenant calls are refused', async () => {
    const created = await wallet.call<Envelope<{ id: string; label: string; createdAt: string }>>('POST', '/tenants', {
      label: 'Alice',
    })
    expect(created.status).toBe(201)
    expect(created.body.data).toEqual({ id: expect.any(String), label: 'Alice', createdAt: expect.any(String) })
    const createdB = await wallet.call<Envelope<{ id: string }>>('POST', '/tenants', {
      label: 'Bob',
      connectionImageUrl: 'https://example.com/bob.png',
    })
    tenantA = { id: created.body.data.id, api: wallet.asTenant(created.body.data.id) }
    tenantB = { id: createdB.body.data.id, api: wallet.asTenant(createdB.body.data.id) }

    const list = await wallet.call<Envelope<{ id: string; label: string }[]>>('GET', '/tenants')
    expect(list.body.data.map((tenant) => tenant.label).sort()).toEqual(['Alice', 'Bob'])
    const one = await wallet.call<Envelope<{ label: string; connectionImageUrl: string }>>(
      'GET',
      `/tenants/${tenantB.id}`,
    )
    expect(one.body.data).toMatchObject({ label: 'Bob', connectionImageUrl: 'https://example.com/bob.png' })

    expect((await wallet.call('POST', '/tenants', { label: '' })).status).toBe(400)
    expect((await wallet.call('GET', '/tenants/no-such-tenant')).status).toBe(404)
    expect((await wallet.asTenant('no-such-tenant').call('GET', '/connections')).status).toBe(404)
    expect((await tenantA.api.call('GET', '/tenants')).status).toBe(400)
    const anonymous = await fetch(`${wallet.adminUrl}/connections`, { headers: { 'x-tenant-id': tenantA.id } })
    expect(anonymous.status).toBe(401)
    const spec = (await (await fetch(`${wallet.adminUrl}/api-json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/tenants', '/tenants/{tenantId}']))
  })

  it('connects each tenant to the issuer; each sees only its own connection', async () => {
    connectionOfA = await connect(issuer, tenantA.api)
    connectionOfB = await connect(issuer, tenantB.api)

    const ofA = await tenantA.api.call<Envelope<Rec[]>>('GET', '/connections')
    const ofB = await tenantB.api.call<Envelope<Rec[]>>('GET', '/connections')
    expect(ofA.body.data.map((record) => record.id)).toEqual([connectionOfA.holderSide])
    expect(ofB.body.data.map((record) => record.id)).toEqual([connectionOfB.holderSide])
    expect(ofA.body.data[0]).toMatchObject({ theirLabel: 'issuer' })
    expect((await wallet.call<Envelope<Rec[]>>('GET', '/connections')).body.data).toEqual([])
    expect((await tenantB.api.call('GET', `/connections/${connectionOfA.holderSide}`)).status).toBe(404)

    // The issuer sees two connections, labelled with each tenant's label.
    const issuerSide = await issuer.call<Envelope<Rec[]>>('GET', '/connections')
    expect(issuerSide.body.data.map((record) => record.theirLabel).sort()).toEqual(['Alice', 'Bob'])
    // The theirLabel filter (no tag of Credo's record: filtered on the records) finds each one.
    const bobs = await issuer.call<Envelope<Rec[]>>('GET', '/connections?theirLabel=Bob')
    expect(bobs.body.data.map((record) => record.id)).toEqual([connectionOfB.issuerSide])
    expect((await issuer.call<Envelope<Rec[]>>('GET', '/connections?theirLabel=Carol')).body.data).toEqual([])
  })

  it('delivers a credential offered to tenant A to A only, and A proves it', async () => {
    const issuerDid = (await issuer.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did
    const holderDid = (await tenantA.api.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data
      .did
    const didsOf = async (api: Caller) =>
      (await api.call<Envelope<{ did: string }[]>>('GET', '/dids')).body.data.map((record) => record.did)
    expect(await didsOf(tenantA.api)).toContain(holderDid)
    expect(await didsOf(tenantB.api)).not.toContain(holderDid)

    const offer = await issuer.call<Envelope<Rec & { threadId: string }>>('POST', '/credentials/offer', {
      connectionId: connectionOfA.issuerSide,
      credential: aDegreeCredential(issuerDid, holderDid),
      options: signingOptions(),
    })
    expect(offer.status).toBe(201)
    const offerOfA = await waitUntil(async () => {
      const list = await tenantA.api.call<Envelope<Rec[]>>('GET', `/credentials?threadId=${offer.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'offer-received')
    })
    expect((await tenantB.api.call<Envelope<Rec[]>>('GET', '/credentials')).body.data).toEqual([])
    expect((await wallet.call<Envelope<Rec[]>>('GET', '/credentials')).body.data).toEqual([])
    expect((await tenantB.api.call('GET', `/credentials/${offerOfA.id}`)).status).toBe(404)

    expect(
      (await tenantA.api.call('POST', '/credentials/accept-offer', { credentialRecordId: offerOfA.id })).status,
    ).toBe(201)
    await waitUntil(async () => {
      const record = await tenantA.api.call<Envelope<Rec>>('GET', `/credentials/${offerOfA.id}`)
      return record.body.data.state === 'done' ? true : undefined
    })

    const request = await issuer.call<Envelope<Rec & { threadId: string }>>('POST', '/proofs/request', {
      connectionId: connectionOfA.issuerSide,
      presentationDefinition: aDegreePresentationDefinition(),
    })
    const requestOfA = await waitUntil(async () => {
      const list = await tenantA.api.call<Envelope<Rec[]>>('GET', `/proofs?threadId=${request.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'request-received')
    })
    expect((await tenantA.api.call('POST', '/proofs/accept-request', { proofRecordId: requestOfA.id })).status).toBe(
      201,
    )
    await waitUntil(async () => {
      const record = await issuer.call<Envelope<Rec>>('GET', `/proofs/${request.body.data.id}`)
      return ['presentation-received', 'done'].includes(record.body.data.state) ? true : undefined
    })
    const verified = await issuer.call<Envelope<{ isVerified: boolean }>>(
      'POST',
      `/proofs/${request.body.data.id}/verify`,
    )
    expect(verified.body.data.isVerified).toBe(true)
  })

  it("answers a verifier's hostile PE pattern in linear time, and the base agent keeps answering meanwhile", async () => {
    // `(a|a?)+$` against 28 `a`s and a `!` took 8 s on V8's backtracking engine, the agent silent all along (issue 23).
    const hostileName = 'a'.repeat(5_000) + '!'
    const issuerDid = (await issuer.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did
    const holderDid = (await tenantB.api.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data
      .did
    const offer = await issuer.call<Envelope<Rec & { threadId: string }>>('POST', '/credentials/offer', {
      connectionId: connectionOfB.issuerSide,
      credential: aDegreeCredential(issuerDid, holderDid, hostileName),
      options: signingOptions(),
    })
    expect(offer.status).toBe(201)
    const offerOfB = await waitUntil(async () => {
      const list = await tenantB.api.call<Envelope<Rec[]>>('GET', `/credentials?threadId=${offer.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'offer-received')
    })
    await tenantB.api.call('POST', '/credentials/accept-offer', { credentialRecordId: offerOfB.id })
    await waitUntil(async () => {
      const record = await tenantB.api.call<Envelope<Rec>>('GET', `/credentials/${offerOfB.id}`)
      return record.body.data.state === 'done' ? true : undefined
    })

    const request = await issuer.call<Envelope<Rec & { threadId: string }>>('POST', '/proofs/request', {
      connectionId: connectionOfB.issuerSide,
      presentationDefinition: aDegreePresentationDefinition([
        { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', pattern: '(a|a?)+$' } },
      ]),
    })
    const requestOfB = await waitUntil(async () => {
      const list = await tenantB.api.call<Envelope<Rec[]>>('GET', `/proofs?threadId=${request.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'request-received')
    })
    // The base agent's answer time with nothing else to do, for the bound below on a loaded machine: a regular
    // expression that backtracks blocks the event loop for the whole evaluation, far past a few quiet answers.
    let quietMax = 0
    for (let probe = 0; probe < 5; probe++) {
      const quietStarted = performance.now()
      expect((await fetch(`${wallet.adminUrl}/agent`)).status).toBe(200)
      quietMax = Math.max(quietMax, performance.now() - quietStarted)
    }
    const probes: number[] = []
    let isAccepting = true
    const probing = (async () => {
      while (isAccepting) {
        const started = performance.now()
        expect((await fetch(`${wallet.adminUrl}/agent`)).status).toBe(200)
        probes.push(performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    })()
    const started = performance.now()
    const accepted = await tenantB.api.call('POST', '/proofs/accept-request', { proofRecordId: requestOfB.id })
    const took = performance.now() - started
    isAccepting = false
    await probing
    expect(accepted.status).toBe(201)
    expect(took).toBeLessThan(5_000)
    // 2.5 s: the accept's own signing shares the event loop (CI at load 7 saw 1.5 s); a backtracking pattern on the
    // attacker's string would hold it for far longer than the accept's 5 s bound.
    expect(Math.max(...probes)).toBeLessThan(Math.max(2_500, 4 * quietMax))
    await waitUntil(async () => {
      const record = await issuer.call<Envelope<Rec>>('GET', `/proofs/${request.body.data.id}`)
      return ['presentation-received', 'done'].includes(record.body.data.state) ? true : undefined
    })
    // The verifier evaluates the same filter on the presentation, with the same matcher.
    const verified = await issuer.call<Envelope<{ isVerified: boolean }>>(
      'POST',
      `/proofs/${request.body.data.id}/verify`,
    )
    expect(verified.body.data.isVerified).toBe(true)
  })

  it('deletes tenant A with its records and keys; tenant B keeps working', async () => {
    expect((await wallet.call('DELETE', `/tenants/${tenantA.id}`)).status).toBe(200)
    expect((await wallet.call('GET', `/tenants/${tenantA.id}`)).status).toBe(404)
    expect((await tenantA.api.call('GET', '/connections')).status).toBe(404)
    expect((await wallet.call('DELETE', `/tenants/${tenantA.id}`)).status).toBe(404)
    expect(
      (await wallet.call<Envelope<{ id: string }[]>>('GET', '/tenants')).body.data.map((tenant) => tenant.id),
    ).toEqual([tenantB.id])

    await issuer.call('POST', `/basic-messages/${connectionOfB.issuerSide}`, { content: 'still there, Bob?' })
    await waitUntil(async () => {
      const list = await tenantB.api.call<Envelope<{ content: string }[]>>(
        'GET',
        `/basic-messages/${connectionOfB.holderSide}`,
      )
      return list.body.data.some((message) => message.content === 'still there, Bob?') ? true : undefined
    })

    // The wallet's own database: nothing of tenant A is left, tenant B's data is.
    await wallet.stop()
    const sql = await PgliteSqlClient.open(wallet.dataDir)
    try {
      const count = async (table: string, tenantId: string) =>
        (
          await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE context_id = $1`, [
            `tenant-${tenantId}`,
          ])
        ).rows[0].n
      expect(await count('records', tenantA.id)).toBe(0)
      expect(await count('kms_keys', tenantA.id)).toBe(0)
      expect(await count('records', tenantB.id)).toBeGreaterThan(0)
      expect(await count('kms_keys', tenantB.id)).toBeGreaterThan(0)
      const routing = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM records WHERE type = 'IdplaneTenantRoutingRecord' AND tags->>'tenantId' = $1`,
        [tenantA.id],
      )
      expect(routing.rows[0].n).toBe(0)
    } finally {
      await sql.close()
    }
  })

  it("times its embedded database's vacuum-and-analyze run at a start on an existing database in its metrics", async () => {
    // The wallet was stopped by the test above; a new database (its first start) had nothing to vacuum.
    wallet = await spawnAgent({ label: 'wallet', dataDir: wallet.dataDir, storage: 'pglite' })
    const metrics = await fetch(`${wallet.adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })
    const runs = /idplane_agent_embedded_database_maintenance_duration_seconds_count\{outcome="done"\} (\d+)/.exec(
      await metrics.text(),
    )
    expect(Number(runs?.[1])).toBe(1)
  })
})
