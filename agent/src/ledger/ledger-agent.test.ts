import { TypedArrayEncoder } from '@credo-ts/core'

import { FakeLedger, signed } from '../../../test/helpers/fake-ledger'
import { type LedgerAgent, startLedgerAgent } from '../../../test/helpers/ledger-agent'
import type { IdplaneAgent } from '../credo/build-agent'
import { indyDidDocument } from './indy-dids'

const NAMESPACE = 'idplane'
const SEED = 'ledger-agent-test-seed-000000001'

/**
 * A real Credo agent (its KMS, its DID records, our AnonCreds services, its admin routes) on the ledger's HTTP
 * contract, with the ledger played at the edge by an in-test server that checks every signature against the NYM
 * verkeys. PGlite in memory, or PostgreSQL when DATABASE_URL is set. The same flows against the real ledger module
 * and agent processes belong in the e2e suite once the ledger branch is merged.
 */
describe('an agent on the platform ledger', () => {
  let ledger: FakeLedger
  let subject: LedgerAgent
  let agent: IdplaneAgent
  let endpoint: string
  const post = (path: string, body: unknown) => subject.post(path, body)

  beforeAll(async () => {
    ledger = await new FakeLedger(NAMESPACE).start()
    subject = await startLedgerAgent(ledger, 'subject')
    agent = subject.agent
    endpoint = subject.endpoint
    // Agent startup takes a while on a loaded machine.
  }, 120_000)

  afterAll(async () => {
    await subject?.close()
    await ledger?.stop()
  })

  it('creates a did:indy DID: NYM with proof of possession, endpoint ATTRIB signed by the new key, DidRecord', async () => {
    const response = await post('/dids', { method: 'indy' })
    expect(response.status).toBe(201)
    const did = response.body.data.did as string
    const id = did.replace(`did:indy:${NAMESPACE}:`, '')
    expect(did).toMatch(/^did:indy:idplane:[1-9A-HJ-NP-Za-km-z]{21,22}$/)

    const nym = ledger.transactions.find((transaction) => transaction.type === 'NYM' && transaction.objectId === id)
    const verkey = nym?.payload.verkey as string
    expect(TypedArrayEncoder.toBase58(TypedArrayEncoder.fromBase58(verkey).subarray(0, 16))).toBe(id)
    const nymRequest = ledger.requests.find((entry) => entry.path === '/v1/ledger/nyms')
    expect(nymRequest?.authorization).toBe(`Bearer ${ledger.token}`)

    const attrib = ledger.transactions.find(
      (transaction) => transaction.type === 'ATTRIB' && transaction.authorDid === id,
    )
    expect(attrib?.payload).toEqual({ dest: id, raw: { endpoint: { endpoint, routingKeys: [] } } })

    const [record] = await agent.dids.getCreatedDids({ did })
    expect(record.keys).toEqual([{ didDocumentRelativeKeyId: '#verkey', kmsKeyId: expect.any(String) }])
    expect(response.body.data.didDocument.verificationMethod[0]).toMatchObject({
      id: `${did}#verkey`,
      type: 'Ed25519VerificationKey2018',
      publicKeyBase58: verkey,
    })
    const listed = await subject.get('/dids')
    expect(listed.body.data).toContainEqual(expect.objectContaining({ did, method: 'indy' }))
  })

  it('is idempotent for a seeded DID: the same DID again, one NYM on the ledger', async () => {
    const first = await post('/dids', { method: 'indy', seed: SEED })
    const second = await post('/dids', { method: 'indy', seed: SEED })
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.body.data.did).toBe(first.body.data.did)
    const id = (first.body.data.did as string).split(':').at(-1)
    expect(ledger.transactions.filter((t) => t.type === 'NYM' && t.objectId === id)).toHaveLength(1)
  })

  it('resolves did:indy and did:sov DIDs from the ledger into documents DIDComm can use', async () => {
    const created = await post('/dids', { method: 'indy', endpoint: 'https://agent.example.com/didcomm' })
    const did = created.body.data.did as string
    const id = did.split(':').at(-1) as string

    const fromLedger = await agent.dids.resolve(did, { useLocalCreatedDidRecord: false })
    expect(fromLedger.didResolutionMetadata.error).toBeUndefined()
    const document = fromLedger.didDocument
    expect(document?.id).toBe(did)
    expect(document?.didCommServices.map((service) => service.serviceEndpoint)).toEqual([
      'https://agent.example.com/didcomm',
    ])
    // The ledger's X25519 key agreement is the one this agent derives for its own record (libsodium).
    const verkey = TypedArrayEncoder.fromBase58(ledger.verkeyOf(id) as string)
    const local = await indyDidDocument(did, verkey, 'https://agent.example.com/didcomm')
    expect(document?.keyAgreement?.map((key) => (typeof key === 'string' ? key : key.publicKeyBase58))).toEqual(
      local.keyAgreement?.map((key) => (typeof key === 'string' ? key : key.publicKeyBase58)),
    )
    expect(document?.recipientKeys.map((key) => key.fingerprint)).toEqual(
      local.recipientKeys.map((key) => key.fingerprint),
    )

    const sov = await agent.dids.resolve(`did:sov:${id}`)
    expect(sov.didDocument?.verificationMethod?.[0]?.publicKeyBase58).toBe(ledger.verkeyOf(id))

    const absent = await agent.dids.resolve(`did:indy:${NAMESPACE}:VGekVpqihCAwQWMtQ7gNTV`)
    expect(absent.didResolutionMetadata).toMatchObject({ error: 'notFound' })
    const foreign = await agent.dids.resolve(`did:indy:sovrin:${id}`)
    expect(foreign.didResolutionMetadata).toMatchObject({
      error: 'notFound',
      message: expect.stringMatching(/idplane/),
    })
  })

  it('writes a schema and a credential definition of a did:indy issuer, signed with its key', async () => {
    const issuer = (await post('/dids', { method: 'indy' })).body.data.did as string
    const id = issuer.split(':').at(-1) as string
    const schema = await post('/anoncreds/schemas', {
      issuerId: issuer,
      name: 'employee',
      version: '1.0',
      attributes: ['name', 'role'],
    })
    expect(schema.status).toBe(201)
    expect(schema.body.data.schemaId).toBe(`${issuer}/anoncreds/v0/SCHEMA/employee/1.0`)
    const written = ledger.transactions.find((t) => t.type === 'SCHEMA' && t.authorDid === id)
    expect(written?.objectId).toBe(`${id}:2:employee:1.0`)

    const definition = await post('/anoncreds/credential-definitions', { schemaId: schema.body.data.schemaId })
    expect(definition.status).toBe(201)
    expect(definition.body.data.credentialDefinitionId).toBe(
      `${issuer}/anoncreds/v0/CLAIM_DEF/${written?.seqNo}/default`,
    )
    const definitionWritten = ledger.transactions.at(-1)
    expect(definitionWritten).toMatchObject({ type: 'CRED_DEF', objectId: `${id}:3:CL:${written?.seqNo}:default` })
    // A real CL public key: r holds the schema's attributes and the link secret.
    const primary = (definitionWritten?.payload.value as { primary: { n: string; r: Record<string, string> } }).primary
    expect(Object.keys(primary.r).sort()).toEqual(['master_secret', 'name', 'role'])
    expect(BigInt(primary.n).toString(2).length).toBeGreaterThanOrEqual(2047)

    // What the holder and verifier see: the same objects, read back in the form asked for.
    const legacy = await agent.modules.anoncreds.getCredentialDefinition(`${id}:3:CL:${written?.seqNo}:default`)
    expect(legacy.credentialDefinition).toMatchObject({ issuerId: id, schemaId: `${id}:2:employee:1.0` })

    const duplicate = await post('/anoncreds/schemas', {
      issuerId: issuer,
      name: 'employee',
      version: '1.0',
      attributes: ['other'],
    })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.message).toMatch(/already registered/)
  }, 120_000)

  it('gives a legacyIdentifiers schema a did:indy issuer on the ledger and legacy identifiers', async () => {
    const response = await post('/anoncreds/schemas', {
      legacyIdentifiers: true,
      name: 'badge',
      version: '2.0',
      attributes: ['holder'],
    })
    expect(response.status).toBe(201)
    const issuerId = response.body.data.schema.issuerId as string
    expect(response.body.data.schemaId).toBe(`${issuerId}:2:badge:2.0`)
    expect(ledger.verkeyOf(issuerId)).toBeDefined()
    const [record] = await agent.dids.getCreatedDids({ did: `did:indy:${NAMESPACE}:${issuerId}` })
    expect(record).toBeDefined()
    const schema = ledger.transactions.at(-1)
    // Bound to the issuer's previous transaction: its endpoint ATTRIB.
    const previous = ledger.transactions.filter((t) => t.authorDid === issuerId && t.seqNo < (schema?.seqNo ?? 0))
    expect(previous.at(-1)?.type).toBe('ATTRIB')
    expect(schema?.lastSeqNo).toBe(previous.at(-1)?.seqNo)
    expect(
      signed(
        Buffer.from(
          `{"authorDid":"${issuerId}","lastSeqNo":${schema?.lastSeqNo},"namespace":"${NAMESPACE}","payload":{"attrNames":["holder"],"name":"badge","version":"2.0"},"type":"SCHEMA"}`,
        ),
        schema?.signature as string,
        ledger.verkeyOf(issuerId) as string,
      ),
    ).toBe(true)
  })

  it('refuses an issuer DID it does not hold (400) and bad input for an indy DID (400)', async () => {
    const foreign = await post('/anoncreds/schemas', {
      issuerId: `did:indy:${NAMESPACE}:VGekVpqihCAwQWMtQ7gNTV`,
      name: 'x',
      version: '1.0',
      attributes: ['a'],
    })
    expect(foreign.status).toBe(400)
    expect(foreign.body.message).toMatch(/not a did:indy DID this agent created/)
    const badEndpoint = await post('/dids', { method: 'indy', endpoint: 'not a url' })
    expect(badEndpoint.status).toBe(400)
    expect(badEndpoint.body.message).toMatch(/endpoint/)
  })

  it('answers 502 naming the ledger when it cannot be reached', async () => {
    await ledger.stop()
    const response = await post('/dids', { method: 'indy' })
    expect(response.status).toBe(502)
    // The NYM request is bound to the DID's state: reading it is the first request that fails.
    expect(response.body.message).toMatch(
      /Could not write the NYM: The ledger did not answer GET \/v1\/ledger\/dids\/.*\/state/,
    )
  })
})
