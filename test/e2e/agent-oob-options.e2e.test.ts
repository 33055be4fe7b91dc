import { randomUUID } from 'node:crypto'

import { DidKey, JsonEncoder, TypedArrayEncoder } from '@credo-ts/core'

import { spawnAgent, type SpawnedAgent, waitUntil } from '../helpers/agent-process'
import { buildPrograms } from '../helpers/build-programs'

interface Envelope<T> {
  data: T
}
type Rec = Record<string, unknown> & { id: string; state: string }
type Caller = Pick<SpawnedAgent, 'call'>
interface ErrorBody {
  statusCode: number
  message: string
  error: string
  errors?: { field: string; message: string }[]
}
interface Attachment {
  '@id': string
  'mime-type'?: string
  data: { base64?: string; json?: unknown }
}
interface Invitation {
  '@id': string
  services: (string | { recipientKeys: string[] })[]
  'requests~attach'?: Attachment[]
  '~attach'?: Attachment[]
}
interface Created {
  invitationUrl: string
  invitation: Invitation
  outOfBandRecord: { id: string }
}

jest.setTimeout(240000)

async function createInvitation(inviter: Caller, body: Record<string, unknown>): Promise<Created> {
  const response = await inviter.call<Envelope<Created>>('POST', '/oob/create-invitation', body)
  expect(response.status).toBe(201)
  return response.body.data
}

/** The receiver takes the invitation; resolves with both connection ids once both sides are `completed`. */
async function connect(
  inviter: Caller,
  created: Created,
  receiver: Caller,
  options: Record<string, unknown> = {},
): Promise<{ inviterSide: string; receiverSide: string }> {
  const received = await receiver.call<Envelope<{ connectionRecord: Rec }>>('POST', '/oob/receive-invitation-url', {
    invitationUrl: created.invitationUrl,
    autoAcceptConnection: true,
    autoAcceptInvitation: true,
    ...options,
  })
  expect(received.status).toBe(201)
  const receiverSide = received.body.data.connectionRecord.id
  const inviterSide = await waitUntil(async () => {
    const list = await inviter.call<Envelope<Rec[]>>('GET', `/connections?outOfBandId=${created.outOfBandRecord.id}`)
    return list.body.data.find((record) => record.state === 'completed')?.id
  })
  await waitUntil(async () => {
    const record = await receiver.call<Envelope<Rec>>('GET', `/connections/${receiverSide}`)
    return record.body.data.state === 'completed' ? true : undefined
  })
  return { inviterSide, receiverSide }
}

/** A message sent over the connection arrives: the connection works in both directions' keys. */
async function expectDelivery(sender: Caller, senderSide: string, receiver: Caller, receiverSide: string) {
  const content = `ping ${randomUUID()}`
  expect((await sender.call('POST', `/basic-messages/${senderSide}`, { content })).status).toBe(201)
  await waitUntil(async () => {
    const list = await receiver.call<Envelope<{ content: string }[]>>('GET', `/basic-messages/${receiverSide}`)
    return list.body.data.some((message) => message.content === content) ? true : undefined
  })
}

/** The invitation inside `invitationUrl` (`?oob=` base64url JSON). */
function invitationInUrl(url: string): Invitation {
  const encoded = new URL(url).searchParams.get('oob')
  if (!encoded) throw new Error('no oob parameter')
  return JsonEncoder.fromBase64(encoded) as Invitation
}

/** A did:peer:2 read by its purpose codes: V = authentication key, S = base64url service (abbreviated). */
function readPeerDid2(did: string): { keys: string[]; services: { s: string; r?: string[] }[] } {
  expect(did).toMatch(/^did:peer:2\./)
  const elements = did.slice('did:peer:2.'.length).split('.')
  return {
    keys: elements.filter((element) => element.startsWith('V')).map((element) => element.slice(1)),
    services: elements
      .filter((element) => element.startsWith('S'))
      .map((element) => JsonEncoder.fromBase64(element.slice(1)) as { s: string; r?: string[] }),
  }
}

function fingerprintOf(didKey: string): string {
  return didKey.slice('did:key:'.length)
}

function base58Of(didKey: string): string {
  const { publicKey } = DidKey.fromDid(didKey).publicJwk
  if (!('publicKey' in publicKey)) throw new Error('not an Ed25519 did:key')
  return TypedArrayEncoder.toBase58(publicKey.publicKey)
}

function aBasicMessage(content: string): Record<string, unknown> {
  return {
    '@type': 'https://didcomm.org/basicmessage/1.0/message',
    '@id': randomUUID(),
    content,
    sent_time: new Date().toISOString(),
  }
}

describe('POST /oob/create-invitation options between agent processes', () => {
  let issuer: SpawnedAgent
  let alice: SpawnedAgent
  let bob: SpawnedAgent

  beforeAll(async () => {
    buildPrograms()
    ;[issuer, alice, bob] = await Promise.all([
      spawnAgent({ label: 'issuer' }),
      spawnAgent({ label: 'alice' }),
      spawnAgent({ label: 'bob' }),
    ])
  })

  afterAll(async () => {
    await Promise.all([issuer?.stop(), alice?.stop(), bob?.stop()])
  })

  const newDidKey = async (agent: Caller) =>
    (await agent.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did

  it('carries messages and attachments in the invitation and its URL; the receiver gets the message', async () => {
    const welcome = aBasicMessage('Welcome aboard')
    const terms = { '@id': 'terms', 'mime-type': 'application/json', data: { json: { version: 3 } } }
    const note = { '@id': 'note', 'mime-type': 'text/plain', data: { base64: Buffer.from('hello').toString('base64') } }
    const created = await createInvitation(issuer, {
      autoAcceptConnection: true,
      messages: [welcome],
      appendedAttachments: [terms, note],
    })

    for (const invitation of [created.invitation, invitationInUrl(created.invitationUrl)]) {
      const requests = invitation['requests~attach'] ?? []
      expect(requests).toHaveLength(1)
      expect(JsonEncoder.fromBase64(requests[0].data.base64 ?? '')).toMatchObject({
        '@type': welcome['@type'],
        '@id': welcome['@id'],
        content: 'Welcome aboard',
      })
      expect(invitation['~attach']).toEqual([
        expect.objectContaining(terms),
        expect.objectContaining({ '@id': 'note', 'mime-type': 'text/plain', data: note.data }),
      ])
    }

    const { receiverSide } = await connect(issuer, created, alice)
    // Credo's receiver handles the attached request on the new connection once it is complete.
    await waitUntil(async () => {
      const list = await alice.call<Envelope<{ content: string }[]>>('GET', `/basic-messages/${receiverSide}`)
      return list.body.data.some((message) => message.content === 'Welcome aboard') ? true : undefined
    })
  })

  it('names a chosen key through one DID: new receivers connect through it, known ones reuse their connection', async () => {
    const didKey = await newDidKey(issuer)
    const first = await createInvitation(issuer, { recipientKey: didKey, autoAcceptConnection: true })
    const [service] = first.invitation.services
    expect(typeof service).toBe('string')
    const did = readPeerDid2(service as string)
    expect(did.keys).toEqual([fingerprintOf(didKey)])
    expect(did.services).toEqual([expect.objectContaining({ s: issuer.endpoint })])
    expect(invitationInUrl(first.invitationUrl).services).toEqual([service])

    // The same key as base58 names the same DID; a second receiver still gets a connection of its own.
    const second = await createInvitation(issuer, { recipientKey: base58Of(didKey), autoAcceptConnection: true })
    expect(second.invitation.services).toEqual([service])
    const ofAlice = await connect(issuer, first, alice)
    const ofBob = await connect(issuer, second, bob)
    expect(ofBob.inviterSide).not.toBe(ofAlice.inviterSide)

    const third = await createInvitation(issuer, { recipientKey: didKey, autoAcceptConnection: true })
    const reused = await alice.call<Envelope<{ connectionRecord: Rec }>>('POST', '/oob/receive-invitation-url', {
      invitationUrl: third.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
      reuseConnection: true,
    })
    expect(reused.status).toBe(201)
    expect(reused.body.data.connectionRecord.id).toBe(ofAlice.receiverSide)

    // Every connection still works: the invitation key is in no connection's DID.
    await expectDelivery(issuer, ofAlice.inviterSide, alice, ofAlice.receiverSide)
    await expectDelivery(bob, ofBob.receiverSide, issuer, ofBob.inviterSide)
  })

  it('gives IsReuseConnection invitations one standing DID, so a receiver reuses its connection', async () => {
    const first = await createInvitation(issuer, { IsReuseConnection: true, autoAcceptConnection: true })
    const second = await createInvitation(issuer, { IsReuseConnection: true, autoAcceptConnection: true })
    expect(typeof first.invitation.services[0]).toBe('string')
    expect(second.invitation.services).toEqual(first.invitation.services)
    const plain = await createInvitation(issuer, {})
    expect(plain.invitation.services).toEqual([expect.objectContaining({ recipientKeys: expect.any(Array) })])

    const ofBob = await connect(issuer, first, bob)
    const reused = await bob.call<Envelope<{ connectionRecord: Rec }>>('POST', '/oob/receive-invitation-url', {
      invitationUrl: second.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
      reuseConnection: true,
    })
    expect(reused.body.data.connectionRecord.id).toBe(ofBob.receiverSide)
  })

  it('names the endpoints and routing keys of routing', async () => {
    const direct = await newDidKey(issuer)
    const created = await createInvitation(issuer, {
      routing: { endpoints: [issuer.endpoint], recipientKey: direct },
      autoAcceptConnection: true,
    })
    const ofAlice = await connect(issuer, created, alice)
    await expectDelivery(alice, ofAlice.receiverSide, issuer, ofAlice.inviterSide)

    const mediated = await newDidKey(issuer)
    const mediatorKey = await newDidKey(bob)
    const viaMediator = await createInvitation(issuer, {
      routing: {
        endpoints: ['https://mediator.example/didcomm'],
        recipientKey: mediated,
        routingKeys: [base58Of(mediatorKey)],
      },
    })
    const did = readPeerDid2(viaMediator.invitation.services[0] as string)
    expect(did.keys).toEqual([fingerprintOf(mediated)])
    expect(did.services).toEqual([
      expect.objectContaining({
        s: 'https://mediator.example/didcomm',
        r: [`${mediatorKey}#${fingerprintOf(mediatorKey)}`],
      }),
    ])

    // One key serves one DID: the same key on other endpoints would give a second DID for it.
    const clash = await issuer.call<ErrorBody>('POST', '/oob/create-invitation', {
      routing: { endpoints: ['https://elsewhere.example'], recipientKey: direct },
    })
    expect(clash.status).toBe(409)
    expect(clash.body).toMatchObject({ statusCode: 409, error: 'Conflict', message: expect.stringMatching(/one DID/) })
  })

  it("serves a tenant's invitation through the tenant's own key and standing DID", async () => {
    const tenant = await bob.call<Envelope<{ id: string }>>('POST', '/tenants', { label: 'Carol' })
    const carol = bob.asTenant(tenant.body.data.id)
    const ownKey = await newDidKey(carol)
    const byKey = await createInvitation(carol, { recipientKey: ownKey, autoAcceptConnection: true })
    const ofIssuer = await connect(carol, byKey, issuer)
    await expectDelivery(issuer, ofIssuer.receiverSide, carol, ofIssuer.inviterSide)

    const standing = await createInvitation(carol, { IsReuseConnection: true, autoAcceptConnection: true })
    await connect(carol, standing, alice)
    // The base wallet does not hold the tenant's key.
    expect((await bob.call('POST', '/oob/create-invitation', { recipientKey: ownKey })).status).toBe(404)
  })

  it('answers bad values with 400, unknown keys and DIDs with 404, and a key in use inline with 409', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'unknown message type',
        { messages: [{ ...aBasicMessage('x'), '@type': 'https://x.org/nope/1.0/m' }] },
        'messages[0].@type',
      ],
      ['invalid message', { messages: [{ ...aBasicMessage('x'), content: 7 }] }, 'messages[0].content'],
      ['message that is not an object', { messages: ['hello'] }, 'messages'],
      ['attachment without data', { appendedAttachments: [{ '@id': 'a' }] }, 'appendedAttachments[0].data'],
      [
        'attachment with bad base64',
        { appendedAttachments: [{ data: { base64: '%%%' } }] },
        'appendedAttachments[0].data.base64',
      ],
      ['malformed recipientKey', { recipientKey: 'not-a-key' }, 'recipientKey'],
      ['routing without endpoints', { routing: { endpoints: [], recipientKey: 'x' } }, 'routing.endpoints'],
      [
        'routing with an unknown field',
        { routing: { endpoints: ['http://a'], recipientKey: 'x', mediatorId: 'm' } },
        'routing.mediatorId',
      ],
      ['routing that is not an object', { routing: 'http://a' }, 'routing'],
      ['handshake false without messages', { handshake: false }, 'handshake'],
      [
        'messages on a multi-use invitation',
        { messages: [aBasicMessage('x')], multiUseInvitation: true },
        'multiUseInvitation',
      ],
    ]
    for (const [name, body, field] of cases) {
      const response = await issuer.call<ErrorBody>('POST', '/oob/create-invitation', body)
      expect({ name, status: response.status }).toEqual({ name, status: 400 })
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) })
      expect({ name, fields: response.body.errors?.map((error) => error.field) }).toEqual({
        name,
        fields: expect.arrayContaining([field]),
      })
    }

    const stranger = base58Of(await newDidKey(bob))
    const unknownKey = await issuer.call<ErrorBody>('POST', '/oob/create-invitation', { recipientKey: stranger })
    expect(unknownKey.status).toBe(404)
    expect(unknownKey.body).toMatchObject({ statusCode: 404, message: 'The recipient key is not a key of this wallet' })
    const unknownDid = await issuer.call<ErrorBody>('POST', '/oob/create-invitation', {
      invitationDid: await newDidKey(bob),
    })
    expect(unknownDid.status).toBe(404)

    // The key of a plain (inline) invitation cannot serve a DID as well.
    const plain = await createInvitation(issuer, {})
    const [inline] = plain.invitation.services as { recipientKeys: string[] }[]
    const inUse = await issuer.call<ErrorBody>('POST', '/oob/create-invitation', {
      recipientKey: inline.recipientKeys[0],
    })
    expect(inUse.status).toBe(409)
    expect(inUse.body.message).toMatch(/inline key/)
  })
})
