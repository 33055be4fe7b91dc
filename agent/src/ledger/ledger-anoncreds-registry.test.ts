import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto'

import type { AgentContext } from '@credo-ts/core'
import { TypedArrayEncoder } from '@credo-ts/core'
import { canonicalJson } from '@idplane/common/agent-contract/ledger'

import { FakeLedger, signed } from '../../../test/helpers/fake-ledger'
import type { LedgerSigner } from './indy-dids'
import { LedgerAnonCredsRegistry } from './ledger-anoncreds-registry'
import { LedgerClient } from './ledger-client'

// The registry hands the context to its signer only; the test signer below ignores it.
const context = {} as AgentContext
const NAMESPACE = 'testnet'

/** An issuer whose key lives in this test: its NYM is on the fake ledger, its signer signs as the KMS one would. */
class TestIssuer implements LedgerSigner {
  public readonly signed: { authorDid: string; data: string }[] = []
  private readonly privateKey: KeyObject
  public readonly verkey: string
  public readonly did: string

  public constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    this.privateKey = privateKey
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url')
    this.verkey = TypedArrayEncoder.toBase58(raw)
    this.did = TypedArrayEncoder.toBase58(raw.subarray(0, 16))
  }

  public async register(client: LedgerClient): Promise<void> {
    await client.writeNym({ did: this.did, verkey: this.verkey }, async (data) => this.signBytes(data))
  }

  public async sign(_context: AgentContext, input: { namespace: string; authorDid: string; data: Uint8Array }) {
    if (input.authorDid !== this.did) throw new Error(`not my DID: ${input.authorDid}`)
    this.signed.push({ authorDid: input.authorDid, data: Buffer.from(input.data).toString('utf8') })
    return this.signBytes(input.data)
  }

  private signBytes(data: Uint8Array): string {
    return TypedArrayEncoder.toBase58(sign(null, data, this.privateKey))
  }
}

const schemaOf = (issuerId: string, version = '1.0') => ({
  issuerId,
  name: 'person',
  version,
  attrNames: ['name', 'age'],
})
const definitionOf = (issuerId: string, schemaId: string, tag = 'default') => ({
  issuerId,
  schemaId,
  type: 'CL' as const,
  tag,
  value: { primary: { n: '123', s: '45', r: { name: '6', age: '7', master_secret: '8' }, rctxt: '9', z: '10' } },
})

describe('LedgerAnonCredsRegistry', () => {
  let ledger: FakeLedger
  let client: LedgerClient
  let issuer: TestIssuer
  let registry: LedgerAnonCredsRegistry

  beforeEach(async () => {
    ledger = await new FakeLedger(NAMESPACE).start()
    client = new LedgerClient({ baseUrl: ledger.url, token: ledger.token, sleep: async () => undefined })
    issuer = new TestIssuer()
    await issuer.register(client)
    registry = new LedgerAnonCredsRegistry(client, issuer)
  })
  afterEach(() => ledger.stop())

  it('claims legacy and did:indy identifiers, not did:key or did:sov ones', () => {
    const did = issuer.did
    for (const id of [
      did,
      `${did}:2:person:1.0`,
      `${did}:3:CL:12:default`,
      `did:indy:${NAMESPACE}:${did}`,
      `did:indy:${NAMESPACE}:${did}/anoncreds/v0/SCHEMA/person/1.0`,
      `did:indy:other:net:${did}/anoncreds/v0/CLAIM_DEF/12/default`,
    ])
      expect(registry.supportedIdentifier.test(id)).toBe(true)
    for (const id of ['did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', `did:sov:${did}`, 'person'])
      expect(registry.supportedIdentifier.test(id)).toBe(false)
  })

  it('signs exactly the canonical JSON of {namespace, type, authorDid, payload, lastSeqNo} and the ledger verifies it', async () => {
    const result = await registry.registerSchema(context, { schema: schemaOf(issuer.did), options: {} })
    expect(result.schemaState).toMatchObject({ state: 'finished', schemaId: `${issuer.did}:2:person:1.0` })
    const payload = { name: 'person', version: '1.0', attrNames: ['name', 'age'] }
    // Bound to the issuer's NYM, its only transaction before this one.
    const lastSeqNo = ledger.transactions.find((t) => t.type === 'NYM' && t.objectId === issuer.did)?.seqNo
    const expected = `{"authorDid":"${issuer.did}","lastSeqNo":${lastSeqNo},"namespace":"${NAMESPACE}","payload":{"attrNames":["name","age"],"name":"person","version":"1.0"},"type":"SCHEMA"}`
    expect(issuer.signed).toEqual([{ authorDid: issuer.did, data: expected }])
    expect(canonicalJson({ namespace: NAMESPACE, type: 'SCHEMA', authorDid: issuer.did, payload, lastSeqNo })).toBe(
      expected,
    )
    const written = ledger.transactions.at(-1)
    expect(written).toMatchObject({ type: 'SCHEMA', authorDid: issuer.did, payload })
    expect(signed(Buffer.from(expected), written?.signature as string, issuer.verkey)).toBe(true)
  })

  it('registers and resolves in the form it is asked with: legacy ids stay legacy, did:indy ids stay did:indy', async () => {
    const legacy = await registry.registerSchema(context, { schema: schemaOf(issuer.did), options: {} })
    const legacySchemaId = legacy.schemaState.schemaId as string
    const schemaSeqNo = ledger.transactions.at(-1)?.seqNo
    expect(legacy.schemaMetadata).toEqual({ indyLedgerSeqNo: schemaSeqNo, didIndyNamespace: NAMESPACE })

    const qualifiedIssuer = `did:indy:${NAMESPACE}:${issuer.did}`
    const qualified = await registry.registerSchema(context, { schema: schemaOf(qualifiedIssuer, '2.0'), options: {} })
    expect(qualified.schemaState).toMatchObject({
      state: 'finished',
      schemaId: `${qualifiedIssuer}/anoncreds/v0/SCHEMA/person/2.0`,
    })
    // The ledger holds unqualified DIDs only.
    expect(ledger.transactions.at(-1)).toMatchObject({ authorDid: issuer.did, objectId: `${issuer.did}:2:person:2.0` })

    const asLegacy = await registry.getSchema(context, legacySchemaId)
    expect(asLegacy.schema).toEqual(schemaOf(issuer.did))
    const asQualified = await registry.getSchema(context, `${qualifiedIssuer}/anoncreds/v0/SCHEMA/person/1.0`)
    expect(asQualified.schema).toEqual(schemaOf(qualifiedIssuer))

    // A credential definition names its schema by the schema's ledger sequence number.
    const definition = await registry.registerCredentialDefinition(context, {
      credentialDefinition: definitionOf(issuer.did, legacySchemaId),
      options: {},
    })
    const legacyDefinitionId = `${issuer.did}:3:CL:${schemaSeqNo}:default`
    expect(definition.credentialDefinitionState).toMatchObject({
      state: 'finished',
      credentialDefinitionId: legacyDefinitionId,
    })
    expect(ledger.transactions.at(-1)?.payload).toEqual({
      schemaId: legacySchemaId,
      type: 'CL',
      tag: 'default',
      value: definitionOf(issuer.did, legacySchemaId).value,
    })
    const qualifiedDefinition = await registry.registerCredentialDefinition(context, {
      credentialDefinition: definitionOf(qualifiedIssuer, `${qualifiedIssuer}/anoncreds/v0/SCHEMA/person/1.0`, 'other'),
      options: {},
    })
    expect(qualifiedDefinition.credentialDefinitionState).toMatchObject({
      state: 'finished',
      credentialDefinitionId: `${qualifiedIssuer}/anoncreds/v0/CLAIM_DEF/${schemaSeqNo}/other`,
    })

    const readLegacy = await registry.getCredentialDefinition(context, legacyDefinitionId)
    expect(readLegacy.credentialDefinition).toEqual(definitionOf(issuer.did, legacySchemaId))
    const readQualified = await registry.getCredentialDefinition(
      context,
      `${qualifiedIssuer}/anoncreds/v0/CLAIM_DEF/${schemaSeqNo}/default`,
    )
    expect(readQualified.credentialDefinition).toEqual(
      definitionOf(qualifiedIssuer, `${qualifiedIssuer}/anoncreds/v0/SCHEMA/person/1.0`),
    )
    expect(readQualified.credentialDefinitionMetadata).toMatchObject({ didIndyNamespace: NAMESPACE })
  })

  it('keeps what it resolved: ledger objects never change', async () => {
    const { schemaState } = await registry.registerSchema(context, { schema: schemaOf(issuer.did), options: {} })
    const reads = () => ledger.requests.filter((request) => request.path.startsWith('/v1/ledger/schemas/')).length
    await registry.getSchema(context, schemaState.schemaId as string)
    await registry.getSchema(context, `did:indy:${NAMESPACE}:${issuer.did}/anoncreds/v0/SCHEMA/person/1.0`)
    expect(reads()).toBe(1)
  })

  it('maps 404 to notFound, a malformed id to invalid, and another namespace to notFound without asking', async () => {
    const absent = await registry.getSchema(context, `${issuer.did}:2:absent:1.0`)
    expect(absent.schema).toBeUndefined()
    expect(absent.resolutionMetadata).toMatchObject({ error: 'notFound', message: expect.stringMatching(/HTTP 404/) })
    const absentDefinition = await registry.getCredentialDefinition(context, `${issuer.did}:3:CL:99:default`)
    expect(absentDefinition.resolutionMetadata.error).toBe('notFound')
    expect((await registry.getSchema(context, 'not-an-id')).resolutionMetadata.error).toBe('invalid')
    const before = ledger.requests.length
    const foreign = await registry.getSchema(context, `did:indy:sovrin:${issuer.did}/anoncreds/v0/SCHEMA/person/1.0`)
    expect(foreign.resolutionMetadata).toMatchObject({ error: 'notFound', message: expect.stringMatching(/testnet/) })
    expect(ledger.requests.length).toBe(before)
  })

  it('answers 409 as a failed state "already registered"', async () => {
    await registry.registerSchema(context, { schema: schemaOf(issuer.did), options: {} })
    const again = await registry.registerSchema(context, {
      schema: { ...schemaOf(issuer.did), attrNames: ['other'] },
      options: {},
    })
    expect(again.schemaState).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/already registered.*409/),
    })
  })

  it('takes a 409 after an unanswered attempt of the same write as that attempt having been appended', async () => {
    ledger.dropNext = 1
    ledger.dropAfterWrite = true
    ledger.dropOnlyWrites = true
    const result = await registry.registerSchema(context, { schema: schemaOf(issuer.did), options: {} })
    expect(result.schemaState).toMatchObject({ state: 'finished', schemaId: `${issuer.did}:2:person:1.0` })
    expect(ledger.transactions.filter((transaction) => transaction.type === 'SCHEMA')).toHaveLength(1)
  })

  it('fails clearly on a network error, a refused signature, a foreign issuer and no ledger at all', async () => {
    const unreachable = new LedgerAnonCredsRegistry(
      new LedgerClient({ baseUrl: 'http://127.0.0.1:1', attempts: 2, sleep: async () => undefined }),
      issuer,
    )
    const offline = await unreachable.registerSchema(context, { schema: schemaOf(issuer.did), options: {} })
    expect(offline.schemaState).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/The ledger did not answer GET \/v1\/ledger .*after 2 attempts/),
    })

    const impostor = new TestIssuer()
    const wrongKey = new LedgerAnonCredsRegistry(client, {
      sign: (agentContext, input) => impostor.sign(agentContext, { ...input, authorDid: impostor.did }),
    })
    const refused = await wrongKey.registerSchema(context, { schema: schemaOf(issuer.did), options: {} })
    expect(refused.schemaState).toMatchObject({ state: 'failed', reason: expect.stringMatching(/HTTP 400.*signature/) })

    const foreign = await registry.registerSchema(context, {
      schema: schemaOf(`did:indy:sovrin:${issuer.did}`),
      options: {},
    })
    expect(foreign.schemaState).toMatchObject({ state: 'failed', reason: expect.stringMatching(/namespace testnet/) })
    const didKey = await registry.registerSchema(context, {
      schema: schemaOf('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'),
      options: {},
    })
    expect(didKey.schemaState).toMatchObject({ state: 'failed', reason: expect.stringMatching(/Indy DID/) })

    const none = new LedgerAnonCredsRegistry(new LedgerClient({ baseUrl: undefined }), issuer)
    const unconfigured = await none.getSchema(context, `${issuer.did}:2:person:1.0`)
    expect(unconfigured.resolutionMetadata).toMatchObject({
      error: 'unsupportedAnonCredsMethod',
      message: expect.stringMatching(/No ledger is configured/),
    })
  })

  it('claims revocation registry ids in both forms and refuses malformed revocation input before any write', async () => {
    const did = issuer.did
    const legacy = `${did}:4:${did}:3:CL:12:default:CL_ACCUM:r1`
    const qualified = `did:indy:${NAMESPACE}:${did}/anoncreds/v0/REV_REG_DEF/12/default/r1`
    expect(registry.supportedIdentifier.test(legacy)).toBe(true)
    expect(registry.supportedIdentifier.test(qualified)).toBe(true)
    const before = ledger.transactions.length

    const notAnId = await registry.getRevocationRegistryDefinition(context, `${did}:3:CL:12:default`)
    expect(notAnId.resolutionMetadata).toMatchObject({ error: 'invalid' })
    const elsewhere = await registry.getRevocationStatusList(context, qualified.replace(NAMESPACE, 'other'), 10)
    expect(elsewhere.resolutionMetadata).toMatchObject({ error: 'notFound', message: /not on this platform's ledger/ })
    const badTime = await registry.getRevocationStatusList(context, legacy, -1)
    expect(badTime.resolutionMetadata).toMatchObject({ error: 'invalid' })

    const definition = {
      issuerId: `did:indy:${NAMESPACE}:${did}`,
      revocDefType: 'CL_ACCUM' as const,
      tag: 'r1',
      credDefId: `did:indy:${NAMESPACE}:${did}/anoncreds/v0/CLAIM_DEF/12/default`,
      value: { maxCredNum: 10, publicKeys: { accumKey: { z: '1 0' } }, tailsHash: 'h', tailsLocation: 'https://t' },
    }
    const register = (changes: Partial<typeof definition>) =>
      registry.registerRevocationRegistryDefinition(context, {
        revocationRegistryDefinition: { ...definition, ...changes },
        options: {},
      })
    expect((await register({ issuerId: `did:sov:${did}` })).revocationRegistryDefinitionState).toMatchObject({
      state: 'failed',
      reason: /Indy DID/,
    })
    expect((await register({ credDefId: 'nope' })).revocationRegistryDefinitionState).toMatchObject({
      state: 'failed',
      reason: /not an Indy credential definition id/,
    })
    const foreign = `did:indy:${NAMESPACE}:Th7MpTaRZVRYnPiabds81Y/anoncreds/v0/CLAIM_DEF/12/default`
    expect((await register({ credDefId: foreign })).revocationRegistryDefinitionState).toMatchObject({
      state: 'failed',
      reason: /not a credential definition of/,
    })
    expect((await register({ tag: 'a:b' })).revocationRegistryDefinitionState.state).toBe('failed')

    const list = {
      issuerId: definition.issuerId,
      revRegDefId: qualified,
      revocationList: [0, 0],
      currentAccumulator: '1 0',
    }
    const publish = (changes: Partial<typeof list>) =>
      registry.registerRevocationStatusList(context, { revocationStatusList: { ...list, ...changes }, options: {} })
    expect((await publish({ revRegDefId: 'nope' })).revocationStatusListState).toMatchObject({
      state: 'failed',
      reason: /not an Indy revocation registry id/,
    })
    expect((await publish({ currentAccumulator: '' })).revocationStatusListState.state).toBe('failed')
    expect(
      (await publish({ revRegDefId: qualified.replace(did, 'Th7MpTaRZVRYnPiabds81Y') })).revocationStatusListState,
    ).toMatchObject({ state: 'failed', reason: /not a registry of/ })
    expect(ledger.transactions).toHaveLength(before)
  })
})
