import { createServer as createHttpServer, type Server } from 'node:http'
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'

import { httpPost, HttpTimeoutError } from './http-request'

function listen(server: Server | NetServer): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/in`)),
  )
}

function close(server: Server | NetServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

describe('httpPost', () => {
  it('posts the body with its headers and returns status and answer', async () => {
    const server = createHttpServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      req.on('end', () => {
        res.statusCode = 201
        res.end(`${req.method} ${req.headers['content-type']} ${req.headers['content-length']} ${body}`)
      })
    })
    const url = await listen(server)
    try {
      expect(await httpPost(url, 'héllo', { 'content-type': 'text/plain' }, 5000)).toEqual({
        status: 201,
        body: 'POST text/plain 6 héllo',
      })
    } finally {
      await close(server)
    }
  })

  it('gives up after the timeout', async () => {
    const server = createHttpServer(() => undefined) // never answers
    const url = await listen(server)
    try {
      await expect(httpPost(url, '{}', {}, 100)).rejects.toBeInstanceOf(HttpTimeoutError)
    } finally {
      await close(server)
    }
  })

  it('sends again on a fresh connection when a pooled one was closed by the server', async () => {
    // Answers the first request of each connection with keep-alive, then resets the connection on the next one:
    // what a client sees when the server dropped an idle pooled connection just as it was reused.
    const sockets = new Set<Socket>()
    let connections = 0
    const server = createNetServer((socket) => {
      connections++
      sockets.add(socket)
      let requests = 0
      socket.on('data', () => {
        requests++
        if (requests === 1) {
          socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok')
        } else {
          socket.resetAndDestroy()
        }
      })
    })
    const url = await listen(server)
    try {
      expect((await httpPost(url, '{}', {}, 5000)).body).toBe('ok')
      expect((await httpPost(url, '{}', {}, 5000)).body).toBe('ok')
      expect(connections).toBe(2)
    } finally {
      for (const socket of sockets) socket.destroy()
      await close(server)
    }
  })

  it('refuses URLs that are not http or https', async () => {
    await expect(httpPost('ftp://127.0.0.1/x', '{}', {}, 100)).rejects.toThrow('Unsupported URL scheme')
  })
})
