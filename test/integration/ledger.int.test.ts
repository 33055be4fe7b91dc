import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { Registry } from 'prom-client'
import { ledgerSigningBytes, nymPossessionBytes } from '@idplane/common/agent-contract/ledger'
import { decodeBase58, encodeBase58 } from '../../common/base58'
import { readCredentialDefinition } from '../../agent/src/anoncreds/credential-definition'
import { Database } from '../../api/src/infra/db/database'
import { SecretBox } from '../../api/src/infra/crypto/secret-box'
import { BASE_WALLET_SCOPE } from '../../api/src/modules/cloud-wallet/base-wallet.entity'
import { CloudWalletsRepository } from '../../api/src/modules/cloud-wallet/cloud-wallets.repository'
import { factoryClassKey } from '../../api/src/infra/tokens'
import { Ed25519Signer } from '../../api/src/modules/ledger/ledger-crypto'
import { LedgerHead, LedgerService } from '../../api/src/modules/ledger/ledger.module'
import { LedgerTrustee } from '../../api/src/modules/ledger/ledger-trustee'
import { runLedgerVerify } from '../../api/src/modules/ledger/ledger-commands'
import { startApi, type TestApi } from '../helpers/api'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'
import { type AgentPorts, claimAgentPorts } from '../helpers/ports'

const programs = writeFakeAgentPrograms(tmpdir())
afterAll(() => programs.remove())

const NAMESPACE = 'idplane:test'
/** A credential definition made by agent/src/anoncreds (committed fixture: keeps the test free of prime searches). */
const fixture = JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'anoncreds', 'small.json'), 'utf8')) as {
  schema: { attrNames: string[] }
  credentialDefinition: { value: Record<string, unknown> }
}

describe(`the platform ledger (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let api: TestApi
  let agentToken: string
  let orgId: string
  const issuer = new Ed25519Signer(randomBytes(32))

  /** The DID's binding, as an honest writer reads it just before signing. */
  const lastSeqNoOf = async (did: string) =>
    (await request(api.app).get(`/v1/ledger/dids/${did}/state`).expect(200)).body.data.lastSeqNo as number
  const signed = async (signer: Ed25519Signer, type: 'SCHEMA' | 'CRED_DEF' | 'ATTRIB' | 'NYM', payload: unknown) => {
    const lastSeqNo = await lastSeqNoOf(signer.did)
    const bytes = ledgerSigningBytes({ namespace: NAMESPACE, type, authorDid: signer.did, payload, lastSeqNo })
    return { type, authorDid: signer.did, payload, lastSeqNo, signature: signer.sign(bytes) }
  }
  const write = (body: unknown) =>
    request(api.app)
      .post('/v1/ledger/transactions')
      .send(body as object)
  /** An agent's NYM request for `signer`'s DID, bound to the DID's state; the answer must have `status`. */
  const nymRequest = async (signer: Ed25519Signer, status: number, token = agentToken) => {
    const lastSeqNo = await lastSeqNoOf(signer.did)
    const { did, verkey } = signer
    return request(api.app)
      .post('/v1/ledger/nyms')
      .set('Authorization', `Bearer ${token}`)
      .send({
        did,
        verkey,
        lastSeqNo,
        signature: signer.sign(nymPossessionBytes({ namespace: NAMESPACE, did, verkey, lastSeqNo })),
      })
      .expect(status)
  }
  const sql = (query: string) =>
    api.runtime.container.get(factoryClassKey(Database)).orm.em.fork().getConnection().execute(query)

  let agentPorts: AgentPorts
  beforeAll(async () => {
    agentPorts = await claimAgentPorts()
    api = await startApi({
      LEDGER_NAMESPACE: NAMESPACE,
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_POLL_ATTEMPTS: '50',
      AGENT_POLL_INTERVAL_MS: '100',
      AGENT_PORT_COUNTER_START: agentPorts.setting,
    })
    const owner = await aUserWithToken(api)
    orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Ledger' })
      .expect(201)
    const deadline = Date.now() + 30_000
    for (;;) {
      try {
        const env = (await (await fetch(`http://127.0.0.1:${agentPorts.admin + 1}/env`)).json()) as Record<
          string,
          string
        >
        agentToken = env.AGENT_EVENT_TOKEN ?? ''
        break
      } catch (error) {
        if (Date.now() > deadline) throw error
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
  })

  it('has one genesis transaction, the trustee NYM, however often and concurrently it is ensured', async () => {
    const ledger = api.runtime.container.get(LedgerHead)
    const trustee = api.runtime.container.get(LedgerTrustee)
    const genesis = await Promise.all(Array.from({ length: 5 }, () => ledger.ensureGenesis()))
    expect(new Set(genesis.map((txn) => txn.hash)).size).toBe(1)
    const info = (await request(api.app).get('/v1/ledger').expect(200)).body.data
    expect(info).toEqual({
      namespace: NAMESPACE,
      trusteeDid: trustee.did,
      genesisHash: genesis[0]?.hash,
      head: { seqNo: expect.any(Number), hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
    const first = (await request(api.app).get('/v1/ledger/transactions/1').expect(200)).body.data
    expect(first).toMatchObject({ seqNo: 1, type: 'NYM', authorDid: trustee.did, prevHash: '0'.repeat(64) })
    expect(first.payload).toEqual({ dest: trustee.did, verkey: expect.any(String), role: 'TRUSTEE' })
    // The trustee had no transaction before its genesis NYM: bound to 0.
    expect(first.lastSeqNo).toBe(0)
  })

  it('writes a NYM an agent asks for with its event token and proof of possession, idempotently', async () => {
    const created = await nymRequest(issuer, 201)
    expect(created.body.data).toMatchObject({ type: 'NYM', objectId: issuer.did, payload: { dest: issuer.did } })
    const again = await nymRequest(issuer, 200)
    expect(again.body.data.seqNo).toBe(created.body.data.seqNo)
    const rows = await sql(`select requested_by_org_id from ledger_transactions where object_id = '${issuer.did}'`)
    expect(rows).toEqual([{ requested_by_org_id: orgId }])
  })

  it("writes a NYM the cloud wallet's base agent asks for with the base wallet's API key, for no organization", async () => {
    const baseApiKey = randomBytes(24).toString('base64url')
    const box = api.runtime.container.get(factoryClassKey(SecretBox))
    const tenantDid = new Ed25519Signer(randomBytes(32))
    // No base wallet yet: the key is no one's.
    await nymRequest(tenantDid, 401, baseApiKey)
    await api.runtime.container.get(CloudWalletsRepository).saveBaseWallet({
      agentEndpoint: 'http://127.0.0.1:9',
      encryptedApiKey: box.seal(baseApiKey, BASE_WALLET_SCOPE),
      encryptedWalletKey: box.seal('wallet-key', BASE_WALLET_SCOPE),
      configuredBy: null,
    })
    const created = await nymRequest(tenantDid, 201, baseApiKey)
    expect(created.body.data).toMatchObject({ type: 'NYM', objectId: tenantDid.did })
    const rows = await sql(`select requested_by_org_id from ledger_transactions where object_id = '${tenantDid.did}'`)
    expect(rows).toEqual([{ requested_by_org_id: null }])
    await nymRequest(new Ed25519Signer(randomBytes(32)), 401, `${baseApiKey}x`)
  })

  it('refuses NYM requests without a valid agent token, with a bad proof, or with another verkey for a DID', async () => {
    const someone = new Ed25519Signer(randomBytes(32))
    await nymRequest(someone, 401, 'not-a-token')
    await request(api.app).post('/v1/ledger/nyms').send({}).expect(401)
    const forged = await request(api.app)
      .post('/v1/ledger/nyms')
      .set('Authorization', `Bearer ${agentToken}`)
      .send({ did: someone.did, verkey: someone.verkey, lastSeqNo: 0, signature: issuer.sign(Buffer.from('x')) })
      .expect(400)
    expect(forged.body.errors).toEqual([expect.objectContaining({ field: 'signature' })])
    const mismatched = await request(api.app)
      .post('/v1/ledger/nyms')
      .set('Authorization', `Bearer ${agentToken}`)
      .send({ did: issuer.did, verkey: someone.verkey, signature: 'x' })
      .expect(400)
    expect(mismatched.body.errors).toEqual([expect.objectContaining({ field: 'did' })])
    // Same first 16 bytes (so the same DID), another key: the ledger keeps the first.
    const bytes = decodeBase58(issuer.verkey) ?? Buffer.alloc(32)
    bytes.writeUInt8(bytes.readUInt8(31) ^ 1, 31)
    await expect(
      api.runtime.container.get(LedgerService).writeNym({ did: issuer.did, verkey: encodeBase58(bytes) }),
    ).rejects.toThrow(/another verkey/)
  })

  it('writes a schema, refuses a duplicate with 409 and serves it by legacy and did:indy id', async () => {
    const payload = { name: 'degree', version: '1.0', attrNames: fixture.schema.attrNames }
    const created = (await write(await signed(issuer, 'SCHEMA', payload)).expect(201)).body.data
    expect(created).toMatchObject({
      type: 'SCHEMA',
      id: `${issuer.did}:2:degree:1.0`,
      didIndyId: `did:indy:${NAMESPACE}:${issuer.did}/anoncreds/v0/SCHEMA/degree/1.0`,
      objectId: `${issuer.did}:2:degree:1.0`,
    })
    await write(await signed(issuer, 'SCHEMA', payload)).expect(409)
    for (const id of [created.id, created.didIndyId]) {
      const read = (
        await request(api.app)
          .get(`/v1/ledger/schemas/${encodeURIComponent(id)}`)
          .expect(200)
      ).body.data
      expect(read).toEqual({
        schemaId: id,
        schema: {
          issuerId: id.startsWith('did:') ? `did:indy:${NAMESPACE}:${issuer.did}` : issuer.did,
          name: 'degree',
          version: '1.0',
          attrNames: fixture.schema.attrNames,
        },
        seqNo: created.seqNo,
        txnTime: created.txnTime,
      })
    }
    const elsewhere = `did:indy:other:${issuer.did}/anoncreds/v0/SCHEMA/degree/1.0`
    await request(api.app)
      .get(`/v1/ledger/schemas/${encodeURIComponent(elsewhere)}`)
      .expect(404)
    await request(api.app)
      .get(`/v1/ledger/schemas/${encodeURIComponent(`${issuer.did}:2:absent:1.0`)}`)
      .expect(404)
    await request(api.app).get('/v1/ledger/schemas/not-an-id').expect(400)
  })

  it('refuses writes signed by another key (400 signature) or by an author without a NYM (400 authorDid)', async () => {
    const stranger = new Ed25519Signer(randomBytes(32))
    const payload = { name: 'forged', version: '1.0', attrNames: ['a'] }
    const forged = { ...(await signed(stranger, 'SCHEMA', payload)), authorDid: issuer.did }
    const wrongKey = await write(forged).expect(400)
    expect(wrongKey.body.errors).toEqual([expect.objectContaining({ field: 'signature' })])
    const unknown = await write(await signed(stranger, 'SCHEMA', payload)).expect(400)
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'authorDid' })])
    // The signature covers the payload: one changed attribute is a bad signature.
    const changed = { ...(await signed(issuer, 'SCHEMA', payload)), payload: { ...payload, attrNames: ['b'] } }
    expect((await write(changed).expect(400)).body.errors).toEqual([expect.objectContaining({ field: 'signature' })])
  })

  it('answers 403 to a NYM and 400 to a revocation type whose payload is not one (issue 25: no longer 501)', async () => {
    await write(await signed(issuer, 'NYM', { dest: issuer.did, verkey: issuer.verkey })).expect(403)
    const revocation = { ...(await signed(issuer, 'SCHEMA', {})), type: 'REVOC_REG_DEF' }
    const refused = (await write(revocation).expect(400)).body
    expect(refused.message).toBe('Invalid ledger transaction payload')
    expect(refused.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'payload.credDefId' })]))
  })

  it('writes a credential definition with a real CL public key and serves it in a form the AnonCreds library reads', async () => {
    const schemaId = `${issuer.did}:2:degree:1.0`
    const schema = (await request(api.app).get(`/v1/ledger/schemas/${encodeURIComponent(schemaId)}`)).body.data
    const payload = { schemaId, type: 'CL', tag: 'default', value: fixture.credentialDefinition.value }
    const created = (await write(await signed(issuer, 'CRED_DEF', payload)).expect(201)).body.data
    expect(created.id).toBe(`${issuer.did}:3:CL:${schema.seqNo}:default`)
    expect(created.didIndyId).toBe(`did:indy:${NAMESPACE}:${issuer.did}/anoncreds/v0/CLAIM_DEF/${schema.seqNo}/default`)
    await write(await signed(issuer, 'CRED_DEF', payload)).expect(409)
    for (const id of [created.id, created.didIndyId]) {
      const read = (
        await request(api.app)
          .get(`/v1/ledger/cred-defs/${encodeURIComponent(id)}`)
          .expect(200)
      ).body.data
      expect(read.credentialDefinitionId).toBe(id)
      expect(read.credentialDefinition.value).toEqual(fixture.credentialDefinition.value)
      const parsed = readCredentialDefinition(read.credentialDefinition)
      expect(parsed).toBeDefined()
    }
    await request(api.app).get('/v1/ledger/cred-defs/x:3:CL:1:t').expect(400)
    await request(api.app)
      .get(`/v1/ledger/cred-defs/${encodeURIComponent(`${issuer.did}:3:CL:1:none`)}`)
      .expect(404)
  })

  it('refuses a credential definition whose keys do not match the schema, or whose schema is absent', async () => {
    const { master_secret: _kept, ...withoutLinkSecret } = (
      fixture.credentialDefinition.value as { primary: { r: Record<string, string> } }
    ).primary.r
    const value = { primary: { ...(fixture.credentialDefinition.value.primary as object), r: withoutLinkSecret } }
    const badKeys = { schemaId: `${issuer.did}:2:degree:1.0`, type: 'CL', tag: 'bad', value }
    const refused = await write(await signed(issuer, 'CRED_DEF', badKeys)).expect(400)
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'payload.value.primary.r' })])
    const noSchema = { ...badKeys, schemaId: `${issuer.did}:2:absent:1.0`, value: fixture.credentialDefinition.value }
    const missing = await write(await signed(issuer, 'CRED_DEF', noSchema)).expect(400)
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'payload.schemaId' })])
  })

  it('resolves a NYM to a DID document, with a did-communication service once an ATTRIB names an endpoint', async () => {
    const holder = new Ed25519Signer(randomBytes(32))
    await nymRequest(holder, 201)
    const bare = (await request(api.app).get(`/v1/ledger/dids/did:indy:${NAMESPACE}:${holder.did}`).expect(200)).body
      .data
    const id = `did:indy:${NAMESPACE}:${holder.did}`
    expect(bare.didDocument).toMatchObject({
      id,
      verificationMethod: [
        { id: `${id}#verkey`, type: 'Ed25519VerificationKey2018', publicKeyBase58: holder.verkey },
        { id: `${id}#key-agreement-1`, type: 'X25519KeyAgreementKey2019' },
      ],
      authentication: [`${id}#verkey`],
      keyAgreement: [`${id}#key-agreement-1`],
    })
    expect(bare.didDocument.service).toBeUndefined()

    const endpoint = 'https://agent.example.org/didcomm'
    await write(
      await signed(holder, 'ATTRIB', { dest: holder.did, raw: { endpoint: { endpoint, routingKeys: [] } } }),
    ).expect(201)
    const withService = (await request(api.app).get(`/v1/ledger/dids/${holder.did}`).expect(200)).body.data
    expect(withService.didDocument.service).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: `${id}#did-communication`,
          type: 'did-communication',
          serviceEndpoint: endpoint,
          recipientKeys: [`${id}#key-agreement-1`],
        }),
      ]),
    )
    const sov = (await request(api.app).get(`/v1/ledger/dids/did:sov:${holder.did}`).expect(200)).body.data
    expect(sov.didDocument.authentication).toEqual([`did:sov:${holder.did}#key-1`])
    // An ATTRIB about someone else is refused: its author must be the DID it is about.
    await write(await signed(issuer, 'ATTRIB', { dest: holder.did, raw: { endpoint: { endpoint } } })).expect(400)
    await request(api.app)
      .get(`/v1/ledger/dids/${new Ed25519Signer(randomBytes(32)).did}`)
      .expect(404)
    await request(api.app).get(`/v1/ledger/dids/did:indy:other:${holder.did}`).expect(404)
    await request(api.app).get('/v1/ledger/dids/did:web:example.org').expect(400)
  })

  it('gives 20 concurrent writers distinct, gap-free seq numbers on one valid chain', async () => {
    // Twenty authors (one DID's writes are bound to each other, so they cannot all be sent at once).
    const authors = Array.from({ length: 20 }, () => new Ed25519Signer(randomBytes(32)))
    for (const author of authors) await nymRequest(author, 201)
    const bodies = await Promise.all(
      authors.map((author, index) =>
        signed(author, 'SCHEMA', { name: `concurrent-${index}`, version: '1.0', attrNames: ['a'] }),
      ),
    )
    const answers = await Promise.all(bodies.map((body) => write(body)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201))
    const seqNos = answers.map((answer) => answer.body.data.seqNo as number).sort((a, b) => a - b)
    expect(new Set(seqNos).size).toBe(20)
    expect(seqNos.at(-1)).toBe((seqNos[0] ?? 0) + 19)
    const page = (await request(api.app).get('/v1/ledger/transactions').query({ from: 1, limit: 500 }).expect(200)).body
      .data as { seqNo: number; hash: string; prevHash: string }[]
    page.forEach((txn, index) => {
      expect(txn.seqNo).toBe(index + 1)
      if (index > 0) expect(txn.prevHash).toBe(page[index - 1]?.hash)
    })
    const check = (await request(api.app).get('/v1/ledger/verify').expect(200)).body.data
    const head = { seqNo: page.length, hash: page.at(-1)?.hash }
    expect(check).toEqual({
      isValid: true,
      checked: page.length,
      anchor: { isValid: true, head, anchored: head },
      references: { isValid: true, checked: 0, elsewhere: 0, danglingCount: 0, dangling: [] },
    })
    await request(api.app).get('/v1/ledger/transactions').query({ limit: 501 }).expect(400)
    await request(api.app).get('/v1/ledger/transactions/0').expect(400)
    await request(api.app).get('/v1/ledger/transactions/999999').expect(404)
  })

  it('counts appends by type and outcome and times them', async () => {
    const text = await api.runtime.container.get<Registry>(Registry).metrics()
    expect(text).toMatch(/idplane_api_ledger_appends_total\{type="SCHEMA",outcome="appended"\} (2[1-9]|[3-9]\d)/)
    expect(text).toMatch(/idplane_api_ledger_appends_total\{type="SCHEMA",outcome="conflict"\} [1-9]/)
    expect(text).toMatch(/idplane_api_ledger_append_duration_seconds_count\{type="CRED_DEF"\} [1-9]/)
  })

  it('refuses UPDATE and DELETE in the database, and the chain check names a row changed behind its back', async () => {
    await expect(sql(`update ledger_transactions set payload = '{}' where seq_no = 3`)).rejects.toThrow(/append-only/)
    await expect(sql(`delete from ledger_transactions where seq_no = 3`)).rejects.toThrow(/append-only/)
    // As the table owner, with the trigger disabled on purpose: what a tamperer with database access could do.
    await sql(`alter table ledger_transactions disable trigger ledger_transactions_append_only`)
    await sql(`update ledger_transactions set payload = jsonb_set(payload, '{version}', '"9.9"') where seq_no = 4`)
    await sql(`alter table ledger_transactions enable trigger ledger_transactions_append_only`)
    const check = (await request(api.app).get('/v1/ledger/verify').expect(200)).body.data
    expect(check).toMatchObject({ isValid: false, checked: 3, firstInvalid: { seqNo: 4 } })
    expect(check.firstInvalid.reason).toMatch(/hash/)
    const fromFive = (await request(api.app).get('/v1/ledger/verify').query({ from: 5 }).expect(200)).body.data
    expect(fromFive.isValid).toBe(true)
    // `npm run ledger:verify` runs the same check from its own connection; an in-memory PGlite has no second one.
    if (api.database.kind === 'postgres') {
      const command = await runLedgerVerify(
        { DATA_DIR: api.dataDir, LEDGER_NAMESPACE: NAMESPACE },
        [],
        api.database.target,
      )
      expect(command).toMatchObject({ isValid: false, checked: 3, firstInvalid: { seqNo: 4 } })
    }
  })
})

describe('the platform ledger write rate limit', () => {
  let api: TestApi

  beforeAll(async () => {
    api = await startApi({ LEDGER_WRITE_RATE_LIMIT_MAX: '2', LEDGER_WRITE_RATE_LIMIT_WINDOW_SECONDS: '3600' })
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
  })

  it('answers 429 with Retry-After past the limit per client address, before looking at the body', async () => {
    const post = () => request(api.app).post('/v1/ledger/transactions').send({ type: 'SCHEMA' })
    await post().expect(400)
    await post().expect(400)
    const limited = await post().expect(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    // Reads are not limited.
    await request(api.app).get('/v1/ledger').expect(200)
  })
})
