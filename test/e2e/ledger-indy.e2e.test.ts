import request from 'supertest'
import { RequestContext } from '@mikro-orm/core'
import { EntityManager } from '@mikro-orm/postgresql'
import { CredentialDefinition } from '../../api/src/modules/cred-defs/credential-definition.entity'
import { Ed25519Signer } from '../../api/src/modules/ledger/ledger-crypto'
import { startPlatform, type Platform } from '../helpers/platform'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { waitUntil } from '../helpers/agent-process'

jest.setTimeout(900_000)

const NAMESPACE = 'idplane'
const DID_INDY = new RegExp(`^did:indy:${NAMESPACE}:[1-9A-HJ-NP-Za-km-z]{21,22}$`)

type Rec = Record<string, unknown> & { id: string; state: string; threadId?: string }

const attribute = (name: string, schemaDataType = 'string') => ({
  attributeName: name,
  schemaDataType,
  displayName: `The ${name}`,
  isRequired: true,
})

/**
 * Issue 13, item 3, through the real platform: agents as processes, the platform ledger as the only AnonCreds
 * registry (no AGENT_ANONCREDS_TEST_REGISTRY_DIR). An issuer organization spun up with `method: 'indy'` gets a
 * did:indy on the ledger (resolvable with a DIDComm service), publishes an INDY schema and a credential definition
 * under it; a cloud-wallet user (the managed base agent) creates a did:indy through POST /v1/did; the issuer
 * issues an INDY credential through the API to the wallet, which proves a predicate the API verifies; the chain then verifies.
 * DATABASE_URL / AMQP_URL choose PostgreSQL and RabbitMQ; without them PGlite and the in-process queue.
 */
describe(`organization and wallet DIDs on the platform ledger (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'})`, () => {
  let platform: Platform
  let owner: TestUser
  let holder: TestUser
  let orgId: string
  let orgDid: string
  let schemaLedgerId: string
  let schemaDidIndyId: string
  let credentialDefinitionId: string
  let credentialDefinitionDidIndyId: string
  let issuerConnectionId: string

  const call = (method: 'get' | 'post', route: string, body?: object) => {
    const req = request(platform.api.app)[method](route).set('Authorization', `Bearer ${owner.token}`)
    return body === undefined ? req : req.send(body)
  }
  const asHolder = (method: 'get' | 'post', route: string, body?: object) => {
    const req = request(platform.api.app)[method](route).set('Authorization', `Bearer ${holder.token}`)
    return body === undefined ? req : req.send(body)
  }
  const publicGet = (route: string) => request(platform.api.app).get(route)
  /** A wallet call while the managed base agent may still be starting (503 with Retry-After). */
  const patiently = async (method: 'get' | 'post', route: string, body?: object) => {
    for (let attempt = 0; ; attempt += 1) {
      const res = await asHolder(method, route, body)
      if (res.status !== 503 || attempt > 30) return res
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers['retry-after'] ?? '5') * 1000))
    }
  }

  beforeAll(async () => {
    platform = await startPlatform({ CLOUD_WALLET_BASE_AGENT: 'managed', LEDGER_NAMESPACE: NAMESPACE })
    owner = await aUserWithToken(platform.api)
    holder = await aUserWithToken(platform.api)
    orgId = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await platform.spinUp(orgId, owner.token, 'Ledger Issuer', 'indy')
  })

  afterAll(async () => {
    await platform?.stop()
  })

  it('spins the organization up with a did:indy on the ledger as its primary DID, with a DIDComm service', async () => {
    const dids = (await call('get', `/v1/orgs/${orgId}/dids`).expect(200)).body.data as {
      did: string
      isPrimaryDid: boolean
    }[]
    expect(dids).toHaveLength(1)
    expect(dids[0]).toMatchObject({ isPrimaryDid: true })
    orgDid = dids[0].did
    expect(orgDid).toMatch(DID_INDY)

    const resolved = await publicGet(`/v1/ledger/dids/${encodeURIComponent(orgDid)}`).expect(200)
    const document = resolved.body.data.didDocument as {
      id: string
      service?: { type: string; serviceEndpoint: string }[]
    }
    expect(document.id).toBe(orgDid)
    const didcomm = document.service?.find((service) => service.type === 'did-communication')
    expect(didcomm?.serviceEndpoint).toMatch(/^https?:\/\//)
    const agent = (await call('get', `/v1/orgs/${orgId}/agents/health`).expect(200)).body.data
    expect(agent).toMatchObject({ status: 'DID_CREATED', didMethod: 'indy' })
  })

  it('derives the did:indy from the seed given at spin-up', async () => {
    const seed = 'ledger-e2e-org-seed-000000000001'
    const seededOrg = await anOrganizationWith(platform.api, [{ user: owner, roles: ['owner'] }])
    await call('post', `/v1/orgs/${seededOrg}/agents/spinup`, { label: 'Seeded', method: 'indy', seed }).expect(201)
    const status = await waitUntil(async () => {
      const health = (await call('get', `/v1/orgs/${seededOrg}/agents/health`).expect(200)).body.data
      return ['DID_CREATED', 'FAILED'].includes(health.status) ? health : undefined
    }, 300_000)
    expect(status).toMatchObject({ status: 'DID_CREATED', didMethod: 'indy' })
    const dids = (await call('get', `/v1/orgs/${seededOrg}/dids`).expect(200)).body.data as { did: string }[]
    // Indy's convention: the seed's UTF-8 bytes are the Ed25519 seed; the DID is base58 of the verkey's first 16 bytes.
    const expected = new Ed25519Signer(Buffer.from(seed, 'utf8')).did
    expect(dids.map((entry) => entry.did)).toEqual([`did:indy:${NAMESPACE}:${expected}`])
    await publicGet(`/v1/ledger/dids/${encodeURIComponent(dids[0]?.did ?? '')}`).expect(200)
  })

  it('publishes an INDY schema under the did:indy, readable on the ledger; a duplicate is 409', async () => {
    const body = {
      type: 'INDY',
      schemaPayload: {
        schemaName: 'Membership',
        schemaVersion: '1.0',
        attributes: [attribute('name'), attribute('age', 'number')],
      },
    }
    const created = (await call('post', `/v1/orgs/${orgId}/schemas`, body).expect(201)).body.data
    expect(created.issuerId).toBe(orgDid)
    schemaLedgerId = created.schemaLedgerId
    // Issue 22 item 1: the spec's legacy form, the did:indy form beside it; both read the one record.
    const unqualified = orgDid.split(':').pop()
    expect(schemaLedgerId).toBe(`${unqualified}:2:Membership:1.0`)
    schemaDidIndyId = created.schemaDidIndyId
    expect(schemaDidIndyId).toBe(`${orgDid}/anoncreds/v0/SCHEMA/Membership/1.0`)
    for (const id of [schemaLedgerId, schemaDidIndyId]) {
      const read = (await call('get', `/v1/orgs/${orgId}/schemas/${encodeURIComponent(id)}`).expect(200)).body.data
      expect(read).toMatchObject({ id: created.id, schemaLedgerId, schemaDidIndyId, schemaId: id })
    }

    const onLedger = await publicGet(`/v1/ledger/schemas/${encodeURIComponent(schemaLedgerId)}`).expect(200)
    expect(onLedger.body.data.schema).toMatchObject({ name: 'Membership', version: '1.0' })
    expect([...onLedger.body.data.schema.attrNames].sort()).toEqual(['age', 'name'])

    await call('post', `/v1/orgs/${orgId}/schemas`, body).expect(409)
  })

  it('creates a credential definition by a job, readable on the ledger', async () => {
    // Named by the schema's did:indy id: the record keeps the legacy one (issue 22 item 1).
    const created = await call('post', `/v1/orgs/${orgId}/cred-defs`, {
      tag: 'default',
      schemaLedgerId: schemaDidIndyId,
      revocable: false,
    }).expect(201)
    const recordId = created.body.data.id as string
    // Issue 22 item 3: the id is known before the keys exist (DID, schema sequence number, tag).
    const schemaSeqNo = (await publicGet(`/v1/ledger/schemas/${encodeURIComponent(schemaLedgerId)}`).expect(200)).body
      .data.seqNo as number
    const unqualified = orgDid.split(':').pop()
    credentialDefinitionId = `${unqualified}:3:CL:${schemaSeqNo}:default`
    credentialDefinitionDidIndyId = `${orgDid}/anoncreds/v0/CLAIM_DEF/${schemaSeqNo}/default`
    expect(created.body.data).toMatchObject({
      status: 'creating',
      credentialDefinitionId,
      credentialDefinitionDidIndyId,
      schemaLedgerId,
      schemaDidIndyId,
    })
    const definition = await waitUntil(async () => {
      const current = (await call('get', `/v1/orgs/${orgId}/cred-defs/${recordId}`).expect(200)).body.data
      if (current.status === 'failed') throw new Error(`The job failed: ${current.error}`)
      return current.status === 'created' ? current : undefined
    }, 600_000)
    expect(definition).toMatchObject({ credentialDefinitionId, credentialDefinitionDidIndyId, publisherDid: orgDid })
    for (const id of [credentialDefinitionId, credentialDefinitionDidIndyId]) {
      const onLedger = await publicGet(`/v1/ledger/cred-defs/${encodeURIComponent(id)}`).expect(200)
      expect(onLedger.body.data.credentialDefinition).toMatchObject({ type: 'CL', tag: 'default' })
      // Both forms read the one record, and list it under the schema named in either form.
      const read = (await call('get', `/v1/orgs/${orgId}/cred-defs/${encodeURIComponent(id)}`).expect(200)).body.data
      expect(read.id).toBe(recordId)
    }
    for (const id of [schemaLedgerId, schemaDidIndyId]) {
      const listed = await call('get', `/v1/orgs/${orgId}/schemas/${encodeURIComponent(id)}/cred-defs`).expect(200)
      expect((listed.body.data.data as { id: string }[]).map((entry) => entry.id)).toEqual([recordId])
    }
    // The same schema and tag in the other form is the same definition.
    await call('post', `/v1/orgs/${orgId}/cred-defs`, { tag: 'default', schemaLedgerId, revocable: false }).expect(409)
  })

  it('answers an offer against a definition still being created with 409 and Retry-After, never 404', async () => {
    const container = platform.api.runtime.container
    const em = container.get(EntityManager)
    const setStatus = (status: 'creating' | 'created') =>
      RequestContext.create(em, async () => {
        const record = await em.findOneOrFail(CredentialDefinition, { credentialDefinitionId })
        record.status = status
        await em.flush()
      })
    // As the record is while its job runs (forced, so that key generation's speed does not decide the outcome).
    await setStatus('creating')
    try {
      for (const id of [credentialDefinitionId, credentialDefinitionDidIndyId]) {
        const startedAt = Date.now()
        const res = await call('post', `/v1/orgs/${orgId}/credentials/offer?credentialType=INDY`, {
          credentialDefinitionId: id,
          credentialData: [
            {
              connectionId: '5b6c2d9e-58a5-4a3b-9d0e-2f7d1b0d9a10',
              attributes: [
                { name: 'name', value: 'Ada' },
                { name: 'age', value: '36' },
              ],
            },
          ],
        })
        expect({ status: res.status, message: res.body.message }).toEqual({
          status: 409,
          message: expect.stringMatching(/still being created/),
        })
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
        // It waited briefly first.
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2_500)
      }
    } finally {
      await setStatus('created')
    }
  })

  it('downloads the bulk template by the definition id in either form (issue 22 item 6)', async () => {
    for (const id of [credentialDefinitionId, credentialDefinitionDidIndyId]) {
      const res = await call('post', `/v1/orgs/${orgId}/credentials/bulk/template`, {
        credentialDefinitionId: id,
        schemaType: 'INDY',
      }).expect(201)
      expect(res.headers['content-type']).toMatch(/^text\/csv/)
      expect(res.text.split('\n')[0]).toMatch(/^email,/)
      expect(res.text.split('\n')[0]).toMatch(/name/)
    }
  })

  it('creates a did:indy in a cloud wallet through the managed base agent; another network is 400', async () => {
    const wallet = await patiently('post', '/v1/create-wallet', { label: 'Ledger Holder' })
    expect(wallet.status).toBe(201)
    await asHolder('post', '/v1/did', { method: 'indy', keyType: 'ed25519', network: 'sovrin:staging' }).expect(400)
    const created = await asHolder('post', '/v1/did', {
      method: 'indy',
      keyType: 'ed25519',
      network: `did:indy:${NAMESPACE}`,
    }).expect(201)
    const walletDid = created.body.data.did as string
    expect(walletDid).toMatch(DID_INDY)
    const resolved = await publicGet(`/v1/ledger/dids/${encodeURIComponent(walletDid)}`).expect(200)
    expect(resolved.body.data.didDocument.id).toBe(walletDid)
    const listed = (await asHolder('get', '/v1/did').expect(200)).body.data as { did: string }[]
    expect(listed.map((entry) => entry.did)).toContain(walletDid)
  })

  it('issues an INDY credential through the API to the wallet, which proves a predicate; an unmet one fails', async () => {
    const invitation = (await call('post', `/v1/orgs/${orgId}/connections`, {}).expect(201)).body.data as {
      invitationUrl: string
      outOfBandRecord: { id: string }
    }
    await asHolder('post', '/v1/receive-invitation-url', { invitationUrl: invitation.invitationUrl }).expect(201)
    issuerConnectionId = await waitUntil(async () => {
      const page = await call('get', `/v1/orgs/${orgId}/connections?pageSize=100`).expect(200)
      const items = page.body.data.connections as { id: string; state: string; outOfBandId: string }[]
      return items.find((item) => item.outOfBandId === invitation.outOfBandRecord.id && item.state === 'completed')?.id
    }, 120_000)

    const offered = await call('post', `/v1/orgs/${orgId}/credentials/offer?credentialType=INDY`, {
      credentialDefinitionId,
      protocolVersion: 'v2',
      credentialData: [
        {
          connectionId: issuerConnectionId,
          attributes: [
            { name: 'name', value: 'Ada', isRequired: true },
            { name: 'age', value: '36', isRequired: true },
          ],
        },
      ],
    }).expect(201)
    const [issued] = offered.body.data as Rec[]
    const walletOffer = await waitUntil(async () => {
      const list = (await asHolder('get', `/v1/credential?threadId=${issued?.threadId}`).expect(200)).body.data as Rec[]
      return list.find((record) => record.state === 'offer-received')
    }, 120_000)
    await asHolder('post', '/v1/accept-offer', {
      credentialRecordId: walletOffer.id,
      autoAcceptCredential: 'always',
      credentialFormats: { anoncreds: {} },
    }).expect(201)
    await waitUntil(async () => {
      const record = (await call('get', `/v1/orgs/${orgId}/credentials/${issued?.id}`).expect(200)).body.data as Rec
      return record.state === 'done' ? true : undefined
    }, 120_000)

    const requestProof = async (minimumAge: string) => {
      const requested = await call('post', `/v1/orgs/${orgId}/proofs?requestType=INDY`, {
        connectionId: issuerConnectionId,
        proofFormats: {
          indy: {
            attributes: [
              { attributeName: 'name', credDefId: credentialDefinitionId },
              // Either form restricts to the definition (issue 22 item 1).
              { attributeName: 'age', condition: '>=', value: minimumAge, credDefId: credentialDefinitionDidIndyId },
            ],
          },
        },
      }).expect(201)
      const proof = requested.body.data as Rec
      const walletRequest = await waitUntil(async () => {
        const list = (await asHolder('get', `/v1/proofs?threadId=${proof.threadId}`).expect(200)).body.data as Rec[]
        return list.find((record) => record.state === 'request-received')
      }, 120_000)
      return { proofId: proof.id, walletRecordId: walletRequest.id }
    }

    const met = await requestProof('18')
    await asHolder('post', '/v1/proofs/accept-request', { proofRecordId: met.walletRecordId }).expect(201)
    await waitUntil(async () => {
      const record = (await call('get', `/v1/orgs/${orgId}/proofs/${met.proofId}`).expect(200)).body.data as Rec
      return ['presentation-received', 'done'].includes(record.state) ? true : undefined
    }, 120_000)
    const verified = await call('post', `/v1/orgs/${orgId}/proofs/${met.proofId}/verify`).expect(201)
    expect(verified.body.data.isVerified).toBe(true)
    const shown = (await call('get', `/v1/orgs/${orgId}/verified-proofs/${met.proofId}`).expect(200)).body.data as {
      revealedAttributes: { name: string; value: string }[]
      predicates: { statement: string }[]
    }
    expect(shown.revealedAttributes).toEqual([expect.objectContaining({ name: 'name', value: 'Ada' })])
    expect(shown.predicates.map((predicate) => predicate.statement)).toEqual(['age >= 18'])

    // 36 is not >= 40: the wallet cannot build the proof.
    const unmet = await requestProof('40')
    const refused = await asHolder('post', '/v1/proofs/accept-request', { proofRecordId: unmet.walletRecordId })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.status).toBeLessThan(500)
  })

  it('keeps a valid chain', async () => {
    const verified = await publicGet('/v1/ledger/verify').expect(200)
    expect(verified.body.data).toMatchObject({ isValid: true })
    // Genesis, two organizations' NYM and ATTRIB, schema, cred-def, the wallet's NYM and ATTRIB.
    expect(verified.body.data.checked).toBeGreaterThanOrEqual(9)
    // Issue 23: the head is the one the platform anchored; the schema and cred-def records point at ledger rows.
    expect(verified.body.data).toMatchObject({
      anchor: { isValid: true },
      references: { isValid: true, danglingCount: 0 },
    })
    expect(verified.body.data.references.checked).toBeGreaterThanOrEqual(2)
  })

  it("refuses every agent-signed transaction posted again (issue 23): the agents' writes are each good once", async () => {
    const head = (await publicGet('/v1/ledger').expect(200)).body.data.head.seqNo as number
    const chain = (await publicGet(`/v1/ledger/transactions?from=1&limit=500`).expect(200)).body.data as {
      type: string
      authorDid: string
      payload: unknown
      signature: string
      lastSeqNo?: number
    }[]
    const signedByAgents = chain.filter((txn) => txn.type !== 'NYM')
    expect(new Set(signedByAgents.map((txn) => txn.type))).toEqual(new Set(['ATTRIB', 'SCHEMA', 'CRED_DEF']))
    for (const { type, authorDid, payload, signature, lastSeqNo } of signedByAgents) {
      expect(lastSeqNo).toEqual(expect.any(Number))
      const replay = await request(platform.api.app)
        .post('/v1/ledger/transactions')
        .send({ type, authorDid, payload, signature, lastSeqNo })
        .expect(409)
      expect(replay.body.message).toMatch(/^Stale ledger request/)
    }
    expect((await publicGet('/v1/ledger').expect(200)).body.data.head.seqNo).toBe(head)
  })
})
