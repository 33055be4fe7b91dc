import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { closeServer } from './close-server'

describe('closeServer', () => {
  it('waits for a request being answered, then closes its keep-alive connection rather than waiting for it', async () => {
    let arrived: (res: ServerResponse) => void = () => undefined
    const request = new Promise<ServerResponse>((resolve) => (arrived = resolve))
    const server = createServer((_req, res) => arrived(res))
    // Longer than the test may take: a connection left open would hold the close past it.
    server.keepAliveTimeout = 60_000
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const response = fetch(`http://127.0.0.1:${port}/`).then((res) => res.text())
    const res = await request

    let closed = false
    const closing = closeServer(server).then(() => (closed = true))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(closed).toBe(false)
    res.end('done')
    expect(await response).toBe('done')
    const started = Date.now()
    await closing
    expect(Date.now() - started).toBeLessThan(5000)
  })
})
