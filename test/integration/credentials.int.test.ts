import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import request from 'supertest'
import { EntityManager } from '@mikro-orm/postgresql'
import { hashToken, randomSecret } from '../../api/src/infra/crypto/token-hash'
import { OrgAgent } from '../../api/src/modules/agents/org-agent.entity'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { recordPlatformEvents } from '../helpers/platform-events'
import { startApi, type TestApi } from '../helpers/api'
import { waitForMail } from '../helpers/auth-flow'
import { compileProgram, type CompiledProgram } from '../helpers/compile-program'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { claimAgentPorts } from '../helpers/ports'
import { aDegreeCredential, signingOptions } from '../fixtures/degree-credential'

jest.setTimeout(60_000)

/** Platform events published by any module, as a webhook listener would get them. */
const published = recordPlatformEvents()

const JSONLD = { credentialType: 'JSONLD' }

/** The value of one labelled sample in a Prometheus exposition (0 when absent). */
function counterValue(exposition: string, metric: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(',')
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${metric}{${wanted}}`))
  return line ? Number(line.split(' ').pop()) : 0
}

function aJsonLdEntry(issuer = 'did:key:z6MkNotOurs', overrides: Record<string, unknown> = {}) {
  const credential = aDegreeCredential(issuer, 'did:key:z6MkHolder')
  return { credential, options: signingOptions('Ed25519Signature2018'), ...overrides }
}

describe('credential issuance routes (no agent process)', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string

  beforeAll(async () => {
    api = await startApi({ OOB_BATCH_SIZE: '2' })
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
  })

  afterAll(async () => {
    await api?.stop()
  })

  const post = (path: string, body: unknown, query: Record<string, string> = JSONLD, token = owner.token) =>
    request(api.app)
      .post(`/v1/orgs/${orgId}/credentials/${path}`)
      .query(query)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object)

  it('answers 404 for an unknown credentialType (spec: Errors)', async () => {
    const res = await post(
      'offer',
      { credentialData: [{ connectionId: randomUUID(), ...aJsonLdEntry() }] },
      {
        credentialType: 'W3C',
      },
    )
    expect(res.status).toBe(404)
    expect(res.body.message).toMatch(/Unknown credentialType "W3C"/)
  })

  it('answers 400 naming credential and options when JSONLD lacks them', async () => {
    const res = await post('offer', { credentialData: [{ connectionId: randomUUID() }] })
    expect(res.status).toBe(400)
    expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'credentialData[0].credential',
      'credentialData[0].options',
    ])
    const oob = await post('oob/offer', { comment: 'no credential' })
    expect(oob.status).toBe(400)
    expect(oob.body.errors.map((error: { field: string }) => error.field)).toEqual(['credential', 'options'])
  })

  it('answers 400 without credentialDefinitionId for INDY, the default type, and for attributes it can check alone', async () => {
    const entry = { connectionId: randomUUID(), attributes: [{ name: 'name', value: 'Alice' }] }
    const missing = await post('offer', { credentialData: [entry] }, {})
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'credentialDefinitionId' })])
    const empty = await post(
      'offer',
      {
        credentialDefinitionId: 'cd:1',
        credentialData: [{ ...entry, attributes: [{ name: 'name', value: '', isRequired: true }] }],
      },
      { credentialType: 'INDY' },
    )
    expect(empty.status).toBe(400)
    expect(empty.body.errors).toEqual([expect.objectContaining({ field: 'credentialData[0].attributes[0].value' })])
    const v1 = await post(
      'oob/offer',
      {
        credentialDefinitionId: 'did:key:z6Mk/anoncreds/v0/CLAIM_DEF/1/default',
        protocolVersion: 'v1',
        attributes: entry.attributes,
      },
      { credentialType: 'INDY' },
    )
    expect(v1.status).toBe(400)
    expect(v1.body.errors).toEqual([expect.objectContaining({ field: 'protocolVersion' })])
    // A complete request needs the organization's agent to resolve the definition; this one has none.
    const complete = await post(
      'offer',
      { credentialDefinitionId: 'cd:1', credentialData: [entry] },
      { credentialType: 'INDY' },
    )
    expect(complete.status).toBe(404)
  })

  it('refuses protocol v1 for JSON-LD, a malformed connection id and a malformed isValidateSchema', async () => {
    const v1 = await post('offer', {
      protocolVersion: 'v1',
      credentialData: [{ connectionId: randomUUID(), ...aJsonLdEntry() }],
    })
    expect(v1.status).toBe(400)
    const badId = await post('offer', { credentialData: [{ connectionId: 'not-a-uuid', ...aJsonLdEntry() }] })
    expect(badId.status).toBe(400)
    const badFlag = await post(
      'offer',
      { credentialData: [{ connectionId: randomUUID(), ...aJsonLdEntry() }] },
      {
        ...JSONLD,
        isValidateSchema: 'maybe',
      },
    )
    expect(badFlag.status).toBe(400)
  })

  it('limits e-mail offers to OOB_BATCH_SIZE entries and checks each address', async () => {
    const offers = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ emailId: `holder${index}@example.test`, ...aJsonLdEntry() }))
    const tooMany = await post('oob/email', { credentialOffer: offers(3) })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.errors).toEqual([
      { field: 'credentialOffer', message: 'must hold at most 2 entries (OOB_BATCH_SIZE)' },
    ])
    const badAddress = await post('oob/email', { credentialOffer: [{ emailId: 'nobody', ...aJsonLdEntry() }] })
    expect(badAddress.status).toBe(400)
    const twice = await post('oob/email', {
      credentialOffer: [
        { emailId: 'same@example.test', ...aJsonLdEntry() },
        { emailId: 'SAME@example.test', ...aJsonLdEntry() },
      ],
    })
    expect(twice.status).toBe(400)
    expect(twice.body.errors).toEqual([{ field: 'credentialOffer[1].emailId', message: 'appears more than once' }])
    const empty = await post('oob/email', { credentialOffer: [] })
    expect(empty.status).toBe(400)
  })

  it('answers 404 for a valid offer of an organization without an agent', async () => {
    const res = await post('offer', { credentialData: [{ connectionId: randomUUID(), ...aJsonLdEntry() }] })
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('This organization has no agent')
  })

  it('lets an issuer offer and forbids a verifier (spec: Roles of the offer routes)', async () => {
    const issuer = await aUserWithToken(api)
    const verifier = await aUserWithToken(api)
    const otherOrg = await anOrganizationWith(api, [
      { user: issuer, roles: ['issuer'] },
      { user: verifier, roles: ['verifier'] },
    ])
    const body = { credentialData: [{ connectionId: randomUUID(), ...aJsonLdEntry() }] }
    const asIssuer = await request(api.app)
      .post(`/v1/orgs/${otherOrg}/credentials/offer`)
      .query(JSONLD)
      .set('Authorization', `Bearer ${issuer.token}`)
      .send(body)
    expect(asIssuer.status).toBe(404)
    const asVerifier = await request(api.app)
      .post(`/v1/orgs/${otherOrg}/credentials/offer`)
      .query(JSONLD)
      .set('Authorization', `Bearer ${verifier.token}`)
      .send(body)
    expect(asVerifier.status).toBe(403)
    const list = await request(api.app)
      .get(`/v1/orgs/${otherOrg}/credentials`)
      .set('Authorization', `Bearer ${verifier.token}`)
    expect(list.status).toBe(200)
  })

  it('answers the empty list, 404 for an unknown record, 400 for a malformed id, and deletes nothing without an agent', async () => {
    const auth = { Authorization: `Bearer ${owner.token}` }
    const list = await request(api.app).get(`/v1/orgs/${orgId}/credentials`).set(auth)
    expect(list.status).toBe(200)
    expect(list.body.data).toMatchObject({ totalItems: 0, data: [], hasNextPage: false })
    expect((await request(api.app).get(`/v1/orgs/${orgId}/credentials/${randomUUID()}`).set(auth)).status).toBe(404)
    expect((await request(api.app).get(`/v1/orgs/${orgId}/credentials/nope`).set(auth)).status).toBe(400)
    expect((await request(api.app).get(`/v1/orgs/${orgId}/credentials?pageSize=101`).set(auth)).status).toBe(400)
    expect((await request(api.app).get(`/v1/orgs/${orgId}/credentials?sortField=secret`).set(auth)).status).toBe(400)
    const deleted = await request(api.app).delete(`/v1/orgs/${orgId}/issuance-records`).set(auth)
    expect(deleted.status).toBe(200)
    expect(deleted.body.message).toBe('0 issuance record(s) deleted')
  })
})

describe('issuance records from agent events', () => {
  let api: TestApi
  let owner: TestUser
  let orgId: string
  let eventToken: string

  beforeAll(async () => {
    api = await startApi()
    owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    // An agent record holding an event token, as spin-up leaves it (no agent process needed here).
    eventToken = randomSecret()
    const em = api.runtime.container.get(EntityManager).fork()
    em.create(OrgAgent, {
      organization: em.getReference(Organization, orgId),
      label: 'Issuer wallet',
      runtime: 'process',
      encryptedApiKey: 'unused',
      encryptedWalletKey: 'unused',
      eventTokenHash: hashToken(eventToken),
    })
    await em.flush()
  })

  afterAll(async () => {
    await api?.stop()
  })

  const credentialEvent = (id: string, record: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    request(api.app)
      .post('/v1/internal/agent-events')
      .set('Authorization', `Bearer ${eventToken}`)
      .send({
        id,
        kind: 'credential',
        agentLabel: 'Issuer wallet',
        occurredAt: new Date().toISOString(),
        record,
        ...extra,
      })
      .expect(200)

  const exchange = (state: string, second: number, extra: Record<string, unknown> = {}) => ({
    id: recordId,
    state,
    role: 'issuer',
    connectionId: 'c0ffee00-0000-4000-8000-000000000001',
    threadId: 'thread-1',
    protocolVersion: 'v2',
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: `2026-11-24T10:00:${String(second).padStart(2, '0')}.000Z`,
    ...extra,
  })
  const recordId = randomUUID()

  const readRecord = async () =>
    (
      await request(api.app)
        .get(`/v1/orgs/${orgId}/credentials/${recordId}`)
        .set('Authorization', `Bearer ${owner.token}`)
        .expect(200)
    ).body.data

  const eventsOfRecord = () =>
    published.filter((event) => event.type === 'credential.state-changed' && event.record.id === recordId)

  it('creates the record, moves it forward, ignores repeats and late events, and announces each change once', async () => {
    await credentialEvent('e1', exchange('offer-sent', 1))
    expect(await readRecord()).toMatchObject({
      id: recordId,
      state: 'offer-sent',
      connectionId: 'c0ffee00-0000-4000-8000-000000000001',
      threadId: 'thread-1',
      protocolVersion: 'v2',
      credentialDefinitionId: null,
      createdAt: '2026-11-24T10:00:00.000Z',
      agentDetail: null,
    })
    await credentialEvent('e1', exchange('offer-sent', 1)) // the same event again (at-least-once delivery)
    await credentialEvent('e2', exchange('offer-sent', 2)) // another event, no new state
    await credentialEvent('e4', exchange('credential-issued', 4))
    await credentialEvent('e3', exchange('request-received', 3)) // late
    expect((await readRecord()).state).toBe('credential-issued')
    await credentialEvent('e5', exchange('done', 5))
    await credentialEvent('e6', exchange('abandoned', 6, { errorMessage: 'too late' }))
    const record = await readRecord()
    expect(record).toMatchObject({ state: 'done', errorMessage: null })
    expect(eventsOfRecord().map((event) => event.record.state)).toEqual(['offer-sent', 'credential-issued', 'done'])
    expect(eventsOfRecord().every((event) => event.orgId === orgId)).toBe(true)
    const metrics = await request(api.app).get('/metrics')
    expect(counterValue(metrics.text, 'idplane_api_credential_state_changes_total', { state: 'done' })).toBe(1)
  })

  it("keeps the reason of a failed exchange and ignores a cloud-wallet tenant's exchanges", async () => {
    const failedId = randomUUID()
    await credentialEvent('f1', { ...exchange('request-received', 1), id: failedId })
    await credentialEvent('f2', {
      ...exchange('abandoned', 2),
      id: failedId,
      errorMessage: 'issuance-abandoned: The credential cannot be signed',
    })
    const failed = await request(api.app)
      .get(`/v1/orgs/${orgId}/credentials/${failedId}`)
      .set('Authorization', `Bearer ${owner.token}`)
    expect(failed.body.data).toMatchObject({
      state: 'abandoned',
      errorMessage: 'issuance-abandoned: The credential cannot be signed',
    })
    const tenantRecordId = randomUUID()
    await credentialEvent('t1', { ...exchange('offer-received', 1), id: tenantRecordId }, { tenantId: 'tenant-1' })
    await request(api.app)
      .get(`/v1/orgs/${orgId}/credentials/${tenantRecordId}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(404)
  })

  it('pages, searches and sorts the records', async () => {
    const auth = { Authorization: `Bearer ${owner.token}` }
    for (const [index, state] of ['offer-sent', 'done', 'request-received'].entries()) {
      await credentialEvent(`p${index}`, {
        ...exchange(state, 1),
        id: randomUUID(),
        threadId: `paging-${index}`,
        createdAt: `2026-11-25T10:00:0${index}.000Z`,
      })
    }
    const page = await request(api.app).get(`/v1/orgs/${orgId}/credentials?pageSize=2&pageNumber=1`).set(auth)
    expect(page.body.data).toMatchObject({ totalItems: 5, hasNextPage: true, nextPage: 2, lastPage: 3 })
    expect(page.body.data.data.map((record: { threadId: string }) => record.threadId)).toEqual(['paging-2', 'paging-1'])
    const ascending = await request(api.app).get(`/v1/orgs/${orgId}/credentials?sortBy=ASC&pageSize=1`).set(auth)
    expect(ascending.body.data.data[0].threadId).toBe('thread-1')
    const search = await request(api.app).get(`/v1/orgs/${orgId}/credentials?searchByText=paging-1`).set(auth)
    expect(search.body.data.data.map((record: { threadId: string }) => record.threadId)).toEqual(['paging-1'])
    const byState = await request(api.app).get(`/v1/orgs/${orgId}/credentials?search=ABANDON`).set(auth)
    expect(byState.body.data.totalItems).toBe(1)
  })

  it("does not show one organization's records to another", async () => {
    const other = await aUserWithToken(api)
    const otherOrg = await anOrganizationWith(api, [{ user: other, roles: ['owner'] }])
    await request(api.app)
      .get(`/v1/orgs/${otherOrg}/credentials/${recordId}`)
      .set('Authorization', `Bearer ${other.token}`)
      .expect(404)
  })

  it('deletes the platform records; the agent that is not ready answers 409', async () => {
    const res = await request(api.app)
      .delete(`/v1/orgs/${orgId}/issuance-records`)
      .set('Authorization', `Bearer ${owner.token}`)
    expect(res.status).toBe(409)
  })
})

describe('credential issuance routes with the real agent program', () => {
  let compiled: CompiledProgram | undefined
  let api: TestApi
  let owner: TestUser
  let orgId: string
  let issuerDid: string

  beforeAll(async () => {
    compiled = await compileProgram('agent')
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '90',
      AGENT_POLL_INTERVAL_MS: '500',
      // Away from fixed ports another run on the machine (CI, another file) may hold.
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
    })
    owner = await aUserWithToken(api, `owner-${randomUUID()}@example.test`)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Issuer', method: 'key' })
      .expect(201)
    const deadline = Date.now() + 100_000
    for (;;) {
      const health = await request(api.app)
        .get(`/v1/orgs/${orgId}/agents/health`)
        .set('Authorization', `Bearer ${owner.token}`)
      const status = (health.body.data as { status: string }).status
      if (status === 'DID_CREATED') break
      if (status === 'FAILED' || Date.now() > deadline) throw new Error(`Agent ended in ${status}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const dids = await request(api.app).get(`/v1/orgs/${orgId}/dids`).set('Authorization', `Bearer ${owner.token}`)
    issuerDid = (dids.body.data as { did: string }[])[0].did
  }, 150_000)

  afterAll(async () => {
    await api?.stop()
    compiled?.remove()
  }, 60_000)

  const post = (path: string, body: unknown) =>
    request(api.app)
      .post(`/v1/orgs/${orgId}/credentials/${path}`)
      .query(JSONLD)
      .set('Authorization', `Bearer ${owner.token}`)
      .send(body as object)

  it('answers 404 for a connection the agent does not know, offering nothing', async () => {
    const res = await post('offer', { credentialData: [{ connectionId: randomUUID(), ...aJsonLdEntry(issuerDid) }] })
    expect(res.status).toBe(404)
  })

  it('refuses with 400 an offer the agent cannot sign (a term its @context does not define)', async () => {
    const entry = aJsonLdEntry(issuerDid)
    const credential = {
      ...entry.credential,
      credentialSubject: { ...entry.credential.credentialSubject, colour: 'blue' },
    }
    const res = await post('oob/offer', { ...entry, credential })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/cannot be signed.*colour/)
    const foreign = await post('oob/offer', aJsonLdEntry('did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH'))
    expect(foreign.status).toBe(400)
  })

  it('validates a credential against the platform schema it names unless isValidateSchema is false', async () => {
    const schema = await request(api.app)
      .post(`/v1/orgs/${orgId}/schemas`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({
        type: 'JSON',
        schemaPayload: {
          schemaName: `Graduate ${randomUUID().slice(0, 8)}`,
          description: 'A graduate',
          schemaType: 'NO_LEDGER',
          attributes: [{ attributeName: 'name', displayName: 'Name', schemaDataType: 'string', isRequired: true }],
        },
      })
      .expect(201)
    const entry = aJsonLdEntry(issuerDid)
    const credential = {
      ...entry.credential,
      credentialSchema: { id: schema.body.data.schemaLedgerId, type: 'JsonSchemaValidator2018' },
    }
    const refused = await post('oob/offer', { ...entry, credential })
    expect(refused.status).toBe(400)
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([{ field: 'credentialSubject.name', message: 'is required' }]),
    )
    const unchecked = await request(api.app)
      .post(`/v1/orgs/${orgId}/credentials/oob/offer`)
      .query({ ...JSONLD, isValidateSchema: 'false' })
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ ...entry, credential })
    expect(unchecked.status).toBe(201)
    expect(unchecked.body.data.record.schemaId).toBe(schema.body.data.schemaLedgerId)
  })

  it('creates an out-of-band offer with a short URL and records it as offer-sent', async () => {
    const res = await post('oob/offer', { ...aJsonLdEntry(issuerDid), isShortenUrl: true, comment: 'Your degree' })
    expect(res.status).toBe(201)
    const data = res.body.data
    expect(data.invitationUrl).toMatch(/[?&]oob=/)
    expect(data.shortUrl).toMatch(/\/s\/[A-Za-z0-9_-]+$/)
    expect(data.record).toMatchObject({
      state: 'offer-sent',
      credentialType: 'JSONLD',
      outOfBandId: data.outOfBandId,
      credentialSummary: {
        types: ['VerifiableCredential', 'UniversityDegreeCredential'],
        issuer: issuerDid,
        attributeNames: ['degree'],
      },
    })
    const shortPath = new URL(data.shortUrl).pathname
    const resolved = await request(api.app).get(shortPath).set('Accept', 'application/json')
    expect(resolved.status).toBe(200)
    expect(resolved.body['@id']).toBe(data.invitation['@id'])

    const detail = await request(api.app)
      .get(`/v1/orgs/${orgId}/credentials/${data.record.id}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200)
    expect(detail.body.data.agentDetail.record).toMatchObject({ id: data.record.id, state: 'offer-sent' })
    expect(detail.body.data.agentDetail.formData).toHaveProperty('offer')
    const metrics = await request(api.app).get('/metrics')
    expect(metrics.text).toMatch(
      /idplane_api_credential_offer_duration_seconds_count\{route="oob",result="success"\} [1-9]/,
    )
  })

  it('mails one offer per address with the short link and a QR code', async () => {
    const emailId = `holder-${randomUUID().slice(0, 8)}@example.test`
    const res = await post('oob/email', { comment: 'Mail', credentialOffer: [{ emailId, ...aJsonLdEntry(issuerDid) }] })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual([
      expect.objectContaining({
        emailId,
        invitationUrl: expect.stringMatching(/\/s\//),
        record: expect.objectContaining({ emailId }),
      }),
    ])
    const mail = await waitForMail(api.dataDir, emailId)
    expect(mail.text).toContain(res.body.data[0].invitationUrl)
    expect(mail.html).toMatch(/<img src="data:image\/png;base64,/)
  })

  it("deletes the platform's and the agent's records", async () => {
    const res = await request(api.app)
      .delete(`/v1/orgs/${orgId}/issuance-records`)
      .set('Authorization', `Bearer ${owner.token}`)
    expect(res.status).toBe(200)
    expect(res.body.message).toMatch(/^[1-9]\d* issuance record\(s\) deleted$/)
    const list = await request(api.app)
      .get(`/v1/orgs/${orgId}/credentials`)
      .set('Authorization', `Bearer ${owner.token}`)
    expect(list.body.data.totalItems).toBe(0)
  })
})
