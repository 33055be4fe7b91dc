import { generateKeyPairSync, sign } from 'node:crypto'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type Socket } from 'node:net'

import { TypedArrayEncoder } from '@credo-ts/core'
import { LEDGER_STALE_REQUEST } from '@idplane/common/agent-contract/ledger'

import { FakeLedger } from '../../../test/helpers/fake-ledger'
import {
  LEDGER_NOT_CONFIGURED,
  LedgerClient,
  LedgerHttpError,
  LedgerNotConfiguredError,
  LedgerUnavailableError,
  type LedgerRequestSigner,
} from './ledger-client'

const noPause = async () => undefined

/** A DID whose Ed25519 key lives in the test. */
function aDid(): { did: string; verkey: string; sign: LedgerRequestSigner } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url')
  return {
    did: TypedArrayEncoder.toBase58(raw.subarray(0, 16)),
    verkey: TypedArrayEncoder.toBase58(raw),
    sign: async (data) => TypedArrayEncoder.toBase58(sign(null, data, privateKey)),
  }
}

const endpointAttrib = (did: string, endpoint: string) => ({
  type: 'ATTRIB' as const,
  authorDid: did,
  payload: { dest: did, raw: { endpoint: { endpoint, routingKeys: [] } } },
})

describe('LedgerClient', () => {
  let ledger: FakeLedger

  beforeEach(async () => {
    ledger = await new FakeLedger('testnet').start()
  })
  afterEach(() => ledger.stop())

  it('reads the namespace once from GET /v1/ledger, unwrapping the platform envelope', async () => {
    const client = new LedgerClient({ baseUrl: ledger.url, sleep: noPause })
    expect(await client.getNamespace()).toBe('testnet')
    expect(await client.getNamespace()).toBe('testnet')
    expect(ledger.requests.filter((request) => request.path === '/v1/ledger')).toHaveLength(1)
  })

  it('retries 5xx answers and network errors with backoff, then answers', async () => {
    const pauses: number[] = []
    const outcomes: string[] = []
    const client = new LedgerClient({
      baseUrl: ledger.url,
      attempts: 4,
      retryBaseMs: 100,
      sleep: async (ms) => {
        pauses.push(ms)
      },
      onRequest: ({ outcome }) => outcomes.push(outcome),
    })
    ledger.failNext = 2
    // A read cut off on its kept connection is sent once more at once on a new one (requestOverKeptConnection); the
    // second cut, on that new connection, is the network error this loop retries.
    ledger.dropNext = 2
    expect(await client.getNamespace()).toBe('testnet')
    expect(outcomes).toEqual(['server-error', 'server-error', 'network-error', 'ok'])
    expect(pauses).toHaveLength(3)
    // Full jitter under a doubling cap, never under half the base.
    pauses.forEach((ms, retry) => {
      expect(ms).toBeGreaterThanOrEqual(50)
      expect(ms).toBeLessThanOrEqual(100 * 2 ** retry)
    })
  })

  it('gives up after the last attempt with the reason, and reads the namespace again next time', async () => {
    const client = new LedgerClient({ baseUrl: ledger.url, attempts: 2, sleep: noPause })
    ledger.failNext = 2
    const failure = client.getNamespace()
    await expect(failure).rejects.toThrow(LedgerUnavailableError)
    await expect(failure).rejects.toThrow(/after 2 attempts: HTTP 503: ledger busy/)
    expect(await client.getNamespace()).toBe('testnet')
  })

  it('says so when nothing listens at the ledger URL', async () => {
    const port = await closedPort()
    const client = new LedgerClient({ baseUrl: `http://127.0.0.1:${port}`, attempts: 2, sleep: noPause })
    await expect(client.getSchema('VGekVpqihCAwQWMtQ7gNTV:2:a:1.0')).rejects.toThrow(
      /The ledger did not answer GET \/v1\/ledger\/schemas\/.* after 2 attempts: ECONNREFUSED/,
    )
  })

  it('times out a request that gets no answer', async () => {
    // Its connections are closed with it: a client that left the socket of an aborted request open (fetch does) would
    // leave the server's end of it holding the test worker until jest killed it.
    const accepted: Socket[] = []
    const silent = createServer((socket) => void accepted.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    const client = new LedgerClient({ baseUrl: `http://127.0.0.1:${port}`, attempts: 1, timeoutMs: 200 })
    try {
      await expect(client.getNamespace()).rejects.toThrow(/no answer within 200 ms/)
    } finally {
      silent.close()
      for (const socket of accepted) socket.destroy()
    }
  })

  it('refuses a redirect with a clear message, once', async () => {
    let requests = 0
    const redirecting = createHttpServer((_request, response) => {
      requests++
      response.writeHead(301, { location: 'https://elsewhere.example/v1/ledger' }).end()
    })
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve))
    const { port } = redirecting.address() as { port: number }
    const client = new LedgerClient({ baseUrl: `http://127.0.0.1:${port}`, sleep: noPause })
    try {
      await expect(client.getNamespace()).rejects.toThrow(
        /did not answer GET \/v1\/ledger at .* itself: it redirected \(HTTP 301\), which the agent does not follow/,
      )
      expect(requests).toBe(1)
    } finally {
      redirecting.closeAllConnections()
      await new Promise((resolve) => redirecting.close(resolve))
    }
  })

  it('does not retry a 4xx and carries the platform message and status', async () => {
    const client = new LedgerClient({ baseUrl: ledger.url, sleep: noPause })
    const failure = client.getSchema('VGekVpqihCAwQWMtQ7gNTV:2:absent:1.0')
    await expect(failure).rejects.toBeInstanceOf(LedgerHttpError)
    await expect(failure).rejects.toMatchObject({ status: 404, afterUncertainAttempt: false })
    await expect(failure).rejects.toThrow(/\(HTTP 404\): Schema .* not found/)
    expect(ledger.requests).toHaveLength(1)
  })

  it('marks a refusal that follows a write attempt with no answer (the first may have been appended)', async () => {
    const client = new LedgerClient({ baseUrl: ledger.url, token: ledger.token, sleep: noPause })
    ledger.dropNext = 1
    ledger.dropAfterWrite = true
    ledger.dropOnlyWrites = true
    const write = client.writeTransaction(
      { type: 'SCHEMA', authorDid: 'VGekVpqihCAwQWMtQ7gNTV', payload: {} },
      async () => 'x',
    )
    // No NYM for the author: the fake refuses with 400 on both attempts, the first one unanswered.
    await expect(write).rejects.toMatchObject({ status: 400, afterUncertainAttempt: true })
    expect(ledger.requests.filter((request) => request.method === 'POST')).toHaveLength(2)
  })

  it('sends the agent token as Bearer to POST /nyms only', async () => {
    const client = new LedgerClient({ baseUrl: ledger.url, token: ledger.token, sleep: noPause })
    const did = 'VGekVpqihCAwQWMtQ7gNTV'
    await expect(client.writeNym({ did, verkey: '1111' }, async () => 'y')).rejects.toMatchObject({ status: 400 })
    await client.getNamespace()
    expect(ledger.requests.map((request) => [request.path, request.authorization])).toEqual([
      ['/v1/ledger', undefined],
      [`/v1/ledger/dids/${did}/state`, undefined],
      ['/v1/ledger/nyms', `Bearer ${ledger.token}`],
    ])
  })

  it('refuses clearly without a ledger URL, or without a token for NYMs', async () => {
    const none = new LedgerClient({ baseUrl: undefined })
    expect(none.isConfigured).toBe(false)
    await expect(none.getNamespace()).rejects.toBeInstanceOf(LedgerNotConfiguredError)
    await expect(none.getDid('did:sov:VGekVpqihCAwQWMtQ7gNTV')).rejects.toThrow(/AGENT_LEDGER_URL/)
    const tokenless = new LedgerClient({ baseUrl: ledger.url })
    await expect(tokenless.writeNym({ did: 'x', verkey: 'y' }, async () => 'z')).rejects.toThrow(
      new RegExp(`${LEDGER_NOT_CONFIGURED}.*AGENT_EVENT_TOKEN`),
    )
    expect(ledger.requests).toHaveLength(0)
  })
})

describe('LedgerClient: writes bound to the DID state', () => {
  let ledger: FakeLedger
  let client: LedgerClient
  let author: ReturnType<typeof aDid>

  beforeEach(async () => {
    ledger = await new FakeLedger('testnet').start()
    client = new LedgerClient({ baseUrl: ledger.url, token: ledger.token, sleep: noPause })
    author = aDid()
    await client.writeNym({ did: author.did, verkey: author.verkey }, author.sign)
  })
  afterEach(() => ledger.stop())

  it('reads the DID state before signing and sends it as lastSeqNo; the same body again is refused', async () => {
    const nymSeqNo = ledger.lastSeqNoOf(author.did)
    const written = await client.writeTransaction(endpointAttrib(author.did, 'https://a.example'), author.sign)
    const post = ledger.requests.filter((request) => request.method === 'POST').at(-1)
    expect(post?.body).toMatchObject({ lastSeqNo: nymSeqNo, signature: written.signature })
    const replay = await fetch(`${ledger.url}/v1/ledger/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(post?.body),
    })
    expect(replay.status).toBe(409)
    expect(ledger.transactions).toHaveLength(2)
  })

  it('writes concurrent requests of one DID one after another: all of them succeed', async () => {
    const writes = Array.from({ length: 10 }, (_, index) =>
      client.writeTransaction(endpointAttrib(author.did, `https://a.example/${index}`), author.sign),
    )
    const written = await Promise.all(writes)
    expect(new Set(written.map((transaction) => transaction.seqNo)).size).toBe(10)
    expect(ledger.transactions.filter((transaction) => transaction.type === 'ATTRIB')).toHaveLength(10)
    // Each was bound to the one before it: no stale answer on the way.
    expect(ledger.requests.filter((request) => request.method === 'POST')).toHaveLength(11)
  })

  it('signs again once when another writer of the DID got there first', async () => {
    const other = new LedgerClient({ baseUrl: ledger.url, token: ledger.token, sleep: noPause })
    let raced = false
    const racing: LedgerRequestSigner = async (data) => {
      // Between this client's state read and its post, another process writes for the same DID.
      if (!raced) {
        raced = true
        await other.writeTransaction(endpointAttrib(author.did, 'https://other.example'), author.sign)
      }
      return author.sign(data)
    }
    const written = await client.writeTransaction(endpointAttrib(author.did, 'https://mine.example'), racing)
    expect(written.seqNo).toBe(ledger.lastSeqNoOf(author.did))
    expect(ledger.transactions.filter((transaction) => transaction.type === 'ATTRIB')).toHaveLength(2)
  })

  it('gives up with the ledger refusal when the state moved again after the retry', async () => {
    const other = new LedgerClient({ baseUrl: ledger.url, token: ledger.token, sleep: noPause })
    const alwaysRacing: LedgerRequestSigner = async (data) => {
      await other.writeTransaction(endpointAttrib(author.did, 'https://other.example'), author.sign)
      return author.sign(data)
    }
    const write = client.writeTransaction(endpointAttrib(author.did, 'https://mine.example'), alwaysRacing)
    await expect(write).rejects.toMatchObject({ status: 409, message: expect.stringContaining(LEDGER_STALE_REQUEST) })
    expect(ledger.transactions.filter((transaction) => transaction.authorDid === author.did)).toHaveLength(2)
  })

  it('recognizes its own write appended by an attempt that got no answer, and does not append it twice', async () => {
    ledger.dropNext = 1
    ledger.dropAfterWrite = true
    ledger.dropOnlyWrites = true
    const written = await client.writeTransaction(endpointAttrib(author.did, 'https://a.example'), author.sign)
    const attribs = ledger.transactions.filter((transaction) => transaction.type === 'ATTRIB')
    expect(attribs).toHaveLength(1)
    expect(written).toMatchObject({ seqNo: attribs[0]?.seqNo, signature: attribs[0]?.signature })
  })

  it('binds the NYM proof to the DID state: the same NYM again is answered with the one written', async () => {
    const before = ledger.transactions.length
    const again = await client.writeNym({ did: author.did, verkey: author.verkey }, author.sign)
    expect(again.objectId).toBe(author.did)
    expect(ledger.transactions).toHaveLength(before)
    const firstNymRequest = ledger.requests.find((request) => request.path === '/v1/ledger/nyms')
    expect(firstNymRequest?.body).toMatchObject({ lastSeqNo: 0 })
  })
})

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
