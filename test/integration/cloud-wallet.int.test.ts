import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto'
import type { Server } from 'node:http'
import request from 'supertest'
import { Kms, TypedArrayEncoder } from '@credo-ts/core'
import { BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import { freePort } from '../helpers/ports'
import { spawnAgent, TEST_API_KEY, waitUntil, type SpawnedAgent } from '../helpers/agent-process'
import { WalletLedger } from '../../api/src/modules/cloud-wallet/dids/wallet-ledger'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, type TestUser } from '../helpers/tokens'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'
import { buildPrograms } from '../helpers/build-programs'

type Rec = Record<string, unknown> & { id: string; state: string; threadId?: string }

const ADMIN_EMAIL = 'wallet-root@example.test'
/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

jest.setTimeout(400000)

/**
 * The cloud wallet through the API with a real base agent and a real issuer agent: configuration, one wallet per
 * user, and every wallet route scoped to the caller's own tenant (another user's ids are 404, never the record).
 */
describe('cloud wallet', () => {
  let api: TestApi
  let server: Server
  let base: SpawnedAgent
  let issuer: SpawnedAgent
  let admin: TestUser
  let alice: TestUser
  let bob: TestUser
  let carol: TestUser
  const ofAlice: Record<string, string> = {}
  const ofBob: Record<string, string> = {}

  const as = (user: TestUser) => ({
    get: (route: string) => request(api.app).get(route).set('Authorization', `Bearer ${user.token}`),
    post: (route: string, body: object = {}) =>
      request(api.app).post(route).set('Authorization', `Bearer ${user.token}`).send(body),
  })

  /** The issuer invites; the user's wallet receives the URL; both sides reach `completed`. */
  async function connectToIssuer(user: TestUser): Promise<{ walletSide: string; issuerSide: string }> {
    const invitation = await issuer.call<{ data: { invitationUrl: string; outOfBandRecord: { id: string } } }>(
      'POST',
      '/oob/create-invitation',
      { autoAcceptConnection: true },
    )
    const received = await as(user).post('/v1/receive-invitation-url', {
      invitationUrl: invitation.body.data.invitationUrl,
      alias: 'my issuer',
      label: 'holder',
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
      reuseConnection: false,
      acceptInvitationTimeoutMs: 20000,
    })
    expect({ status: received.status, message: received.body.message }).toEqual({
      status: 201,
      message: 'Invitation received',
    })
    const walletSide = received.body.data.connectionRecord.id as string
    await waitUntil(async () => {
      const one = await as(user).get(`/v1/connection/${walletSide}`).expect(200)
      return one.body.data.state === 'completed' ? true : undefined
    })
    const issuerSide = await waitUntil(async () => {
      const list = await issuer.call<{ data: Rec[] }>(
        'GET',
        `/connections?outOfBandId=${invitation.body.data.outOfBandRecord.id}`,
      )
      return list.body.data.find((record) => record.state === 'completed')?.id
    })
    return { walletSide, issuerSide }
  }

  beforeAll(async () => {
    buildPrograms()
    // The base agent posts its tenants' events to the API (the wallet lists read the records they keep).
    const port = await freePort()
    const events = {
      AGENT_EVENT_URL: `http://127.0.0.1:${port}${BASE_WALLET_EVENTS_PATH}`,
      AGENT_EVENT_TOKEN: TEST_API_KEY,
    }
    ;[base, issuer, api] = await Promise.all([
      spawnAgent({ label: 'base', env: events }),
      spawnAgent({ label: 'issuer' }),
      startApi({ PLATFORM_ADMIN_EMAILS: ADMIN_EMAIL }),
    ])
    server = await new Promise<Server>((resolve) => {
      const listening = api.app.listen(port, '127.0.0.1', () => resolve(listening))
    })
    admin = await aUserWithToken(api, ADMIN_EMAIL)
    alice = await aUserWithToken(api)
    bob = await aUserWithToken(api)
    carol = await aUserWithToken(api)
  })

  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
    await Promise.all([api?.stop(), base?.stop(), issuer?.stop()])
  })

  it('answers a clear 409 on every wallet route while no base wallet is configured', async () => {
    const res = await as(alice).post('/v1/create-wallet', { label: 'Alice' })
    expect(res.status).toBe(409)
    expect(res.body.message).toMatch(/No base wallet is configured/)
    expect((await as(alice).get('/v1/connections')).status).toBe(409)
    expect((await as(alice).get('/v1/did')).status).toBe(409)
  })

  it('lets only a platform admin configure the base wallet, checks the key, and is idempotent', async () => {
    const body = { agentEndpoint: base.adminUrl, apiKey: TEST_API_KEY, walletKey: 'base-wallet-key-0001' }
    expect((await as(alice).post('/v1/configure/base-wallet', body)).status).toBe(403)
    const wrongKey = await as(admin).post('/v1/configure/base-wallet', { ...body, apiKey: 'not-the-key' })
    expect(wrongKey.status).toBe(400)
    expect(wrongKey.body.message).toMatch(/API key/)
    expect((await as(admin).post('/v1/configure/base-wallet', { ...body, agentEndpoint: 'ftp://x' })).status).toBe(400)

    const configured = await as(admin).post('/v1/configure/base-wallet', body).expect(201)
    expect(configured.body.data).toEqual({
      agentEndpoint: base.adminUrl,
      label: 'base',
      endpoints: expect.any(Array),
      isInitialized: true,
    })
    const again = await as(admin).post('/v1/configure/base-wallet', body).expect(201)
    expect(again.body.data).toEqual(configured.body.data)
  })

  it('answers 404 "create a wallet first" before the user has a wallet', async () => {
    const res = await as(carol).get('/v1/connections')
    expect(res.status).toBe(404)
    expect(res.body.message).toMatch(/create one first/)
    expect(
      (await as(carol).post('/v1/basic-message/7d5e3c8e-9a51-4f0e-8b59-3c2a4f3e1a11', { content: 'x' })).status,
    ).toBe(404)
  })

  it('creates one wallet per user from the token; a second create is 409', async () => {
    // The user comes from the token: a body naming one is refused.
    expect((await as(alice).post('/v1/create-wallet', { label: 'Alice', userId: bob.id })).status).toBe(400)
    const created = await as(alice)
      .post('/v1/create-wallet', { label: 'Alice', connectionImageUrl: 'https://example.com/a.png' })
      .expect(201)
    expect(created.body.data).toEqual({
      id: expect.any(String),
      tenantId: expect.any(String),
      label: 'Alice',
      email: alice.email,
      connectionImageUrl: 'https://example.com/a.png',
      createdAt: expect.any(String),
    })
    const tenant = await base.call<{ data: { label: string } }>('GET', `/tenants/${created.body.data.tenantId}`)
    expect(tenant.body.data.label).toBe('Alice')
    expect((await as(alice).post('/v1/create-wallet', { label: 'Alice again' })).status).toBe(409)
    expect((await as(alice).post('/v1/create-wallet', { label: '   ' })).status).toBe(400)
    await as(bob).post('/v1/create-wallet', { label: 'Bob' }).expect(201)
    const tenants = await base.call<{ data: unknown[] }>('GET', '/tenants')
    expect(tenants.body.data).toHaveLength(2)
  })

  it('makes one wallet of two concurrent creates of the same user; the other is 409', async () => {
    const statuses = (
      await Promise.all([
        as(carol).post('/v1/create-wallet', { label: 'Carol' }),
        as(carol).post('/v1/create-wallet', { label: 'Carol' }),
      ])
    ).map((res) => res.status)
    expect(statuses.sort()).toEqual([201, 409])
    const tenants = await base.call<{ data: { label: string }[] }>('GET', '/tenants')
    expect(tenants.body.data.filter((tenant) => tenant.label === 'Carol')).toHaveLength(1)
  })

  it('connects each wallet to an issuer, with the connection filters scoped to the caller', async () => {
    const a = await connectToIssuer(alice)
    const b = await connectToIssuer(bob)
    ofAlice.connection = a.walletSide
    ofAlice.issuerSide = a.issuerSide
    ofBob.connection = b.walletSide
    ofBob.issuerSide = b.issuerSide

    const list = await as(alice).get('/v1/connections').expect(200)
    expect(list.body.data.map((record: Rec) => record.id)).toEqual([a.walletSide])
    expect((await as(alice).get('/v1/connections?theirLabel=issuer').expect(200)).body.data).toHaveLength(1)
    expect((await as(alice).get('/v1/connections?alias=my%20issuer').expect(200)).body.data).toHaveLength(1)
    expect((await as(alice).get('/v1/connections?theirLabel=nobody').expect(200)).body.data).toEqual([])

    const invitation = await as(alice).post('/v1/connections/invitation', { label: 'Alice', alias: 'for someone' })
    expect(invitation.status).toBe(201)
    expect(invitation.body.data.invitationUrl).toEqual(expect.any(String))
    ofAlice.outOfBandId = invitation.body.data.outOfBandRecord.id
  })

  it('creates DIDs (key, peer, web) in the wallet; indy on another network is 400, polygon 501', async () => {
    const key = await as(alice).post('/v1/did', { method: 'key', keyType: 'ed25519' }).expect(201)
    ofAlice.did = key.body.data.did
    expect(ofAlice.did).toMatch(/^did:key:/)
    expect((await as(alice).post('/v1/did', { method: 'peer', keyType: 'ed25519' })).status).toBe(201)
    expect(
      (await as(alice).post('/v1/did', { method: 'indy', keyType: 'ed25519', network: 'bcovrin:testnet' })).status,
    ).toBe(400)
    expect((await as(alice).post('/v1/did', { method: 'polygon', keyType: 'secp256k1' })).status).toBe(501)
    expect((await as(alice).post('/v1/did', { method: 'web', keyType: 'ed25519' })).status).toBe(400)
    expect((await as(alice).post('/v1/did', { method: 'ethr', keyType: 'ed25519' })).status).toBe(400)
    const dids = (await as(alice).get('/v1/did').expect(200)).body.data.map((entry: { did: string }) => entry.did)
    expect(dids).toContain(ofAlice.did)
    const bobsDids = (await as(bob).get('/v1/did').expect(200)).body.data.map((entry: { did: string }) => entry.did)
    expect(bobsDids).not.toContain(ofAlice.did)
  })

  it('imports a DID with its key (issue 22 item 9): key, peer, web and indy; a DID that is not the key is 400', async () => {
    // The DIDs a 32-byte Ed25519 seed gives: did:key / did:peer:0 carry the multibase key, did:indy its first 16 bytes.
    const seed = randomBytes(32)
    const privatekey = seed.toString('hex')
    const publicKey = createPublicKey(
      createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
    ).export({ format: 'jwk' }).x as string
    const fingerprint = Kms.PublicJwk.fromPublicJwk({ kty: 'OKP', crv: 'Ed25519', x: publicKey }).fingerprint
    const raw = Buffer.from(publicKey, 'base64url')

    const key = await as(alice).post('/v1/did', {
      method: 'key',
      keyType: 'ed25519',
      did: `did:key:${fingerprint}`,
      privatekey,
    })
    expect({ status: key.status, did: key.body.data?.did }).toEqual({ status: 201, did: `did:key:${fingerprint}` })
    const peer = await as(alice).post('/v1/did', {
      method: 'peer',
      keyType: 'ed25519',
      did: `did:peer:0${fingerprint}`,
      privatekey,
    })
    expect({ status: peer.status, did: peer.body.data?.did }).toEqual({ status: 201, did: `did:peer:0${fingerprint}` })
    const web = await as(alice).post('/v1/did', {
      method: 'web',
      keyType: 'ed25519',
      did: 'did:web:alice.example',
      privatekey,
    })
    expect({ status: web.status, did: web.body.data?.did }).toEqual({ status: 201, did: 'did:web:alice.example' })
    expect(JSON.stringify(web.body.data.didDocument)).toContain(TypedArrayEncoder.toBase58(raw))

    // did:indy with the 32-character seed the spec names: written to the platform ledger (the base agent's).
    const indySeed = randomBytes(16).toString('hex')
    const indyPublic = createPublicKey(
      createPrivateKey({
        key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(indySeed, 'utf8')]),
        format: 'der',
        type: 'pkcs8',
      }),
    ).export({ format: 'jwk' }).x as string
    const indyId = TypedArrayEncoder.toBase58(Buffer.from(indyPublic, 'base64url').subarray(0, 16))
    const namespace = api.runtime.container.get(WalletLedger).namespace
    const indy = await as(alice).post('/v1/did', {
      method: 'indy',
      keyType: 'ed25519',
      did: `did:indy:${namespace}:${indyId}`,
      seed: indySeed,
    })
    expect({ status: indy.status, did: indy.body.data?.did }).toEqual({
      status: 201,
      did: `did:indy:${namespace}:${indyId}`,
    })

    const dids = (await as(alice).get('/v1/did').expect(200)).body.data.map((entry: { did: string }) => entry.did)
    expect(dids).toEqual(
      expect.arrayContaining([
        `did:key:${fingerprint}`,
        `did:peer:0${fingerprint}`,
        'did:web:alice.example',
        indy.body.data?.did,
      ]),
    )

    // Refused before anything is stored: another key's DID, no key, another method, another network.
    const otherKey = randomBytes(32).toString('hex')
    // Bob's wallet may hold DIDs of earlier tests (a did:peer of a connection): the refusals must add none.
    const bobsDidsBefore = (await as(bob).get('/v1/did').expect(200)).body.data as unknown[]
    for (const body of [
      { method: 'key', did: `did:key:${fingerprint}`, privatekey: otherKey },
      { method: 'peer', did: `did:peer:0${fingerprint}`, privatekey: otherKey },
      { method: 'indy', did: `did:indy:${namespace}:${indyId}`, privatekey: otherKey },
      { method: 'key', did: `did:key:${fingerprint}` },
      { method: 'key', did: `did:peer:0${fingerprint}`, privatekey },
      { method: 'indy', did: `did:indy:sovrin:${indyId}`, seed: indySeed },
    ]) {
      const res = await as(bob).post('/v1/did', { keyType: 'ed25519', ...body })
      expect({ body, status: res.status }).toEqual({ body, status: 400 })
    }
    const bobsDids = (await as(bob).get('/v1/did').expect(200)).body.data as unknown[]
    expect(bobsDids).toEqual(bobsDidsBefore)
  })

  it('receives, accepts and holds a JSON-LD credential, then answers a proof request the issuer verifies', async () => {
    const issuerDid = (await issuer.call<{ data: { did: string } }>('POST', '/dids', { method: 'key' })).body.data.did
    const offer = await issuer.call<{ data: Rec }>('POST', '/credentials/offer', {
      connectionId: ofAlice.issuerSide,
      credential: aDegreeCredential(issuerDid, ofAlice.did),
      options: signingOptions(),
    })
    expect(offer.status).toBe(201)
    const received = await waitUntil(async () => {
      const list = await as(alice)
        .get(`/v1/credential?threadId=${String(offer.body.data.threadId)}`)
        .expect(200)
      return (list.body.data as Rec[]).find((record) => record.state === 'offer-received')
    })
    ofAlice.credential = received.id
    expect((await as(alice).get('/v1/credential?state=offer-received').expect(200)).body.data).toHaveLength(1)
    expect(
      (await as(alice).get(`/v1/credential?connectionId=${ofAlice.connection}`).expect(200)).body.data,
    ).toHaveLength(1)
    await as(alice)
      .post('/v1/accept-offer', {
        credentialRecordId: received.id,
        autoAcceptCredential: 'always',
        credentialFormats: { jsonld: {} },
      })
      .expect(201)
    await waitUntil(async () => {
      const one = await as(alice).get(`/v1/credential/${received.id}`).expect(200)
      return one.body.data.state === 'done' ? true : undefined
    })

    const proofRequest = await issuer.call<{ data: Rec }>('POST', '/proofs/request', {
      connectionId: ofAlice.issuerSide,
      presentationDefinition: aDegreePresentationDefinition(),
    })
    const requested = await waitUntil(async () => {
      const list = await as(alice)
        .get(`/v1/proofs?threadId=${String(proofRequest.body.data.threadId)}`)
        .expect(200)
      return (list.body.data as Rec[]).find((record) => record.state === 'request-received')
    })
    ofAlice.proof = requested.id
    await as(alice)
      .post('/v1/proofs/accept-request', {
        proofRecordId: requested.id,
        filterByPresentationPreview: false,
        filterByNonRevocationRequirements: false,
      })
      .expect(201)
    await waitUntil(async () => {
      const one = await issuer.call<{ data: Rec }>('GET', `/proofs/${proofRequest.body.data.id}`)
      return ['presentation-received', 'done'].includes(one.body.data.state) ? true : undefined
    })
    const verified = await issuer.call<{ data: { isVerified: boolean } }>(
      'POST',
      `/proofs/${proofRequest.body.data.id}/verify`,
    )
    expect(verified.body.data.isVerified).toBe(true)
    expect((await as(alice).get(`/v1/proofs/${requested.id}`).expect(200)).body.data.id).toBe(requested.id)
  })

  it('exchanges basic messages over the wallet connection', async () => {
    await as(alice).post(`/v1/basic-message/${ofAlice.connection}`, { content: 'hello issuer' }).expect(201)
    await issuer.call('POST', `/basic-messages/${ofAlice.issuerSide}`, { content: 'hello Alice' })
    await waitUntil(async () => {
      const list = await as(alice).get(`/v1/basic-message/${ofAlice.connection}`).expect(200)
      const contents = (list.body.data as { content: string }[]).map((message) => message.content)
      return contents.includes('hello Alice') && contents.includes('hello issuer') ? true : undefined
    })
  })

  it("gives Bob 404 (never the record) for every one of Alice's ids, and leaves Alice's records untouched", async () => {
    const attempts: [string, request.Test][] = [
      ['connection', as(bob).get(`/v1/connection/${ofAlice.connection}`)],
      ['credential', as(bob).get(`/v1/credential/${ofAlice.credential}`)],
      ['proof', as(bob).get(`/v1/proofs/${ofAlice.proof}`)],
      ['basic messages', as(bob).get(`/v1/basic-message/${ofAlice.connection}`)],
      ['send message', as(bob).post(`/v1/basic-message/${ofAlice.connection}`, { content: 'intrusion' })],
      [
        'accept offer',
        as(bob).post('/v1/accept-offer', {
          credentialRecordId: ofAlice.credential,
          autoAcceptCredential: 'always',
          credentialFormats: {},
        }),
      ],
      ['accept proof request', as(bob).post('/v1/proofs/accept-request', { proofRecordId: ofAlice.proof })],
    ]
    for (const [what, attempt] of attempts) {
      const res = await attempt
      expect({ what, status: res.status }).toEqual({ what, status: 404 })
      expect(res.body.data).toBeUndefined()
    }
    const bobsLists = await Promise.all([
      as(bob).get(`/v1/connections?outOfBandId=${ofAlice.outOfBandId}`),
      as(bob).get(`/v1/credential?connectionId=${ofAlice.connection}`),
      as(bob).get('/v1/credential'),
      as(bob).get('/v1/proofs'),
    ])
    for (const list of bobsLists) {
      expect(list.status).toBe(200)
      const ids = (list.body.data as Rec[]).map((record) => record.id)
      expect(ids).not.toContain(ofAlice.connection)
      expect(ids).not.toContain(ofAlice.credential)
      expect(ids).not.toContain(ofAlice.proof)
    }
    expect((await as(bob).get('/v1/connections').expect(200)).body.data.map((record: Rec) => record.id)).toEqual([
      ofBob.connection,
    ])
    const messages = await as(alice).get(`/v1/basic-message/${ofAlice.connection}`).expect(200)
    expect((messages.body.data as { content: string }[]).map((message) => message.content)).not.toContain('intrusion')
    expect((await as(alice).get(`/v1/credential/${ofAlice.credential}`).expect(200)).body.data.state).toBe('done')
  })

  it('binds a wallet without DIDs to a did:key at accept, so it answers a PE request (issue 22 item 10)', async () => {
    // Bob never called /v1/did: the offer names no subject, so the wallet binds the credential to a did:key of its
    // own when he accepts, and presents it with that DID.
    const didKeys = async () =>
      ((await as(bob).get('/v1/did').expect(200)).body.data as { did: string }[])
        .map((entry) => entry.did)
        .filter((did) => did.startsWith('did:key:'))
    expect(await didKeys()).toEqual([])
    const issuerDid = (await issuer.call<{ data: { did: string } }>('POST', '/dids', { method: 'key' })).body.data.did
    const { id: _none, ...subject } = aDegreeCredential(issuerDid, 'unused').credentialSubject
    const offer = await issuer.call<{ data: Rec }>('POST', '/credentials/offer', {
      connectionId: ofBob.issuerSide,
      credential: { ...aDegreeCredential(issuerDid, 'unused'), credentialSubject: subject },
      options: signingOptions(),
    })
    expect(offer.status).toBe(201)
    const received = await waitUntil(async () => {
      const list = await as(bob)
        .get(`/v1/credential?threadId=${String(offer.body.data.threadId)}`)
        .expect(200)
      return (list.body.data as Rec[]).find((record) => record.state === 'offer-received')
    })
    await as(bob)
      .post('/v1/accept-offer', {
        credentialRecordId: received.id,
        autoAcceptCredential: 'always',
        credentialFormats: { jsonld: {} },
      })
      .expect(201)
    await waitUntil(async () => {
      const one = await as(bob).get(`/v1/credential/${received.id}`).expect(200)
      return one.body.data.state === 'done' ? true : undefined
    })
    expect(await didKeys()).toEqual([expect.stringMatching(/^did:key:z6Mk/)])

    const proofRequest = await issuer.call<{ data: Rec }>('POST', '/proofs/request', {
      connectionId: ofBob.issuerSide,
      presentationDefinition: aDegreePresentationDefinition(),
    })
    const requested = await waitUntil(async () => {
      const list = await as(bob)
        .get(`/v1/proofs?threadId=${String(proofRequest.body.data.threadId)}`)
        .expect(200)
      return (list.body.data as Rec[]).find((record) => record.state === 'request-received')
    })
    const accepted = await as(bob).post('/v1/proofs/accept-request', { proofRecordId: requested.id })
    expect({ status: accepted.status, message: accepted.body.message }).toMatchObject({ status: 201 })
    await waitUntil(async () => {
      const one = await issuer.call<{ data: Rec }>('GET', `/proofs/${proofRequest.body.data.id}`)
      return ['presentation-received', 'done'].includes(one.body.data.state) ? true : undefined
    })
    const verified = await issuer.call<{ data: { isVerified: boolean; proofRecord: Rec } }>(
      'POST',
      `/proofs/${proofRequest.body.data.id}/verify`,
    )
    expect(verified.body.data.isVerified).toBe(true)
    // A second accept of the same request is the record's state (409), not a new failure of the exchange.
    const again = await as(bob).post('/v1/proofs/accept-request', { proofRecordId: requested.id })
    expect(again.status).toBe(409)
  })

  it('answers 409 with the reason for a request the wallet cannot satisfy, and abandons it on both sides', async () => {
    const proofRequest = await issuer.call<{ data: Rec }>('POST', '/proofs/request', {
      connectionId: ofBob.issuerSide,
      presentationDefinition: aDegreePresentationDefinition([
        { path: ['$.credentialSubject.degree.name'], filter: { type: 'string', const: 'Doctor of Nothing' } },
      ]),
    })
    const requested = await waitUntil(async () => {
      const list = await as(bob)
        .get(`/v1/proofs?threadId=${String(proofRequest.body.data.threadId)}`)
        .expect(200)
      return (list.body.data as Rec[]).find((record) => record.state === 'request-received')
    })
    const refused = await as(bob).post('/v1/proofs/accept-request', { proofRecordId: requested.id })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toMatch(/The proof request cannot be answered: .+abandoned/)
    // The wallet's record follows the agent's event; the verifier got the problem report.
    await waitUntil(async () => {
      const one = await as(bob).get(`/v1/proofs/${requested.id}`).expect(200)
      return one.body.data.state === 'abandoned' ? true : undefined
    })
    await waitUntil(async () => {
      const one = await issuer.call<{ data: Rec }>('GET', `/proofs/${proofRequest.body.data.id}`)
      return one.body.data.state === 'abandoned' ? true : undefined
    })
  })

  it('refuses malformed ids with 400 before reaching the agent', async () => {
    expect((await as(alice).get('/v1/connection/not-a-uuid')).status).toBe(400)
    expect((await as(alice).get('/v1/credential/not-a-uuid')).status).toBe(400)
    expect((await as(alice).post('/v1/accept-offer', { credentialRecordId: 'x' })).status).toBe(400)
  })
})
