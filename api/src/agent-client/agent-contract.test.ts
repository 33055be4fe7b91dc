import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { silentLogger } from '@idplane/common'
import { defineOperation, shape } from '@idplane/common/agent-contract/operation'
import { ADMIN_OPERATIONS } from '@idplane/common/agent-contract/operations'
import { IsString } from 'class-validator'
import express from 'express'
import { Registry } from 'prom-client'
import { createAdminApp } from '../../../agent/src/admin/admin-app'
import { type AdminControllers, registerAdminRoutes } from '../../../agent/src/admin/admin-routes'
import { AgentRuntime } from '../../../agent/src/admin/agent-runtime'
import { errorHandler, toErrorBody } from '../../../agent/src/admin/error-handler'
import { AgentMetrics } from '../../../agent/src/metrics/agent-metrics'
import { AgentClient } from './agent-client'
import { AgentClientMetrics } from './agent-client-metrics'
import { callOperation } from './agent-request'
import { OpenId4VcAgentClient } from './openid4vc-agent-client'

/** `GET /connections/:connectionId` for each route the app itself registered, but its own infrastructure routes. */
function routesOf(app: express.Express): string[] {
  const layers = app.router.stack as unknown as { route?: { path: string; methods: Record<string, boolean> } }[]
  return [
    ...new Set(
      layers.flatMap(({ route }) =>
        route && !['/metrics', '/api-json'].includes(route.path)
          ? Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${route.path}`)
          : [],
      ),
    ),
  ].sort()
}

const declared = Object.values(ADMIN_OPERATIONS)
  .map((operation) => `${operation.method} ${operation.path}`)
  .sort()

/** The declared template a request line matches (`/connections/x` → `/connections/:connectionId`). */
function templateOf(method: string, url: string): string {
  const path = url.split('?')[0] ?? ''
  const match = Object.values(ADMIN_OPERATIONS).find(
    (operation) =>
      operation.method === method && new RegExp(`^${operation.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`).test(path),
  )
  return match ? `${method} ${match.path}` : `${method} ${path} (undeclared)`
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

const close = (server: Server) => new Promise((resolve) => server.close(resolve))
const options = () => ({ timeoutMs: 2000, metrics: new AgentClientMetrics(new Registry()), logger: silentLogger })

describe('the agent contract (common/agent-contract/operations/)', () => {
  it("gives the agent's admin app exactly the declared operations as routes", () => {
    const app = createAdminApp({
      runtime: new AgentRuntime('contract', ['http://127.0.0.1:1']),
      apiKey: 'contract-api-key-0001',
      metrics: new AgentMetrics(),
      logger: silentLogger,
    })
    expect(routesOf(app)).toEqual(declared)
    expect(declared.length).toBeGreaterThan(40)
  })

  it("has the API's AgentClient call exactly the declared operations, each with one method", async () => {
    const seen: string[] = []
    const { server, url } = await listen((req, res) => {
      seen.push(templateOf(req.method ?? '', req.url ?? ''))
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ statusCode: 200, message: 'OK', data: { did: 'did:key:z6Mk1' } }))
    })
    try {
      const client = new AgentClient({ orgId: 'org-1', endpoint: url, apiKey: 'k' }, options())
      // The OpenID4VC operations have a client of their own around AgentClient.
      const clients = [client, new OpenId4VcAgentClient(client)]
      let calls = 0
      for (const each of clients) {
        const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(each)).filter(
          (name) => !['constructor', 'orgId', 'forTenant', 'withTimeout', 'call'].includes(name),
        )
        for (const name of methods) {
          const method = (each as unknown as Record<string, (...args: string[]) => Promise<unknown>>)[name]
          await method?.apply(
            each,
            Array.from({ length: method.length }, () => 'x'),
          )
        }
        calls += methods.length
      }
      expect(seen.length).toBe(calls)
      expect([...new Set(seen)].sort()).toEqual(declared)
    } finally {
      await close(server)
    }
  })

  describe('adding an operation: one declaration, one handler', () => {
    class EchoDto {
      @IsString() text: string
    }
    // The declaration, as a new kind's file in common/agent-contract/operations/ would hold it.
    const echo = defineOperation({
      name: 'echo',
      method: 'POST',
      path: '/echo/:times',
      message: 'Echoed',
      body: shape<{ text: string }>(),
      result: shape<{ text: string }>(),
      summary: 'Repeats a text',
      errors: { 409: 'never' },
    })
    const kinds = { echoes: { echo } }
    // The handler, as the kind's controller in agent/src/admin/ would hold it.
    const controllers: AdminControllers<typeof kinds> = {
      echoes: {
        echo: {
          body: EchoDto,
          handle: async ({ params, body }) => ({ text: body.text.repeat(Number(params.times)) }),
        },
      },
    }

    function anAgentWith(kindControllers: AdminControllers<typeof kinds>) {
      const app = express()
      app.use(express.json())
      registerAdminRoutes(app, kinds, kindControllers, {
        isAuthorized: (req) => req.header('authorization') === 'Bearer k',
        scopeOf: () => undefined,
        statusOf: (error) => toErrorBody(error).statusCode,
        logger: silentLogger,
      })
      app.use(errorHandler(silentLogger))
      return app
    }

    it('is served by the agent and called by the API with nothing else written', async () => {
      const { server, url } = await listen(anAgentWith(controllers))
      try {
        const target = { orgId: 'org-1', endpoint: url, apiKey: 'k' }
        const answer = await callOperation(target, echo, { params: { times: '3' }, body: { text: 'ab' } }, options())
        expect(answer).toEqual({ text: 'ababab' })
        const refused = callOperation(target, echo, { params: { times: '1' }, body: { text: 1 as never } }, options())
        await expect(refused).rejects.toMatchObject({ name: 'InvalidInputError', message: 'Validation failed' })
      } finally {
        await close(server)
      }
    })

    it('fails to type-check and to start without its handler', () => {
      // @ts-expect-error the echoes kind has no handler for echo
      const missing: AdminControllers<typeof kinds> = { echoes: {} }
      expect(() => anAgentWith(missing)).toThrow('echoes.echo (POST /echo/:times) has no handler')
    })

    it('fails to start with a handler for no declared operation, or without the body DTO', () => {
      const extra = { echoes: { ...controllers.echoes, shout: controllers.echoes.echo } }
      expect(() => anAgentWith(extra as AdminControllers<typeof kinds>)).toThrow(
        'echoes.shout handles no declared operation',
      )
      const noDto = { echoes: { echo: { handle: controllers.echoes.echo.handle } } }
      expect(() => anAgentWith(noDto as unknown as AdminControllers<typeof kinds>)).toThrow(
        'echoes.echo needs a body DTO',
      )
    })
  })
})
