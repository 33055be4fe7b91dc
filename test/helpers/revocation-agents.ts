import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'

import request from 'supertest'

import { startApi, type TestApi } from './api'
import { writeFakeAgentPrograms } from './fake-agent-program'
import { connectAgents } from './agent-in-process'
import { startLedgerAgent, type LedgerAgent } from './ledger-agent'
import { type AgentPorts, freePort } from './ports'
import { aUserWithToken, anOrganizationWith } from './tokens'

export interface RevocationAgents {
  api: TestApi
  baseUrl: string
  issuer: LedgerAgent
  holder: LedgerAgent
  issuerConnectionId: string
  stop(): Promise<void>
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await sleep(20)
  }
}

/** A real API serving the platform ledger, and the event token of an organization's (fake) agent on it. */
export interface LedgerPlatform {
  api: TestApi
  baseUrl: string
  /** The organization agent's event token: agents in the test process write to the ledger with it. */
  token: string
  stop(): Promise<void>
}

/**
 * A real API on a fresh database, listening on a free 127.0.0.1 port, with an organization whose agent (a fake
 * program on `agentPorts`, claimAgentPorts) is up; `env` adds API settings. A failed start stops what it started.
 */
export async function startLedgerPlatform(
  agentPorts: AgentPorts,
  label: string,
  env: Record<string, string> = {},
): Promise<LedgerPlatform> {
  const programs = writeFakeAgentPrograms(tmpdir())
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  let api: TestApi | undefined
  let server: Server | undefined
  const stop = async () => {
    if (server?.listening) await new Promise((resolve) => server?.close(resolve))
    await api?.stop()
    programs.remove()
  }
  try {
    api = await startApi({
      LEDGER_NAMESPACE: 'idplane:test',
      API_PUBLIC_URL: baseUrl,
      AGENT_ENTRYPOINT: programs.path('healthy'),
      AGENT_POLL_ATTEMPTS: '50',
      AGENT_POLL_INTERVAL_MS: '100',
      AGENT_PORT_COUNTER_START: agentPorts.setting,
      ...env,
    })
    const listening = createServer(api.app)
    server = listening
    await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve))
    const owner = await aUserWithToken(api)
    const orgId = await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }])
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label })
      .expect(201)
    const token = await waitFor(async () => {
      try {
        const agentEnv = (await (await fetch(`http://127.0.0.1:${agentPorts.admin + 1}/env`)).json()) as Record<
          string,
          string
        >
        return agentEnv.AGENT_EVENT_TOKEN || undefined
      } catch {
        return undefined
      }
    }, 'the fake agent')
    return { api, baseUrl, token, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * The ledger platform above and two real agents in this process (issuer, holder) writing to it with the event token
 * of the organization's (fake) agent, connected over DIDComm. The same setup as the agent-level revocation
 * integration test. A failed start stops what it started, so it leaves no agent process or queue.
 */
export async function startRevocationAgents(agentPorts: AgentPorts, label: string): Promise<RevocationAgents> {
  const platform = await startLedgerPlatform(agentPorts, label)
  const { api, baseUrl, token } = platform
  const ledgerAgents: LedgerAgent[] = []
  const stop = async () => {
    await Promise.all(ledgerAgents.map((agent) => agent.close()))
    await platform.stop()
  }
  try {
    const started = await Promise.allSettled([
      startLedgerAgent({ url: baseUrl, token }, `${label}_issuer`),
      startLedgerAgent({ url: baseUrl, token }, `${label}_holder`),
    ])
    for (const result of started) if (result.status === 'fulfilled') ledgerAgents.push(result.value)
    const failure = started.find((result): result is PromiseRejectedResult => result.status === 'rejected')
    if (failure) throw failure.reason
    const [issuer, holder] = ledgerAgents
    const issuerConnectionId = await connectAgents(issuer, holder, 20_000)
    return { api, baseUrl, issuer, holder, issuerConnectionId, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
