import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'

import request from 'supertest'

import { startApi, type TestApi } from './api'
import { writeFakeAgentPrograms } from './fake-agent-program'
import { connectAgents } from './agent-in-process'
import { freePort } from './ports'
import { startLedgerAgent, type LedgerAgent } from './ledger-agent'
import { type AgentPorts } from './ports'
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

/**
 * A real API on a fresh database serving the platform ledger, and two real agents in this process (issuer, holder)
 * writing to it with the event token of an organization's (fake) agent, connected over DIDComm. The same setup as
 * the agent-level revocation integration test; `agentPorts` are the API's agents' ports (claimAgentPorts).
 */
export async function startRevocationAgents(agentPorts: AgentPorts, label: string): Promise<RevocationAgents> {
  const programs = writeFakeAgentPrograms(tmpdir())
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  let api: TestApi | undefined
  let server: Server | undefined
  const ledgerAgents: LedgerAgent[] = []
  // Stops whatever was started: also when a step below fails, so a failed start leaves no agent process or queue.
  const stop = async () => {
    await Promise.all(ledgerAgents.map((agent) => agent.close()))
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
        const env = (await (await fetch(`http://127.0.0.1:${agentPorts.admin + 1}/env`)).json()) as Record<
          string,
          string
        >
        return env.AGENT_EVENT_TOKEN || undefined
      } catch {
        return undefined
      }
    }, 'the fake agent')
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
