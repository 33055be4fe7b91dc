import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { RequestContext } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { AgentClients } from '../../api/src/agent-client/agent-clients'
import { CredentialDefinition } from '../../api/src/modules/cred-defs/credential-definition.entity'
import { CRED_DEF_QUEUE, CredDefsService } from '../../api/src/modules/cred-defs/cred-defs.service'
import { startPlatform, type Platform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { waitUntil } from '../helpers/agent-process'

jest.setTimeout(600_000)

const LEGACY_DID = /^[1-9A-HJ-NP-Za-km-z]{21,22}$/
/** A well-formed legacy DID no agent of this test made. */
const STRANGER_DID = 'Th7MpTaRZVRYnPiabds81Y'

interface CredDef {
  id: string
  credentialDefinitionId: string | null
  tag: string
  schemaLedgerId: string
  revocable: boolean
  publisherDid: string
  status: string
  error: string | null
}

const attribute = (name: string, schemaDataType = 'string') => ({
  attributeName: name,
  schemaDataType,
  displayName: `The ${name}`,
  isRequired: true,
})

/**
 * Issue 13, items 4 and 5, through the API with a real agent the platform provisions (its AnonCreds registry: the
 * test registry in a directory, as any registry would be): INDY schemas created under the organization's Indy DID,
 * read back from the ledger, listed with JSON ones; credential definitions made by a queued job, listed with the
 * spec's revocable filter, read by ledger id; 400 for malformed ids, 404 for absent ones, 409 for duplicates.
 * DATABASE_URL / AMQP_URL choose PostgreSQL and RabbitMQ, as everywhere; without them PGlite and the in-process queue.
 */
describe('INDY schemas and credential definitions through the API', () => {
  let platform: Platform
  let registryDir: string
  let owner: TestUser
  let orgId: string
  let primaryDid: string
  let schema: { id: string; schemaLedgerId: string; issuerId: string }
  let definition: CredDef

  const call = (method: 'get' | 'post', route: string, body?: object) => {
    const req = request(platform.api.app)[method](route).set('Authorization', `Bearer ${owner.token}`)
    return body === undefined ? req : req.send(body)
  }
  const indySchema = (name: string, version: string, extra: Record<string, unknown> = {}) => ({
    type: 'INDY',
    schemaPayload: {
      schemaName: name,
      schemaVersion: version,
      attributes: [attribute('name'), attribute('age', 'number'), attribute('graduated', 'date')],
      ...extra,
    },
  })

  beforeAll(async () => {
    registryDir = mkdtempSync(path.join(tmpdir(), 'indy-defs-registry-'))
    platform = await startPlatform({ AGENT_ANONCREDS_TEST_REGISTRY_DIR: registryDir })
    owner = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Indy Issuer')
    const dids = await call('get', `/v1/orgs/${orgId}/dids`).expect(200)
    const primary = (dids.body.data as { did: string; isPrimaryDid: boolean }[]).find((did) => did.isPrimaryDid)
    primaryDid = primary?.did ?? ''
  })

  afterAll(async () => {
    await platform?.stop()
    if (registryDir) rmSync(registryDir, { recursive: true, force: true })
  })

  it('creates an INDY schema under a legacy DID the agent makes, keeps the definitions, and refuses duplicates', async () => {
    // The primary DID is a did:key: the agent is asked for a legacy Indy DID.
    expect(primaryDid.startsWith('did:key:')).toBe(true)
    const created = await call('post', `/v1/orgs/${orgId}/schemas`, indySchema('Degree', '1.0')).expect(201)
    const record = created.body.data
    expect(record).toMatchObject({
      type: 'INDY',
      schemaType: 'INDY',
      name: 'Degree',
      version: '1.0',
      attributes: ['name', 'age', 'graduated'],
      createdBy: owner.id,
      orgId,
    })
    expect(record.issuerId).toMatch(LEGACY_DID)
    expect(record.publisherDid).toBe(record.issuerId)
    expect(record.schemaLedgerId).toBe(`${record.issuerId}:2:Degree:1.0`)
    schema = record

    // The platform refuses a second one of the same name and version before asking the ledger.
    const duplicate = await call('post', `/v1/orgs/${orgId}/schemas`, indySchema('Degree', '1.0')).expect(409)
    expect(duplicate.body.message).toMatch(/already exists/)

    // The organization keeps one issuer: the next schema is published under the same legacy DID.
    const next = await call('post', `/v1/orgs/${orgId}/schemas`, indySchema('Degree', '2.0')).expect(201)
    expect(next.body.data.issuerId).toBe(schema.issuerId)
    // orgDid names it explicitly; a DID of no one here, or the did:key, is a 400.
    const named = await call(
      'post',
      `/v1/orgs/${orgId}/schemas`,
      indySchema('Transcript', '1.0', { orgDid: schema.issuerId }),
    ).expect(201)
    expect(named.body.data.issuerId).toBe(schema.issuerId)
    const stranger = await call(
      'post',
      `/v1/orgs/${orgId}/schemas`,
      indySchema('Other', '1.0', { orgDid: STRANGER_DID }),
    ).expect(400)
    expect(stranger.body.message).toMatch(/not one of the organization's DIDs/)
    const notIndy = await call(
      'post',
      `/v1/orgs/${orgId}/schemas`,
      indySchema('Other', '1.0', { orgDid: primaryDid }),
    ).expect(400)
    expect(notIndy.body.message).toMatch(/not an Indy DID/)

    // Bad payloads are 400s naming the fields.
    const bad = await call('post', `/v1/orgs/${orgId}/schemas`, {
      type: 'INDY',
      schemaPayload: { schemaName: 'x:y', schemaVersion: 'one', attributes: [{ attributeName: 'a' }] },
    }).expect(400)
    expect(bad.body.message).toMatch(/schemaPayload\.schemaName/)
    expect(bad.body.message).toMatch(/schemaPayload\.attributes\[0\]\.schemaDataType/)
  })

  it('reads a schema from the ledger by legacy and did:indy id; 400 malformed, 404 absent', async () => {
    const byLegacy = await call('get', `/v1/orgs/${orgId}/schemas/${encodeURIComponent(schema.schemaLedgerId)}`)
    expect(byLegacy.status).toBe(200)
    expect(byLegacy.body.data).toMatchObject({
      schemaId: schema.schemaLedgerId,
      schema: { attrNames: ['name', 'age', 'graduated'], name: 'Degree', version: '1.0', issuerId: schema.issuerId },
      id: schema.id,
      attributeDefinitions: [attribute('name'), attribute('age', 'number'), attribute('graduated', 'date')],
    })
    const didIndyId = `did:indy:idplane-test:${schema.issuerId}/anoncreds/v0/SCHEMA/Degree/1.0`
    const byDidIndy = await call('get', `/v1/orgs/${orgId}/schemas/${encodeURIComponent(didIndyId)}`).expect(200)
    expect(byDidIndy.body.data.schema).toMatchObject({ name: 'Degree', version: '1.0' })
    expect(byDidIndy.body.data.schemaId).toBe(didIndyId)

    const absent = await call('get', `/v1/orgs/${orgId}/schemas/${encodeURIComponent(`${STRANGER_DID}:2:Nope:1.0`)}`)
    expect(absent.status).toBe(404)
    for (const malformed of ['not:a:schema', `${STRANGER_DID}:2:Nope`, 'did:indy:x/anoncreds/v0/SCHEMA/a/1']) {
      const res = await call('get', `/v1/orgs/${orgId}/schemas/${encodeURIComponent(malformed)}`)
      expect({ malformed, status: res.status }).toEqual({ malformed, status: 400 })
    }
  })

  it('lists INDY and JSON schemas together', async () => {
    await call('post', `/v1/orgs/${orgId}/schemas`, {
      type: 'JSON',
      schemaPayload: { schemaName: 'Badge', schemaType: 'NO_LEDGER', attributes: [attribute('name')] },
    }).expect(201)
    const list = await call('get', `/v1/orgs/${orgId}/schemas?pageSize=100`).expect(200)
    const types = (list.body.data.data as { type: string }[]).map((entry) => entry.type).sort()
    expect(types).toEqual(['INDY', 'INDY', 'INDY', 'JSON'])
    expect(list.body.data.totalItems).toBe(4)
  })

  it('refuses malformed and absent schemas before any job (revocable ones: revocation-api.e2e.test.ts)', async () => {
    const base = { tag: 'default', schemaLedgerId: schema.schemaLedgerId }
    await call('post', `/v1/orgs/${orgId}/cred-defs`, { ...base, schemaLedgerId: 'nope' }).expect(400)
    await call('post', `/v1/orgs/${orgId}/cred-defs`, { ...base, tag: 'a:b' }).expect(400)
    await call('post', `/v1/orgs/${orgId}/cred-defs`, { schemaLedgerId: schema.schemaLedgerId }).expect(400)
    await call('post', `/v1/orgs/${orgId}/cred-defs`, { ...base, revocable: 'no' }).expect(400)
    await call('post', `/v1/orgs/${orgId}/cred-defs`, {
      ...base,
      schemaLedgerId: `${STRANGER_DID}:2:Nope:1.0`,
    }).expect(404)
    const none = await call('get', `/v1/orgs/${orgId}/cred-defs?revocable=false`).expect(200)
    expect(none.body.data.totalItems).toBe(0)
  })

  it('creates a credential definition as a job: 201 at once, then created; one on the ledger; 409 again', async () => {
    const startedAt = Date.now()
    const created = await call('post', `/v1/orgs/${orgId}/cred-defs`, {
      tag: 'default',
      schemaLedgerId: schema.schemaLedgerId,
    }).expect(201)
    const answeredInMs = Date.now() - startedAt
    expect(created.body.data).toMatchObject({
      tag: 'default',
      schemaLedgerId: schema.schemaLedgerId,
      revocable: false,
      publisherDid: schema.issuerId,
      orgId,
      createdBy: owner.id,
      status: 'creating',
      credentialDefinitionId: null,
    })
    const recordId = (created.body.data as CredDef).id
    const finishedAt = Date.now()
    definition = await waitUntil(async () => {
      const res = await call('get', `/v1/orgs/${orgId}/cred-defs/${recordId}`).expect(200)
      const current = res.body.data as CredDef
      if (current.status === 'failed') throw new Error(`The job failed: ${current.error}`)
      return current.status === 'created' ? current : undefined
    }, 300_000)
    console.log(`cred-def POST answered in ${answeredInMs} ms; the job finished ${Date.now() - finishedAt} ms later`)
    expect(definition.credentialDefinitionId).toMatch(new RegExp(`^${schema.issuerId}:3:CL:[1-9][0-9]*:default$`))
    expect(definition.error).toBeNull()

    const duplicate = await call('post', `/v1/orgs/${orgId}/cred-defs`, {
      tag: 'default',
      schemaLedgerId: schema.schemaLedgerId,
    }).expect(409)
    expect(duplicate.body.message).toMatch(/already exists/)

    const metrics = await request(platform.api.app).get('/metrics').expect(200)
    expect(metrics.text).toMatch(/idplane_api_cred_def_jobs_total\{outcome="created"\} 1/)
    expect(metrics.text).toMatch(/idplane_api_cred_def_job_duration_seconds_count\{outcome="created"\} 1/)
  })

  it('reads a definition by ledger id; 400 malformed, 404 absent', async () => {
    const ledgerId = definition.credentialDefinitionId ?? ''
    const read = await call('get', `/v1/orgs/${orgId}/cred-defs/${encodeURIComponent(ledgerId)}`).expect(200)
    expect(read.body.data).toMatchObject({ id: definition.id, publisherDid: schema.issuerId, status: 'created' })
    for (const malformed of ['nope', `${STRANGER_DID}:3:CL:0:x`, ' ']) {
      const res = await call('get', `/v1/orgs/${orgId}/cred-defs/${encodeURIComponent(malformed)}`)
      expect({ malformed, status: res.status }).toEqual({ malformed, status: 400 })
    }
    const absent = `${STRANGER_DID}:3:CL:12:default`
    await call('get', `/v1/orgs/${orgId}/cred-defs/${encodeURIComponent(absent)}`).expect(404)
  })

  it("lists with the spec's revocable filter, search, sorting and paging, and by schema", async () => {
    // A second definition of another schema, to page and search over.
    const other = await call('get', `/v1/orgs/${orgId}/schemas?searchByText=Transcript`).expect(200)
    const transcript = (other.body.data.data as { schemaLedgerId: string }[])[0].schemaLedgerId
    const second = await call('post', `/v1/orgs/${orgId}/cred-defs`, {
      tag: 'transcripts',
      schemaLedgerId: transcript,
      revocable: false,
    }).expect(201)
    await waitUntil(async () => {
      const res = await call('get', `/v1/orgs/${orgId}/cred-defs/${second.body.data.id}`).expect(200)
      return res.body.data.status === 'created' ? true : undefined
    }, 300_000)

    // Default revocable=true: only revocable ones, and there are none.
    const byDefault = await call('get', `/v1/orgs/${orgId}/cred-defs`).expect(200)
    expect(byDefault.body.data).toMatchObject({ totalItems: 0, data: [] })
    const all = await call('get', `/v1/orgs/${orgId}/cred-defs?revocable=false&sorting=tag&sortByValue=ASC`).expect(200)
    expect((all.body.data.data as CredDef[]).map((entry) => entry.tag)).toEqual(['default', 'transcripts'])
    const paged = await call('get', `/v1/orgs/${orgId}/cred-defs?revocable=false&pageSize=1&pageNumber=2&sorting=tag`)
    expect(paged.status).toBe(200)
    expect(paged.body.data).toMatchObject({ totalItems: 2, lastPage: 2, hasNextPage: false })
    expect((paged.body.data.data as CredDef[]).map((entry) => entry.tag)).toEqual(['default'])
    const byTag = await call('get', `/v1/orgs/${orgId}/cred-defs?revocable=false&searchByText=transcr`).expect(200)
    expect((byTag.body.data.data as CredDef[]).map((entry) => entry.tag)).toEqual(['transcripts'])
    const bySchemaId = await call(
      'get',
      `/v1/orgs/${orgId}/cred-defs?revocable=false&searchByText=${encodeURIComponent(':2:Degree:1.0')}`,
    ).expect(200)
    expect((bySchemaId.body.data.data as CredDef[]).map((entry) => entry.tag)).toEqual(['default'])
    await call('get', `/v1/orgs/${orgId}/cred-defs?revocable=maybe`).expect(400)
    await call('get', `/v1/orgs/${orgId}/cred-defs?pageSize=101`).expect(400)
    await call('get', `/v1/orgs/${orgId}/cred-defs?sorting=nope`).expect(400)

    // The schema's own definitions, by ledger id or record id; empty for a JSON schema; 404 for an absent schema.
    const ofSchema = await call(
      'get',
      `/v1/orgs/${orgId}/schemas/${encodeURIComponent(schema.schemaLedgerId)}/cred-defs?sortBy=ASC`,
    ).expect(200)
    expect(ofSchema.body.data).toMatchObject({ totalItems: 1 })
    expect(ofSchema.body.data.data[0]).toMatchObject({ id: definition.id, tag: 'default' })
    const byRecord = await call('get', `/v1/orgs/${orgId}/schemas/${schema.id}/cred-defs`).expect(200)
    expect(byRecord.body.data.totalItems).toBe(1)
    await call('get', `/v1/orgs/${orgId}/schemas/${encodeURIComponent(`${STRANGER_DID}:2:Nope:1.0`)}/cred-defs`).expect(
      404,
    )
    await call('get', `/v1/orgs/${orgId}/schemas/${encodeURIComponent('a:b')}/cred-defs`).expect(400)
  })

  it('leaves one definition per schema and tag in the agent', async () => {
    const container = platform.api.runtime.container
    const agent = await RequestContext.create(container.get(EntityManager), () =>
      container.get(AgentClients).forOrg(orgId),
    )
    const created = await agent.listAnonCredsCredentialDefinitions()
    const ofDegree = created.filter(
      (entry) =>
        entry.credentialDefinition.schemaId === schema.schemaLedgerId && entry.credentialDefinition.tag === 'default',
    )
    expect(ofDegree.map((entry) => entry.credentialDefinitionId)).toEqual([definition.credentialDefinitionId])
  })

  it('adopts what the agent already registered when a job runs again (a process died before recording it)', async () => {
    const container = platform.api.runtime.container
    const em = container.get(EntityManager)
    // As a killed process leaves it: the definition registered in the agent, the record still `creating`.
    const execution = await RequestContext.create(em, async () => {
      const record = await em.findOneOrFail(CredentialDefinition, { id: definition.id })
      record.status = 'creating'
      record.credentialDefinitionId = null
      record.execution += 1
      await em.flush()
      return record.execution
    })
    await container.get(CredDefsService).handle({
      id: `cred-def:${definition.id}:${execution}`,
      queue: CRED_DEF_QUEUE,
      payload: { credDefId: definition.id, orgId, execution },
      attempt: 1,
      headers: {},
    })
    const read = await call('get', `/v1/orgs/${orgId}/cred-defs/${definition.id}`).expect(200)
    expect(read.body.data).toMatchObject({
      status: 'created',
      credentialDefinitionId: definition.credentialDefinitionId,
    })
    const metrics = await request(platform.api.app).get('/metrics').expect(200)
    expect(metrics.text).toMatch(/idplane_api_cred_def_jobs_total\{outcome="adopted"\} 1/)
    const agent = await RequestContext.create(em, () => container.get(AgentClients).forOrg(orgId))
    const created = await agent.listAnonCredsCredentialDefinitions()
    expect(created.filter((entry) => entry.credentialDefinition.tag === 'default')).toHaveLength(1)
  })
})
