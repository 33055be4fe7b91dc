import { createServer, type IncomingMessage, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { postWebhook } from './webhook-sender'

describe('postWebhook', () => {
  let server: Server
  let port: number
  let answer: (req: IncomingMessage) => number | undefined
  const seen: { host?: string; body: string; headers: IncomingMessage['headers'] }[] = []

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        seen.push({ host: req.headers.host, body, headers: req.headers })
        const status = answer(req)
        if (status !== undefined) res.writeHead(status).end('answer')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })

  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  beforeEach(() => {
    seen.length = 0
    answer = () => 204
  })

  const allowed = { timeoutMs: 1_000, allowPrivateTargets: true }

  it('succeeds on 2xx, sending the body and headers as given', async () => {
    const result = await postWebhook(`http://127.0.0.1:${port}/hook`, '{"a":1}', { 'X-Timestamp': '1' }, allowed)
    expect(result).toEqual({ isSuccess: true, status: 204 })
    expect(seen).toEqual([expect.objectContaining({ body: '{"a":1}' })])
    expect(seen[0]?.headers['x-timestamp']).toBe('1')
  })

  it('fails on a non-2xx answer with its status, redirects included', async () => {
    answer = () => 500
    expect(await postWebhook(`http://127.0.0.1:${port}/hook`, '{}', {}, allowed)).toEqual({
      isSuccess: false,
      status: 500,
      error: 'HTTP 500',
    })
    answer = () => 302
    expect(await postWebhook(`http://127.0.0.1:${port}/hook`, '{}', {}, allowed)).toEqual(
      expect.objectContaining({ isSuccess: false, status: 302 }),
    )
  })

  it('gives up after the timeout when the receiver does not answer', async () => {
    answer = () => undefined
    const started = Date.now()
    const result = await postWebhook(`http://127.0.0.1:${port}/hook`, '{}', {}, { ...allowed, timeoutMs: 300 })
    expect(result).toEqual({ isSuccess: false, error: expect.stringContaining('Timeout') })
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('refuses a loopback target unless allowed, without connecting', async () => {
    const result = await postWebhook(
      `http://127.0.0.1:${port}/hook`,
      '{}',
      {},
      { timeoutMs: 1_000, allowPrivateTargets: false },
    )
    expect(result).toEqual({ isSuccess: false, error: expect.stringContaining('private') })
    expect(seen).toEqual([])
  })

  it('refuses a name that resolves to a private address, and connects to the checked address otherwise', async () => {
    const resolve = async () => ['127.0.0.1']
    const refused = await postWebhook(
      `http://hooks.example.com:${port}/hook`,
      '{}',
      {},
      {
        timeoutMs: 1_000,
        allowPrivateTargets: false,
        resolve,
      },
    )
    expect(refused.isSuccess).toBe(false)
    expect(seen).toEqual([])
    const sent = await postWebhook(`http://hooks.example.com:${port}/hook`, '{}', {}, { ...allowed, resolve })
    expect(sent).toEqual({ isSuccess: true, status: 204 })
    expect(seen[0]?.host).toBe(`hooks.example.com:${port}`)
  })

  it('reports a refused connection as a failure without a status', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const closedPort = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const result = await postWebhook(`http://127.0.0.1:${closedPort}/hook`, '{}', {}, allowed)
    expect(result).toEqual({ isSuccess: false, error: expect.stringContaining('ECONNREFUSED') })
  })

  it('keeps the connection to a receiver open between deliveries', async () => {
    const sockets = new Set<unknown>()
    answer = (req) => {
      sockets.add(req.socket)
      return 204
    }
    for (let index = 0; index < 3; index++) {
      expect(await postWebhook(`http://127.0.0.1:${port}/hook`, `{"n":${index}}`, {}, allowed)).toEqual({
        isSuccess: true,
        status: 204,
      })
    }
    expect(seen).toHaveLength(3)
    expect(sockets.size).toBe(1)
  })

  it('sends again on a new connection when the receiver closed the kept-alive one as it was reused', async () => {
    // Answers the first request of each connection and drops the connection at the second (an idle timeout race).
    const requests: string[] = []
    const connections: Socket[] = []
    const raw = createTcpServer((socket) => {
      connections.push(socket)
      let served = 0
      let buffered = ''
      socket.on('data', (chunk: Buffer) => {
        buffered += chunk.toString()
        const end = buffered.indexOf('\r\n\r\n')
        if (end < 0) return
        const length = Number(/content-length: (\d+)/i.exec(buffered)?.[1] ?? 0)
        if (buffered.length < end + 4 + length) return
        requests.push(buffered.slice(end + 4, end + 4 + length))
        buffered = ''
        if (++served > 1) {
          socket.destroy()
          return
        }
        socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\nKeep-Alive: timeout=60\r\n\r\n')
      })
    })
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
    const rawPort = (raw.address() as AddressInfo).port
    try {
      expect(await postWebhook(`http://127.0.0.1:${rawPort}/hook`, '{"n":1}', {}, allowed)).toEqual({
        isSuccess: true,
        status: 204,
      })
      expect(await postWebhook(`http://127.0.0.1:${rawPort}/hook`, '{"n":2}', {}, allowed)).toEqual({
        isSuccess: true,
        status: 204,
      })
      // The second body reached the receiver twice: on the dropped connection, then on a new one that answered.
      expect(requests).toEqual(['{"n":1}', '{"n":2}', '{"n":2}'])
      expect(connections).toHaveLength(2)
    } finally {
      for (const socket of connections) socket.destroy()
      await new Promise((resolve) => raw.close(resolve))
    }
  })
})
