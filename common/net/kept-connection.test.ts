import http from 'node:http'
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net'

import { type KeptConnectionRequest, requestOverKeptConnection } from './kept-connection'

const OK = 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok'

/**
 * A raw TCP server that speaks just enough HTTP: `answer(connection, request)` says what to do with the request'th
 * request (1-based) of the connection'th connection (1-based).
 */
async function aServer(answer: (connection: number, request: number, socket: Socket) => void) {
  const sockets = new Set<Socket>()
  let connections = 0
  const server: Server = createServer((socket) => {
    const connection = ++connections
    sockets.add(socket)
    let requests = 0
    socket.on('data', () => answer(connection, ++requests, socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`)
  return {
    url,
    connections: () => connections,
    server,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

describe('requestOverKeptConnection', () => {
  const pools: http.Agent[] = []
  afterEach(() => pools.splice(0).forEach((pool) => pool.destroy()))

  function requestTo(url: URL, extra: Partial<KeptConnectionRequest> = {}): KeptConnectionRequest {
    const pool = new http.Agent({ keepAlive: true })
    pools.push(pool)
    return {
      url,
      method: 'POST',
      headers: { 'content-length': '2' },
      body: Buffer.from('{}'),
      pool,
      timeoutMs: 2_000,
      timeoutError: () => new Error('timed out'),
      ...extra,
    }
  }

  it('sends once more on a new connection when a kept one breaks before any answer', async () => {
    const target = await aServer((connection, request, socket) =>
      connection === 1 && request === 2 ? socket.resetAndDestroy() : socket.write(OK),
    )
    try {
      let repeats = 0
      const request = requestTo(target.url, { onRepeat: () => repeats++ })
      expect((await requestOverKeptConnection(request)).body.toString()).toBe('ok')
      expect((await requestOverKeptConnection(request)).body.toString()).toBe('ok')
      expect(target.connections()).toBe(2)
      expect(repeats).toBe(1)
    } finally {
      await target.close()
    }
  })

  it('never sends a request twice when the caller says it may not be repeated', async () => {
    // The server reads the second request, then breaks the kept connection without answering: it may have acted on it.
    let readByServer = 0
    const target = await aServer((connection, request, socket) => {
      readByServer++
      if (connection === 1 && request === 2) socket.resetAndDestroy()
      else socket.write(OK)
    })
    try {
      let repeats = 0
      const request = requestTo(target.url, { mayRepeat: false, onRepeat: () => repeats++ })
      await requestOverKeptConnection(request)
      await expect(requestOverKeptConnection(request)).rejects.toMatchObject({ code: 'ECONNRESET' })
      expect(readByServer).toBe(2)
      expect(target.connections()).toBe(1)
      expect(repeats).toBe(0)
    } finally {
      await target.close()
    }
  })

  it('does not send again when a new connection breaks', async () => {
    const target = await aServer((_connection, _request, socket) => socket.resetAndDestroy())
    try {
      let repeats = 0
      await expect(
        requestOverKeptConnection(requestTo(target.url, { onRepeat: () => repeats++ })),
      ).rejects.toMatchObject({ code: 'ECONNRESET' })
      expect(target.connections()).toBe(1)
      expect(repeats).toBe(0)
    } finally {
      await target.close()
    }
  })

  it('keeps the first error when the repeat finds nothing listening', async () => {
    const target = await aServer((_connection, request, socket) => {
      if (request === 1) return socket.write(OK)
      target.server.close()
      socket.resetAndDestroy()
    })
    try {
      const request = requestTo(target.url)
      await requestOverKeptConnection(request)
      await expect(requestOverKeptConnection(request)).rejects.toMatchObject({ code: 'ECONNRESET' })
    } finally {
      await target.close()
    }
  })

  it('fails with the timeout error, the repeat included in the time', async () => {
    // The repeat's connection is never answered.
    const target = await aServer((connection, request, socket) => {
      if (connection === 1 && request === 1) socket.write(OK)
      else if (connection === 1) socket.resetAndDestroy()
    })
    try {
      const request = requestTo(target.url, { timeoutMs: 300 })
      await requestOverKeptConnection(request)
      const startedAt = Date.now()
      await expect(requestOverKeptConnection(request)).rejects.toThrow('timed out')
      expect(Date.now() - startedAt).toBeLessThan(1_500)
      expect(target.connections()).toBe(2)
    } finally {
      await target.close()
    }
  })

  it('refuses a URL that is neither http nor https', async () => {
    await expect(requestOverKeptConnection(requestTo(new URL('ftp://127.0.0.1/x')))).rejects.toThrow(
      'Unsupported URL scheme: ftp:',
    )
  })
})
