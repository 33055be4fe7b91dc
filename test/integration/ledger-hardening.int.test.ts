import { randomBytes, randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { Registry } from 'prom-client'
import { Logger } from '@idplane/common'
import {
  LEDGER_STALE_REQUEST,
  ledgerSigningBytes,
  nymPossessionBytes,
  type LedgerTransactionType,
} from '@idplane/common/agent-contract/ledger'
import { LedgerClient } from '../../agent/src/ledger/ledger-client'
import { SecretBox } from '../../api/src/infra/crypto/secret-box'
import { Database } from '../../api/src/infra/db/database'
import { factoryClassKey } from '../../api/src/infra/tokens'
import { BASE_WALLET_SCOPE } from '../../api/src/modules/cloud-wallet/base-wallet.entity'
import { CloudWalletsRepository } from '../../api/src/modules/cloud-wallet/cloud-wallets.repository'
import { runLedgerAnchor, runLedgerVerify } from '../../api/src/modules/ledger/ledger-commands'
import { Ed25519Signer, transactionHash } from '../../api/src/modules/ledger/ledger-crypto'
import { LedgerHead } from '../../api/src/modules/ledger/ledger-head.service'
import { LedgerReferencesRepository } from '../../api/src/modules/ledger/ledger-references.repository'
import { LedgerTrustee } from '../../api/src/modules/ledger/ledger-trustee'
import { LedgerRepository } from '../../api/src/modules/ledger/ledger.repository'
import { LedgerService } from '../../api/src/modules/ledger/ledger.service'
import { startApi, type TestApi } from '../helpers/api'
import { closeServer } from '../helpers/ports'
import { aUserWithToken, anOrganizationWith } from '../helpers/tokens'

const NAMESPACE = 'idplane:hardening'
const TRUSTEE_SEED = 'ledger-hardening-trustee-seed-01'
const KIND = process.env.DATABASE_URL ? 'postgres' : 'pglite'

/** What issue 23 items 4 and 7 found, through the API on a real database: replays, and a truncated tail. */
describe(`ledger hardening (${KIND})`, () => {
  let api: TestApi
  let baseApiKey: string
  let server: Server
  let ledgerUrl: string
  const issuer = new Ed25519Signer(randomBytes(32))

  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    api.runtime.container.get(factoryClassKey(Database)).orm.em.fork().getConnection().execute<T[]>(query, params)
  const headSeqNo = async () => (await request(api.app).get('/v1/ledger').expect(200)).body.data.head.seqNo as number
  const lastSeqNoOf = async (did: string) =>
    (await request(api.app).get(`/v1/ledger/dids/${did}/state`).expect(200)).body.data.lastSeqNo as number
  const signedAt = (signer: Ed25519Signer, type: LedgerTransactionType, payload: unknown, lastSeqNo: number) => ({
    type,
    authorDid: signer.did,
    payload,
    lastSeqNo,
    signature: signer.sign(
      ledgerSigningBytes({ namespace: NAMESPACE, type, authorDid: signer.did, payload, lastSeqNo }),
    ),
  })
  const signed = async (signer: Ed25519Signer, type: LedgerTransactionType, payload: unknown) =>
    signedAt(signer, type, payload, await lastSeqNoOf(signer.did))
  const write = (body: unknown) =>
    request(api.app)
      .post('/v1/ledger/transactions')
      .send(body as object)
  const nymBody = async (signer: Ed25519Signer) => {
    const lastSeqNo = await lastSeqNoOf(signer.did)
    const { did, verkey } = signer
    return {
      did,
      verkey,
      lastSeqNo,
      signature: signer.sign(nymPossessionBytes({ namespace: NAMESPACE, did, verkey, lastSeqNo })),
    }
  }
  const postNym = (body: object) =>
    request(api.app).post('/v1/ledger/nyms').set('Authorization', `Bearer ${baseApiKey}`).send(body)
  const attrib = (signer: Ed25519Signer, endpoint: string) => ({
    dest: signer.did,
    raw: { endpoint: { endpoint, routingKeys: [] } },
  })
  const endpointOf = async (did: string) =>
    (await request(api.app).get(`/v1/ledger/dids/${did}`).expect(200)).body.data.didDocument.service?.[0]
      ?.serviceEndpoint as string | undefined
  const verify = async () => (await request(api.app).get('/v1/ledger/verify').expect(200)).body.data
  const withoutTrigger = async (statements: () => Promise<unknown>) => {
    await sql('alter table ledger_transactions disable trigger ledger_transactions_append_only')
    try {
      await statements()
    } finally {
      await sql('alter table ledger_transactions enable trigger ledger_transactions_append_only')
    }
  }

  beforeAll(async () => {
    api = await startApi({ LEDGER_NAMESPACE: NAMESPACE, LEDGER_TRUSTEE_SEED: TRUSTEE_SEED })
    // NYM requests authenticated as the cloud wallet's base agent: no agent process needed.
    baseApiKey = randomBytes(24).toString('base64url')
    const box = api.runtime.container.get(factoryClassKey(SecretBox))
    await api.runtime.container.get(CloudWalletsRepository).saveBaseWallet({
      agentEndpoint: 'http://127.0.0.1:9',
      encryptedApiKey: box.seal(baseApiKey, BASE_WALLET_SCOPE),
      encryptedWalletKey: box.seal('wallet-key', BASE_WALLET_SCOPE),
      configuredBy: null,
    })
    await api.runtime.container.get(LedgerService).writeNym({ did: issuer.did, verkey: issuer.verkey })
    server = api.app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    ledgerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 120_000)

  afterAll(async () => {
    await closeServer(server)
    await api?.stop()
  })

  it('refuses a replayed NYM request, ATTRIB, SCHEMA and CRED_DEF with 409, and the ledger does not grow', async () => {
    const holder = new Ed25519Signer(randomBytes(32))
    const nym = await nymBody(holder)
    await postNym(nym).expect(201)
    const first = await signed(holder, 'ATTRIB', attrib(holder, 'https://old.example/didcomm'))
    await write(first).expect(201)
    await write(await signed(holder, 'ATTRIB', attrib(holder, 'https://new.example/didcomm'))).expect(201)
    const schemaPayload = { name: 'replayed', version: '1.0', attrNames: ['name'] }
    const schema = await signed(issuer, 'SCHEMA', schemaPayload)
    const schemaTxn = (await write(schema).expect(201)).body.data
    const credDefPayload = {
      schemaId: schemaTxn.id,
      type: 'CL',
      tag: 'replayed',
      value: { primary: { n: '1', s: '2', r: { name: '3', master_secret: '4' }, rctxt: '5', z: '6' } },
    }
    const credDef = await signed(issuer, 'CRED_DEF', credDefPayload)
    await write(credDef).expect(201)
    const head = await headSeqNo()

    const nymReplay = await postNym(nym).expect(409)
    expect(nymReplay.body.message).toMatch(new RegExp(`^${LEDGER_STALE_REQUEST}: it is bound to seqNo 0`))
    for (const replayed of [first, schema, credDef]) {
      const refused = await write(replayed).expect(409)
      expect(refused.body).toMatchObject({ statusCode: 409, error: 'Conflict' })
      expect(refused.body.message).toMatch(new RegExp(`^${LEDGER_STALE_REQUEST}`))
    }
    // The probe's 300 replays, here 60 at once: none appended, the old endpoint stays replaced.
    const answers = await Promise.all(Array.from({ length: 60 }, () => write(first)))
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([409]))
    expect(await headSeqNo()).toBe(head)
    expect(await endpointOf(holder.did)).toBe('https://new.example/didcomm')
    const metrics = await api.runtime.container.get<Registry>(Registry).metrics()
    expect(metrics).toMatch(/idplane_api_ledger_appends_total\{type="ATTRIB",outcome="stale"\} 6[1-9]/)
    expect(metrics).toMatch(/idplane_api_ledger_appends_total\{type="NYM",outcome="stale"\} 1/)
  })

  it('refuses an old signed request posted after a newer one, and a write without a binding', async () => {
    const holder = new Ed25519Signer(randomBytes(32))
    await postNym(await nymBody(holder)).expect(201)
    const state = await lastSeqNoOf(holder.did)
    const older = signedAt(holder, 'ATTRIB', attrib(holder, 'https://older.example'), state)
    const newer = signedAt(holder, 'ATTRIB', attrib(holder, 'https://newer.example'), state)
    await write(newer).expect(201)
    expect((await write(older).expect(409)).body.message).toMatch(
      new RegExp(`bound to seqNo ${state}, but the latest transaction of ${holder.did} is ${state + 1}`),
    )
    expect(await endpointOf(holder.did)).toBe('https://newer.example')
    // Bound to a state that has not come yet: refused the same way.
    await write(signedAt(holder, 'ATTRIB', attrib(holder, 'https://x.example'), state + 5)).expect(409)
    const { lastSeqNo: _dropped, ...unbound } = await signed(holder, 'ATTRIB', attrib(holder, 'https://x.example'))
    const missing = await write(unbound).expect(400)
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'lastSeqNo' })])
  })

  it("answers a DID's state in each DID form: its latest transaction, 0 before any", async () => {
    const latest = await lastSeqNoOf(issuer.did)
    expect(latest).toBeGreaterThan(1)
    for (const form of [`did:indy:${NAMESPACE}:${issuer.did}`, `did:sov:${issuer.did}`]) {
      const answer = await request(api.app)
        .get(`/v1/ledger/dids/${encodeURIComponent(form)}/state`)
        .expect(200)
      expect(answer.body.data).toEqual({ did: issuer.did, lastSeqNo: latest })
    }
    expect(await lastSeqNoOf(new Ed25519Signer(randomBytes(32)).did)).toBe(0)
    await request(api.app).get(`/v1/ledger/dids/did:indy:other:${issuer.did}/state`).expect(404)
    await request(api.app).get('/v1/ledger/dids/not-a-did/state').expect(400)
  })

  it('lets honest agents write concurrently for one DID: one client queues, two racing clients re-sign once', async () => {
    const author = new Ed25519Signer(randomBytes(32))
    const sign = async (data: Uint8Array) => author.sign(Buffer.from(data))
    const client = () => new LedgerClient({ baseUrl: ledgerUrl, token: baseApiKey, retryBaseMs: 10 })
    const one = client()
    await one.writeNym({ did: author.did, verkey: author.verkey }, sign)
    const attribWrite = (index: number) => ({
      type: 'ATTRIB' as const,
      authorDid: author.did,
      payload: attrib(author, `https://agent.example/${index}`),
    })
    const together = await Promise.all(
      Array.from({ length: 10 }, (_, index) => one.writeTransaction(attribWrite(index), sign)),
    )
    expect(new Set(together.map((txn) => txn.seqNo)).size).toBe(10)
    // Two processes of one agent: each pair races on the DID's state; the loser reads it again and re-signs.
    const other = client()
    for (let round = 0; round < 5; round += 1) {
      const pair = await Promise.all([
        one.writeTransaction(attribWrite(100 + round), sign),
        other.writeTransaction(attribWrite(200 + round), sign),
      ])
      expect(pair.map((txn) => txn.type)).toEqual(['ATTRIB', 'ATTRIB'])
    }
    const rows = await sql<{ count: string }>(
      `select count(*) as count from ledger_transactions where author_did = ?`,
      [author.did],
    )
    expect(Number(rows[0]?.count)).toBe(20)
  })

  it('verifies a healthy ledger: chain, signed anchor of the head, records pointing at the ledger', async () => {
    const check = await verify()
    const head = (await request(api.app).get('/v1/ledger').expect(200)).body.data.head
    expect(check).toMatchObject({
      isValid: true,
      checked: head.seqNo,
      anchor: { isValid: true, head, anchored: head },
      references: { isValid: true, danglingCount: 0 },
    })
    const ready = await request(api.app).get('/health/ready').expect(200)
    expect(ready.body.data).toMatchObject({ database: 'up', ledger: 'up' })
  })

  it('finds a schema or credential definition record that points at no transaction on the ledger', async () => {
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    const onLedger = (
      await request(api.app).get(`/v1/ledger/transactions?from=1&limit=500`).expect(200)
    ).body.data.find((txn: { type: string }) => txn.type === 'SCHEMA').id as string
    const ghost = `did:indy:${NAMESPACE}:${issuer.did}/anoncreds/v0/SCHEMA/ghost/1.0`
    const testRegistry = 'Th7MpTaRZVRYnPiabds81Y:2:elsewhere:1.0'
    const insertSchema = (ledgerId: string, name: string) =>
      sql(
        `insert into credential_schemas (id, created_at, updated_at, organization_id, type, schema_type, name, version, attributes, json_schema, ledger_id)
         values (?, now(), now(), ?, 'INDY', 'INDY', ?, '1.0', '[]', '{}', ?)`,
        [randomUUID(), orgId, name, ledgerId],
      )
    await insertSchema(onLedger, 'on-ledger')
    await insertSchema(ghost, 'ghost')
    await insertSchema(testRegistry, 'elsewhere')
    const missingCredDef = `${issuer.did}:3:CL:9999:gone`
    await sql(
      `insert into credential_definitions (id, created_at, updated_at, organization_id, tag, schema_ledger_id, revocable, publisher_did, credential_definition_id, status)
       values (?, now(), now(), ?, 'gone', ?, false, ?, ?, 'created')`,
      [randomUUID(), orgId, onLedger, issuer.did, missingCredDef],
    )
    const check = await verify()
    expect(check.isValid).toBe(false)
    expect(check.firstInvalid).toBeUndefined()
    expect(check.anchor.isValid).toBe(true)
    expect(check.references).toEqual({
      isValid: false,
      checked: 3,
      elsewhere: 1,
      danglingCount: 2,
      dangling: [
        { kind: 'schema', ledgerId: ghost },
        { kind: 'credentialDefinition', ledgerId: missingCredDef },
      ],
    })
    const answer = await request(api.app).get('/v1/ledger/verify').expect(200)
    expect(answer.body.message).toBe('2 record(s) point at no transaction on the ledger')
    // The records are the platform's own rows, not ledger rows: take them away again for the next checks.
    await sql(`delete from credential_schemas where organization_id = ?`, [orgId])
    await sql(`delete from credential_definitions where organization_id = ?`, [orgId])
    expect((await verify()).isValid).toBe(true)
  })

  it('detects a truncated tail made to look whole, refuses writes while the API stays ready, and says so at start', async () => {
    const holder = new Ed25519Signer(randomBytes(32))
    await postNym(await nymBody(holder)).expect(201)
    const old = await signed(holder, 'ATTRIB', attrib(holder, 'https://restored.example'))
    await write(old).expect(201)
    await write(await signed(holder, 'ATTRIB', attrib(holder, 'https://current.example'))).expect(201)
    await write(await signed(holder, 'ATTRIB', attrib(holder, 'https://latest.example'))).expect(201)
    const head = await headSeqNo()

    // The probe: drop the last two rows, then append the old ATTRIB again with recomputed links and hash.
    const [kept] = await sql<{ hash: string }>('select hash from ledger_transactions where seq_no = ?', [head - 2])
    const txnTime = new Date().toISOString()
    const fields = {
      seqNo: head - 1,
      type: 'ATTRIB',
      authorDid: holder.did,
      objectId: null,
      payload: old.payload,
      signature: old.signature,
      lastSeqNo: old.lastSeqNo,
      prevHash: kept?.hash ?? '',
      txnTime,
    }
    await withoutTrigger(async () => {
      await sql('delete from ledger_transactions where seq_no >= ?', [head - 1])
      await sql(
        `insert into ledger_transactions (seq_no, type, author_did, object_id, payload, signature, last_seq_no, prev_hash, hash, txn_time)
         values (?, 'ATTRIB', ?, null, ?::jsonb, ?, ?, ?, ?, ?)`,
        [
          head - 1,
          holder.did,
          JSON.stringify(old.payload),
          old.signature,
          old.lastSeqNo,
          fields.prevHash,
          transactionHash(fields),
          txnTime,
        ],
      )
    })
    expect(await endpointOf(holder.did)).toBe('https://restored.example')
    const check = await verify()
    expect(check.isValid).toBe(false)
    expect(check.anchor).toMatchObject({
      isValid: false,
      anchored: { seqNo: head },
      head: { seqNo: head - 1 },
      reason: `transactions ${head}..${head} are missing: the ledger ends at seqNo ${head - 1} but its anchor names seqNo ${head}`,
    })
    // The re-appended request is also named by the chain: its binding had passed.
    expect(check.firstInvalid).toMatchObject({ seqNo: head - 1, reason: expect.stringMatching(/lastSeqNo/) })

    // Nothing extends (or re-anchors) the changed chain: every write is refused, reads go on.
    const refused = await write(await signed(holder, 'ATTRIB', attrib(holder, 'https://after.example'))).expect(503)
    expect(refused.body.message).toMatch(/The ledger refuses writes: transactions .* are missing/)
    expect(refused.headers['retry-after']).toBe('300')
    await postNym(await nymBody(new Ed25519Signer(randomBytes(32)))).expect(503)
    await expect(
      api.runtime.container.get(LedgerService).writeNym({ did: holder.did, verkey: holder.verkey }),
    ).rejects.toThrow(/refuses writes/)
    await request(api.app).get(`/v1/ledger/dids/${holder.did}`).expect(200)
    const ready = await request(api.app).get('/health/ready').expect(200)
    expect(ready.body.data.ledger).toMatch(/^degraded: writes refused, transactions .* are missing/)
    const metrics = await api.runtime.container.get<Registry>(Registry).metrics()
    expect(metrics).toMatch(/idplane_api_ledger_appends_total\{type="ATTRIB",outcome="refused"\} 1/)

    // A process starting on this database logs the refusal once, as an error naming the reason.
    const lines: string[] = []
    const logger = new Logger({}, 'info', { write: (line) => void lines.push(line) })
    const starting = new LedgerHead(
      api.runtime.container.get(LedgerRepository),
      api.runtime.container.get(LedgerReferencesRepository),
      api.runtime.container.get(LedgerTrustee),
      logger,
    )
    expect((await starting.checkAtStart()).isValid).toBe(false)
    await starting.anchorStatus()
    const errors = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.level === 'error')
    expect(errors).toEqual([
      expect.objectContaining({
        msg: 'Ledger writes refused: the ledger head does not match its signed anchor',
        reason: expect.stringMatching(/are missing/),
      }),
    ])

    // Taking the re-appended row away again leaves a clean prefix: the chain holds, the anchor still does not.
    await withoutTrigger(() => sql('delete from ledger_transactions where seq_no >= ?', [head - 1]))
    const truncated = await verify()
    expect(truncated).toMatchObject({ isValid: false, anchor: { isValid: false, head: { seqNo: head - 2 } } })
    expect(truncated.firstInvalid).toBeUndefined()
  })

  it('detects an anchor moved to the truncated head without the trustee key', async () => {
    const [row] = await sql<{ seq_no: string; hash: string }>(
      'select seq_no, hash from ledger_transactions order by seq_no desc limit 1',
    )
    const [saved] = await sql<{ seq_no: string; hash: string; signature: string }>(
      'select seq_no, hash, signature from ledger_anchors',
    )
    await sql('update ledger_anchors set seq_no = ?, hash = ?', [row?.seq_no, row?.hash])
    expect((await verify()).anchor.reason).toMatch(/signature does not verify with this platform's trustee key/)
    const forger = new Ed25519Signer(randomBytes(32))
    const forged = forger.sign(Buffer.from(JSON.stringify({ seqNo: row?.seq_no, hash: row?.hash })))
    await sql('update ledger_anchors set signature = ?', [forged])
    expect((await verify()).anchor.reason).toMatch(/signature does not verify/)
    await sql('update ledger_anchors set seq_no = ?, hash = ?, signature = ?', [
      saved?.seq_no,
      saved?.hash,
      saved?.signature,
    ])
  })

  it('is anchored again by an operator who looked into it, and then takes writes', async () => {
    const head = api.runtime.container.get(LedgerHead)
    await expect(head.anchorCurrentHead({ replace: false })).rejects.toThrow(/pass --replace/)
    const env = { DATA_DIR: api.dataDir, LEDGER_NAMESPACE: NAMESPACE, LEDGER_TRUSTEE_SEED: TRUSTEE_SEED }
    // `npm run ledger:verify` and `ledger:anchor` open their own connection; an in-memory PGlite has no second one.
    let anchored: Awaited<ReturnType<typeof runLedgerAnchor>>
    if (api.database.kind === 'postgres') {
      expect((await runLedgerVerify(env, [], api.database.target)).anchor?.isValid).toBe(false)
      anchored = await runLedgerAnchor(env, ['--replace'], api.database.target)
    } else {
      anchored = await head.anchorCurrentHead({ replace: true })
    }
    expect(anchored.previous).toMatchObject({ isValid: false })
    expect(anchored.anchored.seqNo).toBe(await headSeqNo())
    expect((await verify()).isValid).toBe(true)
    const holder = new Ed25519Signer(randomBytes(32))
    await postNym(await nymBody(holder)).expect(201)
    await write(await signed(holder, 'ATTRIB', attrib(holder, 'https://back.example'))).expect(201)
    expect((await request(api.app).get('/health/ready').expect(200)).body.data.ledger).toBe('up')
    if (api.database.kind === 'postgres') {
      expect(await runLedgerVerify(env, [], api.database.target)).toMatchObject({ isValid: true })
    }
  })
})

describe(`a ledger written before anchors (${KIND})`, () => {
  let api: TestApi
  const trustee = new Ed25519Signer(Buffer.from(TRUSTEE_SEED, 'utf8'))
  const sql = (query: string, params: unknown[] = []) =>
    api.runtime.container.get(factoryClassKey(Database)).orm.em.fork().getConnection().execute(query, params)
  const restart = async (lines: string[]) => {
    const logger = new Logger({}, 'info', { write: (line) => void lines.push(line) })
    const head = new LedgerHead(
      api.runtime.container.get(LedgerRepository),
      api.runtime.container.get(LedgerReferencesRepository),
      api.runtime.container.get(LedgerTrustee),
      logger,
    )
    return head.checkAtStart()
  }

  beforeAll(async () => {
    api = await startApi({ LEDGER_NAMESPACE: NAMESPACE, LEDGER_TRUSTEE_SEED: TRUSTEE_SEED })
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
  })

  it('is anchored at start when its whole chain verifies; with bound rows and no anchor, writes stay refused', async () => {
    // Rewrite the ledger as the previous version left it: a genesis signed without a binding, no anchor.
    const payload = { dest: trustee.did, verkey: trustee.verkey, role: 'TRUSTEE' }
    const signature = trustee.sign(
      ledgerSigningBytes({ namespace: NAMESPACE, type: 'NYM', authorDid: trustee.did, payload }),
    )
    const txnTime = new Date().toISOString()
    const fields = {
      seqNo: 1,
      type: 'NYM',
      authorDid: trustee.did,
      objectId: trustee.did,
      payload,
      signature,
      prevHash: '0'.repeat(64),
      txnTime,
    }
    await sql('alter table ledger_transactions disable trigger ledger_transactions_append_only')
    await sql('delete from ledger_transactions')
    await sql(
      `insert into ledger_transactions (seq_no, type, author_did, object_id, payload, signature, prev_hash, hash, txn_time)
       values (1, 'NYM', ?, ?, ?::jsonb, ?, ?, ?, ?)`,
      [trustee.did, trustee.did, JSON.stringify(payload), signature, fields.prevHash, transactionHash(fields), txnTime],
    )
    await sql('alter table ledger_transactions enable trigger ledger_transactions_append_only')
    await sql('delete from ledger_anchors')

    const lines: string[] = []
    expect(await restart(lines)).toMatchObject({ isValid: true, anchored: { seqNo: 1 } })
    expect(lines.map((line) => JSON.parse(line).msg)).toContain('Anchored a ledger written before anchors existed')
    const author = new Ed25519Signer(randomBytes(32))
    await api.runtime.container.get(LedgerService).writeNym({ did: author.did, verkey: author.verkey })
    const check = (await request(api.app).get('/v1/ledger/verify').expect(200)).body.data
    expect(check).toMatchObject({ isValid: true, checked: 2, anchor: { isValid: true } })

    // Now a row carries a binding: a missing anchor is no longer a ledger from before anchors, but a deleted one.
    await sql('delete from ledger_anchors')
    const later: string[] = []
    expect(await restart(later)).toMatchObject({ isValid: false, reason: 'the ledger has no anchor' })
    await expect(
      api.runtime.container.get(LedgerService).writeNym({ did: trustee.did, verkey: trustee.verkey }),
    ).rejects.toThrow(/the ledger has no anchor/)
  })
})
