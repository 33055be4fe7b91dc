import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import { spawnAgent, type SpawnedAgent, TEST_API_KEY, waitUntil } from '../helpers/agent-process'
import { aDegreeCredential, aDegreePresentationDefinition, signingOptions } from '../fixtures/degree-credential'
import { buildPrograms } from '../helpers/build-programs'

interface Envelope<T> {
  data: T
}
type Rec = Record<string, unknown> & { id: string; state: string }

jest.setTimeout(180000)

describe('agent processes over DIDComm HTTP', () => {
  let issuer: SpawnedAgent
  let holder: SpawnedAgent
  let sink: Server
  const received: { id: string; kind: string }[] = []
  let failNext = 0

  beforeAll(async () => {
    buildPrograms()
    sink = createServer((req, res) => {
      let raw = ''
      req.on('data', (chunk) => (raw += chunk))
      req.on('end', () => {
        if (req.headers.authorization !== 'Bearer sink-token' || failNext-- > 0) {
          res.statusCode = 503
          res.end()
          return
        }
        const body = JSON.parse(raw) as { id: string; kind: string } | { events: { id: string; kind: string }[] }
        received.push(...('events' in body ? body.events : [body]))
        res.statusCode = 204
        res.end()
      })
    })
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve))
    const eventUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/events`
    const env = { AGENT_EVENT_URL: eventUrl, AGENT_EVENT_TOKEN: 'sink-token' }
    ;[issuer, holder] = await Promise.all([spawnAgent({ label: 'issuer', env }), spawnAgent({ label: 'holder', env })])
  })

  afterAll(async () => {
    await Promise.all([issuer?.stop(), holder?.stop()])
    await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()))
  })

  let issuerConnectionId: string
  let holderConnectionId: string

  it('answers GET /agent without a credential and refuses other routes without the key', async () => {
    const status = await fetch(`${issuer.adminUrl}/agent`)
    expect(status.status).toBe(200)
    expect(await status.json()).toMatchObject({ data: { label: 'issuer', isInitialized: true } })
    expect((await fetch(`${issuer.adminUrl}/connections`)).status).toBe(401)
  })

  it('answers requests on the DIDComm inbound port that are not DIDComm messages with clear statuses', async () => {
    const post = (body: string | Buffer, contentType: string, route = '/') =>
      fetch(`${issuer.endpoint}${route}`, { method: 'POST', headers: { 'content-type': contentType }, body })
    const envelopeType = 'application/didcomm-envelope-enc'
    expect((await fetch(`${issuer.endpoint}/`)).status).toBe(405)
    expect((await post('{}', envelopeType, '/elsewhere')).status).toBe(404)
    expect((await post('{}', 'application/json')).status).toBe(415)
    expect((await post('not json', envelopeType)).status).toBe(400)
    expect((await post(Buffer.alloc(5 * 1024 * 1024 + 1, 0x20), envelopeType)).status).toBe(413)
    // A JSON body that is no envelope reaches Credo, which cannot unpack it: answered 500 at once (not after a wait),
    // and the process lives on.
    const started = Date.now()
    expect((await post('{"protected":"x"}', envelopeType)).status).toBe(500)
    expect(Date.now() - started).toBeLessThan(2000)
    expect((await fetch(`${issuer.adminUrl}/agent`)).status).toBe(200)
  })

  it('connects with an out-of-band invitation and DID Exchange', async () => {
    const invitation = await issuer.call<Envelope<{ invitationUrl: string; outOfBandRecord: { id: string } }>>(
      'POST',
      '/oob/create-invitation',
      { autoAcceptConnection: true },
    )
    expect(invitation.status).toBe(201)
    const received = await holder.call<Envelope<{ connectionRecord: Rec }>>('POST', '/oob/receive-invitation-url', {
      invitationUrl: invitation.body.data.invitationUrl,
      autoAcceptConnection: true,
      autoAcceptInvitation: true,
    })
    holderConnectionId = received.body.data.connectionRecord.id
    const outOfBandId = invitation.body.data.outOfBandRecord.id
    const issuerSide = await waitUntil(async () => {
      const list = await issuer.call<Envelope<Rec[]>>('GET', `/connections?outOfBandId=${outOfBandId}`)
      return list.body.data.find((record) => record.state === 'completed')
    })
    issuerConnectionId = issuerSide.id
    await waitUntil(async () => {
      const record = await holder.call<Envelope<Rec>>('GET', `/connections/${holderConnectionId}`)
      return record.body.data.state === 'completed' ? true : undefined
    })
  })

  it('counts DIDComm messages in and out', async () => {
    const metrics = await fetch(`${issuer.adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })
    const text = await metrics.text()
    const count = (direction: string) =>
      Number(
        new RegExp(`idplane_agent_didcomm_messages_total\\{direction="${direction}"\\} (\\d+)`).exec(text)?.[1] ?? 0,
      )
    // The DID Exchange: the issuer took the request and the complete, and sent the response.
    expect(count('in')).toBeGreaterThanOrEqual(2)
    expect(count('out')).toBeGreaterThanOrEqual(1)
  })

  it('issues a JSON-LD credential, then verifies a presentation; a tampered credential fails', async () => {
    const issuerDid = (await issuer.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did
    const holderDid = (await holder.call<Envelope<{ did: string }>>('POST', '/dids', { method: 'key' })).body.data.did
    const offer = await issuer.call<Envelope<Rec & { threadId: string }>>('POST', '/credentials/offer', {
      connectionId: issuerConnectionId,
      credential: aDegreeCredential(issuerDid, holderDid),
      options: signingOptions(),
    })
    expect(offer.status).toBe(201)
    const holderOffer = await waitUntil(async () => {
      const list = await holder.call<Envelope<Rec[]>>('GET', `/credentials?threadId=${offer.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'offer-received')
    })
    expect(
      (await holder.call('POST', '/credentials/accept-offer', { credentialRecordId: holderOffer.id })).status,
    ).toBe(201)
    await waitUntil(async () => {
      const record = await holder.call<Envelope<Rec>>('GET', `/credentials/${holderOffer.id}`)
      return record.body.data.state === 'done' ? true : undefined
    })
    const formData = await holder.call<Envelope<{ credential?: { jsonld?: Record<string, unknown> } }>>(
      'GET',
      `/credentials/${holderOffer.id}/form-data`,
    )
    const issued = formData.body.data.credential?.jsonld
    expect(issued).toBeDefined()
    expect(
      (await holder.call<Envelope<{ isValid: boolean }>>('POST', '/w3c/verify', { credential: issued })).body.data
        .isValid,
    ).toBe(true)
    const tampered = JSON.parse(JSON.stringify(issued)) as { credentialSubject: { degree: { name: string } } }
    tampered.credentialSubject.degree.name = 'Doctor of Everything'
    expect(
      (await holder.call<Envelope<{ isValid: boolean }>>('POST', '/w3c/verify', { credential: tampered })).body.data
        .isValid,
    ).toBe(false)

    const request = await issuer.call<Envelope<Rec & { threadId: string }>>('POST', '/proofs/request', {
      connectionId: issuerConnectionId,
      presentationDefinition: aDegreePresentationDefinition(),
    })
    expect(request.status).toBe(201)
    const holderRequest = await waitUntil(async () => {
      const list = await holder.call<Envelope<Rec[]>>('GET', `/proofs?threadId=${request.body.data.threadId}`)
      return list.body.data.find((record) => record.state === 'request-received')
    })
    expect((await holder.call('POST', '/proofs/accept-request', { proofRecordId: holderRequest.id })).status).toBe(201)
    await waitUntil(async () => {
      const record = await issuer.call<Envelope<Rec>>('GET', `/proofs/${request.body.data.id}`)
      return ['presentation-received', 'done'].includes(record.body.data.state) ? true : undefined
    })
    const verified = await issuer.call<Envelope<{ isVerified: boolean }>>(
      'POST',
      `/proofs/${request.body.data.id}/verify`,
    )
    expect(verified.body.data.isVerified).toBe(true)
    const revealed = await issuer.call<Envelope<{ revealed: unknown[] }>>(
      'GET',
      `/proofs/${request.body.data.id}/form-data`,
    )
    expect(revealed.body.data.revealed).toEqual([
      expect.objectContaining({ degree: expect.objectContaining({ type: 'BachelorDegree' }) }),
    ])
  })

  it('round-trips a basic message and a question with an answer', async () => {
    expect(
      (await issuer.call('POST', `/basic-messages/${issuerConnectionId}`, { content: 'hello holder' })).status,
    ).toBe(201)
    await waitUntil(async () => {
      const list = await holder.call<Envelope<{ content: string }[]>>('GET', `/basic-messages/${holderConnectionId}`)
      return list.body.data.some((message) => message.content === 'hello holder') ? true : undefined
    })
    const question = await issuer.call<Envelope<Rec & { threadId: string }>>(
      'POST',
      `/question-answer/question/${issuerConnectionId}`,
      {
        question: 'Coffee?',
        validResponses: [{ text: 'yes' }, { text: 'no' }],
      },
    )
    expect(question.status).toBe(201)
    const holderQuestion = await waitUntil(async () => {
      const list = await holder.call<Envelope<(Rec & { threadId: string })[]>>('GET', '/question-answer')
      return list.body.data.find((record) => record.threadId === question.body.data.threadId)
    })
    expect(
      (await holder.call('POST', `/question-answer/answer/${holderQuestion.id}`, { response: 'yes' })).status,
    ).toBe(201)
    await waitUntil(async () => {
      const list = await issuer.call<Envelope<(Rec & { response?: string })[]>>('GET', '/question-answer')
      return list.body.data.some((record) => record.response === 'yes') ? true : undefined
    })
  })

  it('delivers every event after SIGKILL and restart; duplicates share ids', async () => {
    failNext = 1000
    const before = received.length
    await issuer.call('POST', `/basic-messages/${issuerConnectionId}`, { content: 'while the sink is down' })
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(received.length).toBe(before)
    await issuer.stop('SIGKILL')
    failNext = 0
    issuer = await spawnAgent({
      label: 'issuer',
      dataDir: issuer.dataDir,
      env: {
        AGENT_EVENT_URL: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/events`,
        AGENT_EVENT_TOKEN: 'sink-token',
      },
    })
    await waitUntil(async () =>
      received.some((event) => event.kind === 'basic-message' && received.indexOf(event) >= before) ? true : undefined,
    )
    const kinds = new Set(received.map((event) => event.kind))
    for (const kind of ['connection', 'credential', 'proof', 'basic-message', 'question-answer'])
      expect(kinds).toContain(kind)
    const byId = new Map<string, string>()
    for (const event of received) {
      const seen = byId.get(event.id)
      if (seen) expect(JSON.stringify(event)).toBe(seen)
      byId.set(event.id, JSON.stringify(event))
    }
  })
})
