import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { probeAgent } from './probe'

/** A real HTTP server standing in for an agent: `/agent` answers `status` after `delayMs`. */
async function anAgentServer(status: number, delayMs = 0): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = []
  const server = createServer((req, res) => {
    paths.push(req.url ?? '')
    setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end('{"statusCode":200}'), delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server }
}

describe('probeAgent', () => {
  const servers: Server[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('is ok for 200 on GET /agent of the admin URL, with or without a trailing slash', async () => {
    const agent = await anAgentServer(200)
    servers.push(agent.server)
    expect(await probeAgent(agent.url, 2000)).toEqual({ ok: true, detail: 'HTTP 200' })
    expect(await probeAgent(`${agent.url}/`, 2000)).toEqual({ ok: true, detail: 'HTTP 200' })
    expect(agent.paths).toEqual(['/agent', '/agent'])
  })

  it('is not ok for 503, with the status as the detail', async () => {
    const agent = await anAgentServer(503)
    servers.push(agent.server)
    expect(await probeAgent(agent.url, 2000)).toEqual({ ok: false, detail: 'HTTP 503' })
  })

  it('is not ok when nothing listens, with the network code', async () => {
    const agent = await anAgentServer(200)
    await new Promise((resolve) => agent.server.close(resolve))
    expect(await probeAgent(agent.url, 2000)).toEqual({ ok: false, detail: 'ECONNREFUSED' })
  })

  it('gives up after the timeout', async () => {
    const agent = await anAgentServer(200, 1000)
    servers.push(agent.server)
    const startedAt = Date.now()
    expect(await probeAgent(agent.url, 100)).toEqual({ ok: false, detail: 'TimeoutError' })
    expect(Date.now() - startedAt).toBeLessThan(900)
  })
})
