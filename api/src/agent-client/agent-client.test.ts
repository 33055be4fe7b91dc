import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Registry } from 'prom-client'
import {
  ConflictError,
  Logger,
  InvalidInputError,
  NotFoundError,
  NotImplementedError,
  silentLogger,
  UpstreamError,
  UpstreamUnavailableError,
  type IdplaneError,
} from '@idplane/common'
import { toKnownErrorResponse } from '@idplane/common/http-errors'
import { histogramLabelSets } from '../../../test/helpers/metrics'
import { AgentClient } from './agent-client'
import { AgentClientMetrics } from './agent-client-metrics'

const API_KEY = 'agent-api-key-0123456789'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void

/** A real HTTP server standing in for an agent's admin API; `handler` answers, every request is recorded. */
async function aStandInAgent(handler: Handler): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      handler(req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server }
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))

describe('AgentClient against a stand-in agent', () => {
  const servers: Server[] = []
  let registry: Registry
  let metrics: AgentClientMetrics

  beforeEach(() => {
    registry = new Registry()
    metrics = new AgentClientMetrics(registry)
  })
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  async function clientFor(handler: Handler, timeoutMs = 2000) {
    const agent = await aStandInAgent(handler)
    servers.push(agent.server)
    const client = new AgentClient(
      { orgId: 'org-1', endpoint: `${agent.url}/`, apiKey: API_KEY },
      { timeoutMs, metrics, logger: silentLogger },
    )
    return { client, seen: agent.seen, url: agent.url }
  }

  async function failureOf(work: Promise<unknown>): Promise<IdplaneError> {
    try {
      await work
    } catch (error) {
      return error as IdplaneError
    }
    throw new Error('expected the call to fail')
  }

  it('sends the API key, the JSON body and the route, and answers the envelope data', async () => {
    const { client, seen } = await clientFor((_req, res) =>
      json(res, 201, { statusCode: 201, message: 'DID created', data: { did: 'did:key:z6Mk1' } }),
    )
    expect(await client.createDid({ method: 'key', seed: 'a'.repeat(32) })).toEqual({ did: 'did:key:z6Mk1' })
    expect(seen).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/dids',
        body: JSON.stringify({ method: 'key', seed: 'a'.repeat(32) }),
        headers: expect.objectContaining({
          authorization: `Bearer ${API_KEY}`,
          'content-type': 'application/json',
        }) as unknown,
      }),
    ])
  })

  it('puts query filters in the query string, ids in one path segment and tenants in X-Tenant-Id', async () => {
    const { client, seen } = await clientFor((_req, res) =>
      json(res, 200, { statusCode: 200, message: 'OK', data: [] }),
    )
    await client.listConnections({ theirLabel: 'Bob & Co', alias: undefined })
    await client.forTenant('tenant-1').getConnection('a/../b')
    expect(seen.map((request) => request.url)).toEqual([
      '/connections?theirLabel=Bob+%26+Co',
      '/connections/a%2F..%2Fb',
    ])
    expect(seen[0]?.headers['x-tenant-id']).toBeUndefined()
    expect(seen[1]?.headers['x-tenant-id']).toBe('tenant-1')
  })

  it.each([
    [400, InvalidInputError, 400],
    [404, NotFoundError, 404],
    [409, ConflictError, 409],
  ])("maps the agent's %i to %p with the agent's message (HTTP %i for our caller)", async (status, type, ours) => {
    const { client } = await clientFor((_req, res) =>
      json(res, status, {
        statusCode: status,
        message: 'Connection not found',
        error: 'x',
        errors: [{ field: 'connectionId', message: 'is unknown' }],
      }),
    )
    const error = await failureOf(client.getConnection('c1'))
    expect(error).toBeInstanceOf(type)
    expect(error.message).toBe('Connection not found')
    expect(toKnownErrorResponse(error)?.body.statusCode).toBe(ours)
    if (error instanceof InvalidInputError)
      expect(error.fields).toEqual([{ field: 'connectionId', message: 'is unknown' }])
  })

  it.each([
    [500, { statusCode: 500, message: 'Internal server error', error: 'x' }],
    [401, { statusCode: 401, message: 'Unauthorized', error: 'x' }],
    [200, 'not an envelope'],
  ])('maps an agent answer of HTTP %i that is not the caller’s fault to UpstreamError (502)', async (status, body) => {
    const { client } = await clientFor((_req, res) => json(res, status, body))
    const error = await failureOf(client.listProofs())
    expect(error).toBeInstanceOf(UpstreamError)
    expect(toKnownErrorResponse(error)?.body.statusCode).toBe(502)
  })

  it('maps a starting agent (HTTP 503) to 503 with Retry-After, and what it does not implement to 501', async () => {
    let status = 503
    const { client } = await clientFor((_req, res) =>
      json(res, status, { statusCode: status, message: status === 503 ? 'Agent is starting' : 'Not here', error: 'x' }),
    )
    const starting = await failureOf(client.listProofs())
    expect(starting).toBeInstanceOf(UpstreamUnavailableError)
    expect(toKnownErrorResponse(starting)?.body.statusCode).toBe(503)
    expect(toKnownErrorResponse(starting)?.headers?.['Retry-After']).toBe('5')
    status = 501
    const missing = await failureOf(client.listProofs())
    expect(missing).toBeInstanceOf(NotImplementedError)
    expect(toKnownErrorResponse(missing)?.body.statusCode).toBe(501)
  })

  it("logs the agent's refusal of the caller's input at info, and a refused key at warn", async () => {
    const lines: { level: string; message: string; data?: Record<string, unknown> }[] = []
    const logger = new Logger({}, 'debug')
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      logger[level] = (message: string, data?: Record<string, unknown>) => void lines.push({ level, message, data })
    }
    let status = 409
    const agent = await aStandInAgent((_req, res) =>
      json(res, status, { statusCode: status, message: 'Credential record is in invalid state done', error: 'x' }),
    )
    servers.push(agent.server)
    const client = new AgentClient(
      { orgId: 'org-1', endpoint: agent.url, apiKey: API_KEY },
      { timeoutMs: 2000, metrics, logger },
    )
    await failureOf(client.acceptCredentialOffer({ credentialRecordId: 'c1' }))
    status = 401
    await failureOf(client.acceptCredentialOffer({ credentialRecordId: 'c1' }))
    expect(lines).toEqual([
      {
        level: 'info',
        message: 'Agent refused the call',
        data: {
          orgId: 'org-1',
          operation: 'acceptCredentialOffer',
          status: 409,
          error: 'Credential record is in invalid state done',
        },
      },
      expect.objectContaining({ level: 'warn', data: expect.objectContaining({ status: 401 }) as unknown }),
    ])
  })

  it('keeps the connection to an agent open between calls', async () => {
    const ports: number[] = []
    const { client } = await clientFor((req, res) => {
      ports.push(req.socket.remotePort ?? 0)
      json(res, 200, { statusCode: 200, message: 'ok', data: [] })
    })
    for (let i = 0; i < 3; i++) await client.listConnections()
    expect(ports).toHaveLength(3)
    expect(new Set(ports).size).toBe(1)
  })

  it('counts the answer body in the timeout: an agent that starts answering and stalls is a timeout', async () => {
    const { client } = await clientFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"statusCode":200,')
    }, 150)
    const error = await failureOf(client.listConnections())
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error.message).toMatch(/did not answer listConnections within 150 ms/)
  })

  it('maps an agent that does not answer in time to UpstreamError (502) after the timeout', async () => {
    const { client } = await clientFor(() => undefined, 150)
    const startedAt = Date.now()
    const error = await failureOf(client.listConnections())
    expect(Date.now() - startedAt).toBeLessThan(1500)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error.message).toMatch(/did not answer listConnections within 150 ms/)
    expect(toKnownErrorResponse(error)?.body.statusCode).toBe(502)
  })

  it('maps an agent that is not listening (restarting) to a 503 with Retry-After naming the network error', async () => {
    const { client } = await clientFor(() => undefined)
    const server = servers.pop()
    await new Promise((resolve) => server?.close(resolve))
    const error = await failureOf(client.getStatus())
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error.message).toMatch(/could not be reached for getStatus \(ECONNREFUSED\)/)
    expect(error.message).not.toContain(API_KEY)
    const response = toKnownErrorResponse(error)
    expect(response?.body.statusCode).toBe(503)
    expect(response?.headers['Retry-After']).toBe('5')
  })

  it('sends a call once more, on a new connection, when a kept connection closes before any answer', async () => {
    const requestsOn = new Map<number, number>()
    const { client, seen } = await clientFor((req, res) => {
      const port = req.socket.remotePort ?? 0
      const earlier = requestsOn.get(port) ?? 0
      requestsOn.set(port, earlier + 1)
      // The second request on the first connection finds it closing, as when the agent's keep-alive timer ran out.
      if (earlier === 1) req.socket.destroy()
      else json(res, 200, { statusCode: 200, message: 'ok', data: [] })
    })
    await client.listConnections()
    await expect(client.listConnections()).resolves.toEqual([])
    expect(seen.map((request) => request.url)).toEqual(['/connections', '/connections', '/connections'])
    expect([...requestsOn.values()]).toEqual([2, 1])
    expect(await registry.metrics()).toContain(
      'idplane_api_agent_requests_repeated_total{operation="listConnections"} 1',
    )
  })

  it('keeps the first error when the call sent again finds the agent down (killed mid-call)', async () => {
    let calls = 0
    const { client, seen } = await clientFor((req, res) => {
      calls += 1
      if (calls === 1) return json(res, 200, { statusCode: 200, message: 'ok', data: [] })
      // Killed: the connection breaks and nothing listens any more.
      servers[0]?.close()
      req.socket.destroy()
    })
    await client.listConnections()
    const error = await failureOf(client.listConnections())
    expect(error.message).toMatch(/went away during listConnections \((ECONNRESET|EPIPE)\) and may have acted/)
    expect(toKnownErrorResponse(error)?.body.statusCode).toBe(503)
    expect(seen).toHaveLength(2)
  })

  it('maps an agent that closes the connection without answering (killed mid-call) to a 503 that says it may have acted', async () => {
    const { client, seen } = await clientFor((req) => req.socket.destroy())
    const error = await failureOf(client.getStatus())
    // A new connection that breaks is not the keep-alive race: the call is not sent again.
    expect(seen).toHaveLength(1)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error.message).toMatch(/went away during getStatus \((ECONNRESET|EPIPE|UND_ERR_SOCKET)\) and may have acted/)
    const response = toKnownErrorResponse(error)
    expect(response?.body.statusCode).toBe(503)
    expect(response?.headers['Retry-After']).toBe('5')
  })

  it('refuses a DID answer without a DID', async () => {
    const { client } = await clientFor((_req, res) => json(res, 201, { statusCode: 201, message: 'x', data: {} }))
    expect(await failureOf(client.createDid({ method: 'key' }))).toBeInstanceOf(UpstreamError)
  })

  it('counts each call by method, operation and outcome', async () => {
    let status = 200
    const { client } = await clientFor((_req, res) => json(res, status, { statusCode: status, message: 'm', data: [] }))
    await client.listConnections()
    status = 404
    await failureOf(client.getProof('p1'))
    status = 502
    await failureOf(client.verifyProof('p1'))
    const timingOut = new AgentClient(
      { orgId: 'org-1', endpoint: (await clientFor(() => undefined)).url, apiKey: API_KEY },
      { timeoutMs: 100, metrics, logger: silentLogger },
    )
    await failureOf(timingOut.listDids())
    const sets = histogramLabelSets(await registry.metrics(), 'idplane_api_agent_request_duration_seconds')
    expect(sets).toEqual(
      expect.arrayContaining([
        { method: 'GET', operation: 'listConnections', outcome: 'success' },
        { method: 'GET', operation: 'getProof', outcome: 'rejected' },
        { method: 'POST', operation: 'verifyProof', outcome: 'failed' },
        { method: 'GET', operation: 'listDids', outcome: 'timeout' },
      ]),
    )
    expect(sets).toHaveLength(4)
  })
})
