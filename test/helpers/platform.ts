import type { Server } from 'node:http'
import request from 'supertest'
import { claimAgentPorts, closeServer, freePort } from './ports'
import { waitUntil } from './agent-process'
import { startApi, type TestApi } from './api'
import { compileProgram, type CompiledProgram } from './compile-program'

/**
 * The API listening on a real port of 127.0.0.1 (so the agents it runs can post their events back and fetch its
 * short links), running the real agent program as local processes. DATABASE_URL / AMQP_URL choose the real
 * services or the embedded defaults, as everywhere.
 */
export interface Platform {
  api: TestApi
  /** `http://127.0.0.1:<port>`: the public and the internal URL. */
  baseUrl: string
  /** Provisions the organization's agent through the API (its first DID: `method`, default key) and waits for it. */
  spinUp(orgId: string, token: string, label: string, method?: 'key' | 'indy'): Promise<void>
  stop(): Promise<void>
}

export async function startPlatform(env: Record<string, string> = {}): Promise<Platform> {
  let compiled: CompiledProgram | undefined = await compileProgram('agent')
  let api: TestApi | undefined
  let server: Server | undefined
  try {
    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    api = await startApi({
      AGENT_ENTRYPOINT: compiled.main,
      AGENT_POLL_ATTEMPTS: '240',
      AGENT_POLL_INTERVAL_MS: '1000',
      AGENT_PORT_COUNTER_START: (await claimAgentPorts()).setting,
      API_PUBLIC_URL: baseUrl,
      API_INTERNAL_URL: baseUrl,
      ...env,
    })
    const app = api.app
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(port, '127.0.0.1', () => resolve(listening))
    })
    const running = { api, server, compiled }
    return {
      api,
      baseUrl,
      spinUp: async (orgId, token, label, method = 'key') => {
        await request(app)
          .post(`/v1/orgs/${orgId}/agents/spinup`)
          .set('Authorization', `Bearer ${token}`)
          .send({ label, method })
          .expect(201)
        const agent = await waitUntil(async () => {
          const health = await request(app)
            .get(`/v1/orgs/${orgId}/agents/health`)
            .set('Authorization', `Bearer ${token}`)
          const status = (health.body.data as { status: string }).status
          return status === 'DID_CREATED' || status === 'FAILED' ? (health.body.data as object) : undefined
        }, 300_000)
        expect(agent).toMatchObject({ status: 'DID_CREATED' })
      },
      stop: async () => {
        await new Promise((resolve) => running.server.close(resolve))
        await running.api.stop()
        running.compiled.remove()
      },
    }
  } catch (error) {
    await closeServer(server)
    await api?.stop()
    compiled?.remove()
    compiled = undefined
    throw error
  }
}
