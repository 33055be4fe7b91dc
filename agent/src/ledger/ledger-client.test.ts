import { createServer } from 'node:net'

import { FakeLedger } from '../../../test/helpers/fake-ledger'
import {
  LEDGER_NOT_CONFIGURED,
  LedgerClient,
  LedgerHttpError,
  LedgerNotConfiguredError,
  LedgerUnavailableError,
} from './ledger-client'

const noPause = async () => undefined

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
    ledger.dropNext = 1
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
    const silent = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    const client = new LedgerClient({ baseUrl: `http://127.0.0.1:${port}`, attempts: 1, timeoutMs: 200 })
    try {
      await expect(client.getNamespace()).rejects.toThrow(/no answer within 200 ms/)
    } finally {
      silent.close()
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
    const write = client.writeTransaction({
      type: 'SCHEMA',
      authorDid: 'VGekVpqihCAwQWMtQ7gNTV',
      payload: {},
      signature: 'x',
    })
    // No NYM for the author: the fake refuses with 400 on both attempts, the first one unanswered.
    await expect(write).rejects.toMatchObject({ status: 400, afterUncertainAttempt: true })
    expect(ledger.requests).toHaveLength(2)
  })

  it('sends the agent token as Bearer to POST /nyms only', async () => {
    const client = new LedgerClient({ baseUrl: ledger.url, token: ledger.token, sleep: noPause })
    await expect(client.writeNym({ did: 'x', verkey: '1111', signature: 'y' })).rejects.toMatchObject({ status: 400 })
    await client.getNamespace()
    expect(ledger.requests.map((request) => [request.path, request.authorization])).toEqual([
      ['/v1/ledger/nyms', `Bearer ${ledger.token}`],
      ['/v1/ledger', undefined],
    ])
  })

  it('refuses clearly without a ledger URL, or without a token for NYMs', async () => {
    const none = new LedgerClient({ baseUrl: undefined })
    expect(none.isConfigured).toBe(false)
    await expect(none.getNamespace()).rejects.toBeInstanceOf(LedgerNotConfiguredError)
    await expect(none.getDid('did:sov:VGekVpqihCAwQWMtQ7gNTV')).rejects.toThrow(/AGENT_LEDGER_URL/)
    const tokenless = new LedgerClient({ baseUrl: ledger.url })
    await expect(tokenless.writeNym({ did: 'x', verkey: 'y', signature: 'z' })).rejects.toThrow(
      new RegExp(`${LEDGER_NOT_CONFIGURED}.*AGENT_EVENT_TOKEN`),
    )
    expect(ledger.requests).toHaveLength(0)
  })
})

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
