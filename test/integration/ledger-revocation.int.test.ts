import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { AnonCredsRegistryService } from '@credo-ts/anoncreds'
import { ledgerSigningBytes } from '@idplane/common/agent-contract/ledger'
import {
  createRevocationRegistryDefinition,
  createRevocationStatusList,
  updateRevocationStatusList,
  type RevocationRegistryDefinition,
  type RevocationStatusList,
} from '../../agent/src/anoncreds/revocation'
import { tailsHash } from '../../agent/src/anoncreds/revocation/tails'
import { KmsLedgerSigner } from '../../agent/src/ledger/indy-dids'
import { LedgerClient } from '../../agent/src/ledger/ledger-client'
import { downloadTailsFile, TailsFileError } from '../../agent/src/ledger/ledger-tails-files'
import { Ed25519Signer } from '../../api/src/modules/ledger/ledger-crypto'
import { LedgerService } from '../../api/src/modules/ledger/ledger.module'
import { type TestApi } from '../helpers/api'
import { startLedgerAgent, type LedgerAgent } from '../helpers/ledger-agent'
import { claimAgentPorts } from '../helpers/ports'
import { type LedgerPlatform, startLedgerPlatform } from '../helpers/revocation-agents'

jest.setTimeout(240_000)

const NAMESPACE = 'idplane:test'
type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
const fixtures = path.join(__dirname, '..', 'fixtures', 'anoncreds-revocation')
const fixture = (name: string): Json => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8'))
/** A revocable credential definition made by anoncreds-rs (public and private parts) and its schema's attributes. */
const definitionFixture = fixture('anoncreds-credential-definition')
const schemaFixture = fixture('anoncreds-schema')

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Issue 25, item 2, through the real API and a real agent: a Credo agent with its KMS and did:indy DID on the platform
 * ledger registers a schema, a revocable credential definition, a revocation registry definition (its tails file
 * stored by the platform) and two status lists through its AnonCreds registry; both are read back by both id forms
 * and at timestamps; the holder's download checks the tails file's hash and refuses another file. The ledger's
 * refusals (malformed, another author's, stale accumulator) answer 4xx. DATABASE_URL chooses PostgreSQL.
 */
describe(`revocation on the platform ledger (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let platform: LedgerPlatform
  let api: TestApi
  let baseUrl: string
  let agentToken: string
  let issuer: LedgerAgent
  let client: LedgerClient
  let issuerDid: string
  let unqualifiedDid: string
  let credDefId: string
  let revRegDefId: string
  let legacyRevRegDefId: string
  let definition: RevocationRegistryDefinition
  let privatePart: Json
  let tailsFile: Uint8Array
  let first: RevocationStatusList & { timestamp: number }
  let second: RevocationStatusList & { timestamp: number }

  const registry = () =>
    issuer.agent.dependencyManager
      .resolve(AnonCredsRegistryService)
      .getRegistryForIdentifier(issuer.agent.context, issuerDid)
  const get = (route: string) => request(api.app).get(route)

  beforeAll(async () => {
    // An organization's agent (a fake program) for its event token: the real agent below posts with it.
    platform = await startLedgerPlatform(await claimAgentPorts(), 'Revocation', { TAILS_FILE_MAX_BYTES: '8192' })
    ;({ api, baseUrl, token: agentToken } = platform)
    issuer = await startLedgerAgent({ url: baseUrl, token: agentToken }, 'revocation')
    client = new LedgerClient({ baseUrl, token: agentToken, retryBaseMs: 10 })
    const created = await issuer.post('/dids', { method: 'indy' }).expect(201)
    issuerDid = created.body.data.did as string
    unqualifiedDid = issuerDid.split(':').at(-1) as string
  }, 240_000)

  afterAll(async () => {
    await issuer?.close()
    await platform?.stop()
  })

  it('registers a schema and a revocable credential definition under the agent did:indy', async () => {
    const schema = await registry().registerSchema(issuer.agent.context, {
      schema: { ...schemaFixture, issuerId: issuerDid } as never,
      options: {},
    })
    expect(schema.schemaState.state).toBe('finished')
    const credential = definitionFixture.credentialDefinition
    const result = await registry().registerCredentialDefinition(issuer.agent.context, {
      credentialDefinition: {
        issuerId: issuerDid,
        schemaId: schema.schemaState.schemaId as string,
        type: 'CL',
        tag: 'revocable',
        value: credential.value,
      },
      options: {},
    })
    expect(result.credentialDefinitionState).toMatchObject({ state: 'finished' })
    credDefId = result.credentialDefinitionState.credentialDefinitionId as string
    const read = await get(`/v1/ledger/cred-defs/${encodeURIComponent(credDefId)}`).expect(200)
    expect(read.body.data.credentialDefinition.value.revocation).toEqual(credential.value.revocation)
  })

  it('stores the tails file by its hash and serves it without a token; refuses what is not a tails file', async () => {
    const made = await createRevocationRegistryDefinition({
      credentialDefinition: definitionFixture.credentialDefinition,
      credentialDefinitionId: credDefId,
      issuerId: issuerDid,
      tag: 'r1',
      maximumCredentialNumber: 10,
      tailsLocation: 'pending',
      tailsThreads: 0,
    })
    tailsFile = made.tailsFile
    privatePart = made.revocationRegistryDefinitionPrivate
    const stored = await client.uploadTailsFile(tailsFile)
    expect(stored).toEqual({
      tailsHash: made.revocationRegistryDefinition.value.tailsHash,
      tailsLocation: `${baseUrl}/v1/tails-files/${made.revocationRegistryDefinition.value.tailsHash}`,
      size: tailsFile.length,
    })
    // Content-addressed: the same bytes again are the same file.
    expect(await client.uploadTailsFile(tailsFile)).toEqual(stored)
    definition = {
      ...made.revocationRegistryDefinition,
      value: { ...made.revocationRegistryDefinition.value, tailsLocation: stored.tailsLocation },
    }
    const served = await fetch(stored.tailsLocation)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('application/octet-stream')
    expect(tailsHash(new Uint8Array(await served.arrayBuffer()))).toBe(stored.tailsHash)

    const upload = (body: Buffer, token = agentToken) =>
      request(api.app)
        .post('/v1/tails-files')
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/octet-stream')
        .send(body)
    expect((await upload(Buffer.from('not a tails file'))).status).toBe(400)
    expect((await upload(Buffer.alloc(9000))).status).toBe(413)
    expect((await upload(Buffer.from(tailsFile), 'not-a-token')).status).toBe(401)
    await get('/v1/tails-files/not-a-hash').expect(400)
    await get(`/v1/tails-files/${tailsHash(Buffer.from('absent'))}`).expect(404)
  })

  it('registers the registry definition and reads it back by its did:indy and legacy ids', async () => {
    const result = await registry().registerRevocationRegistryDefinition(issuer.agent.context, {
      revocationRegistryDefinition: definition,
      options: {},
    })
    const schemaSeqNo = credDefId.split('/').at(-2)
    expect(result.revocationRegistryDefinitionState).toEqual({
      state: 'finished',
      revocationRegistryDefinition: definition,
      revocationRegistryDefinitionId: `${issuerDid}/anoncreds/v0/REV_REG_DEF/${schemaSeqNo}/revocable/r1`,
    })
    revRegDefId = result.revocationRegistryDefinitionState.revocationRegistryDefinitionId as string
    legacyRevRegDefId = `${unqualifiedDid}:4:${unqualifiedDid}:3:CL:${schemaSeqNo}:revocable:CL_ACCUM:r1`

    const qualified = await registry().getRevocationRegistryDefinition(issuer.agent.context, revRegDefId)
    expect(qualified.revocationRegistryDefinition).toEqual(definition)
    const legacy = await registry().getRevocationRegistryDefinition(issuer.agent.context, legacyRevRegDefId)
    expect(legacy.revocationRegistryDefinition).toEqual({
      ...definition,
      issuerId: unqualifiedDid,
      credDefId: `${unqualifiedDid}:3:CL:${schemaSeqNo}:revocable`,
    })
    const onLedger = await get(`/v1/ledger/rev-reg-defs/${encodeURIComponent(revRegDefId)}`).expect(200)
    expect(onLedger.body.data).toMatchObject({
      revocationRegistryDefinitionId: revRegDefId,
      revocationRegistryDefinition: definition,
    })
    const transaction = (await get(`/v1/ledger/transactions/${onLedger.body.data.seqNo}`).expect(200)).body.data
    expect(transaction).toMatchObject({ type: 'REVOC_REG_DEF', id: legacyRevRegDefId, didIndyId: revRegDefId })
    // The same definition again is a conflict (its id is taken).
    const again = await registry().registerRevocationRegistryDefinition(issuer.agent.context, {
      revocationRegistryDefinition: definition,
      options: {},
    })
    expect(again.revocationRegistryDefinitionState).toMatchObject({ state: 'failed', reason: /already registered/ })
  })

  it('publishes two status lists and reads each back at its timestamp, by both ids', async () => {
    await get(`/v1/ledger/rev-reg-defs/${encodeURIComponent(revRegDefId)}/status-list`).expect(404)
    const initial = createRevocationStatusList({
      credentialDefinition: definitionFixture.credentialDefinition,
      revocationRegistryDefinitionId: revRegDefId,
      revocationRegistryDefinition: definition,
      revocationRegistryDefinitionPrivate: privatePart,
    })
    const one = await registry().registerRevocationStatusList(issuer.agent.context, {
      revocationStatusList: initial as never,
      options: {},
    })
    expect(one.revocationStatusListState.state).toBe('finished')
    first = one.revocationStatusListState.revocationStatusList as never
    expect(first).toEqual({ ...initial, timestamp: expect.any(Number) })
    // Timestamps are seconds: the next list lands in a later second.
    await sleep(1100)
    const revoked = updateRevocationStatusList({
      credentialDefinition: definitionFixture.credentialDefinition,
      revocationRegistryDefinition: definition,
      revocationRegistryDefinitionPrivate: privatePart,
      revocationStatusList: first,
      revoked: [3, 5],
    })
    const two = await registry().registerRevocationStatusList(issuer.agent.context, {
      revocationStatusList: revoked as never,
      options: {},
    })
    second = two.revocationStatusListState.revocationStatusList as never
    expect(second.timestamp).toBeGreaterThan(first.timestamp)
    const entry = (await get(`/v1/ledger/transactions/${two.revocationStatusListMetadata.indyLedgerSeqNo}`).expect(200))
      .body.data
    expect(entry.payload).toEqual({
      revRegDefId: legacyRevRegDefId,
      revocDefType: 'CL_ACCUM',
      value: { accum: revoked.currentAccumulator, prevAccum: initial.currentAccumulator, revoked: [3, 5] },
    })

    for (const id of [revRegDefId, legacyRevRegDefId]) {
      const issuerId = id === revRegDefId ? issuerDid : unqualifiedDid
      const atFirst = await registry().getRevocationStatusList(issuer.agent.context, id, first.timestamp)
      expect(atFirst.revocationStatusList).toEqual({ ...first, revRegDefId: id, issuerId })
      const atSecond = await registry().getRevocationStatusList(issuer.agent.context, id, second.timestamp + 60)
      expect(atSecond.revocationStatusList).toEqual({ ...second, revRegDefId: id, issuerId })
      expect(atSecond.revocationStatusList?.revocationList.flatMap((bit, index) => (bit ? [index] : []))).toEqual([
        3, 5,
      ])
      const before = await registry().getRevocationStatusList(issuer.agent.context, id, first.timestamp - 1)
      expect(before.resolutionMetadata).toMatchObject({ error: 'notFound' })
    }
    const now = await get(`/v1/ledger/rev-reg-defs/${encodeURIComponent(legacyRevRegDefId)}/status-list`).expect(200)
    expect(now.body.data.revocationStatusList.currentAccumulator).toBe(second.currentAccumulator)
    await get(`/v1/ledger/rev-reg-defs/${encodeURIComponent(legacyRevRegDefId)}/status-list?timestamp=soon`).expect(400)
    await get('/v1/ledger/rev-reg-defs/not-an-id').expect(400)
  })

  it('downloads the tails file for a holder with its hash checked, and refuses another file under that hash', async () => {
    const downloaded = await downloadTailsFile(definition)
    expect(Buffer.from(downloaded).equals(Buffer.from(tailsFile))).toBe(true)
    // Another registry's file, served where this definition says its own is: same size, another hash.
    const other = await createRevocationRegistryDefinition({
      credentialDefinition: definitionFixture.credentialDefinition,
      credentialDefinitionId: credDefId,
      issuerId: issuerDid,
      tag: 'r2',
      maximumCredentialNumber: 10,
      tailsLocation: 'pending',
      tailsThreads: 0,
    })
    const elsewhere = await client.uploadTailsFile(other.tailsFile)
    const tampered = { ...definition, value: { ...definition.value, tailsLocation: elsewhere.tailsLocation } }
    const refusal = await downloadTailsFile(tampered).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(TailsFileError)
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `is not the registry's: its hash is ${elsewhere.tailsHash}, the definition's tailsHash is ${definition.value.tailsHash}`,
      ),
    )
    const missing = {
      ...definition,
      value: { ...definition.value, tailsLocation: `${baseUrl}/v1/tails-files/${tailsHash(Buffer.from('x'))}` },
    }
    await expect(downloadTailsFile(missing)).rejects.toThrow(/could not be downloaded \(HTTP 404\)/)
  })

  it('refuses malformed and foreign revocation writes with 4xx and a message; the chain still verifies', async () => {
    const stranger = new Ed25519Signer(randomBytes(32))
    await api.runtime.container.get(LedgerService).writeNym({ did: stranger.did, verkey: stranger.verkey })
    const signedBy = async (signer: Ed25519Signer, type: 'REVOC_REG_DEF' | 'REVOC_REG_ENTRY', payload: unknown) => {
      const state = await get(`/v1/ledger/dids/${signer.did}/state`).expect(200)
      const lastSeqNo = state.body.data.lastSeqNo as number
      const bytes = ledgerSigningBytes({ namespace: NAMESPACE, type, authorDid: signer.did, payload, lastSeqNo })
      return request(api.app)
        .post('/v1/ledger/transactions')
        .send({ type, authorDid: signer.did, payload, lastSeqNo, signature: signer.sign(bytes) })
    }
    const legacyCredDefId = `${unqualifiedDid}:3:CL:${credDefId.split('/').at(-2)}:revocable`
    const { issuerId: _issuer, ...definitionPayload } = { ...definition, credDefId: legacyCredDefId }

    const foreignDefinition = await signedBy(stranger, 'REVOC_REG_DEF', { ...definitionPayload, tag: 'mine' })
    expect(foreignDefinition.status).toBe(400)
    expect(foreignDefinition.body.errors[0]).toMatchObject({ field: 'payload.credDefId' })
    const malformed = await signedBy(stranger, 'REVOC_REG_DEF', {
      ...definitionPayload,
      value: { ...definitionPayload.value, maxCredNum: 0, tailsHash: 'xyz', publicKeys: { accumKey: { z: '1 2 3' } } },
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'payload.value.maxCredNum',
      'payload.value.publicKeys.accumKey.z',
      'payload.value.tailsHash',
    ])
    const entry = (value: Record<string, unknown>) => ({
      revRegDefId: legacyRevRegDefId,
      revocDefType: 'CL_ACCUM',
      value,
    })
    const foreignEntry = await signedBy(stranger, 'REVOC_REG_ENTRY', entry({ accum: second.currentAccumulator }))
    expect(foreignEntry.status).toBe(400)
    expect(foreignEntry.body.errors[0]).toMatchObject({ field: 'payload.revRegDefId' })

    // The issuer's own entries, signed with its agent's key through the registry's write path.
    const issuerWrite = (value: Record<string, unknown>) =>
      client
        .writeTransaction({ type: 'REVOC_REG_ENTRY', authorDid: unqualifiedDid, payload: entry(value) }, (data) =>
          signWithAgent(issuer, unqualifiedDid, data),
        )
        .then(
          () => new Error('written'),
          (error: unknown) => error as Error,
        )
    const beyond = await issuerWrite({
      accum: first.currentAccumulator,
      prevAccum: second.currentAccumulator,
      issued: [10],
    })
    expect(beyond.message).toMatch(/HTTP 400\): Invalid ledger transaction payload/)
    const stale = await issuerWrite({
      accum: second.currentAccumulator,
      prevAccum: first.currentAccumulator,
      issued: [3],
    })
    expect(stale.message).toMatch(/HTTP 409.*The accumulator of the registry has moved/)
    const both = await issuerWrite({
      accum: second.currentAccumulator,
      prevAccum: second.currentAccumulator,
      issued: [3],
      revoked: [3],
    })
    expect(both.message).toMatch(/HTTP 400\): Invalid ledger transaction payload/)

    const check = await get('/v1/ledger/verify').expect(200)
    expect(check.body.data.isValid).toBe(true)
  })
})

/** Signs ledger bytes with the agent's KMS key of `did`, as its registry does. */
async function signWithAgent(agent: LedgerAgent, did: string, data: Uint8Array): Promise<string> {
  return new KmsLedgerSigner().sign(agent.agent.context, { namespace: NAMESPACE, authorDid: did, data })
}
